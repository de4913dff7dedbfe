/**
 * Section 11's real-server row: one namespace held by a leaked custom-resource finalizer on a real control plane
 * (kube-apiserver and kube-controller-manager 1.20), torn down with the default inputs: the time from the start of the
 * run to its answer, with the real namespace controller's passes deciding when it is settled.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { createKube } from '../src/kube/client.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import { runTeardown } from '../src/teardown/run-teardown.js';
import { resolveTargets } from '../src/targets/resolve.js';
import { raw, waitFor, type StartedCluster } from '../test/fake-apiserver/index.js';
import { startControlPlane, stopControlPlane } from '../test/real/control-plane.js';
import { sampleOf, type SettleSample } from './settle.js';

const GROUP = 'settle.bench.example.com';
const NS = 'preview-leak';

async function post(s: StartedCluster, path: string, body: unknown): Promise<void> {
  const r = await raw(s, 'POST', path, { body });
  if (r.status !== 201) throw new Error(`bench: POST ${path}: ${r.status} ${r.text.slice(0, 300)}`);
}

/** The CRD (established), the namespace, and one widget in it holding a finalizer no controller removes. */
async function build(s: StartedCluster): Promise<void> {
  await post(s, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
    metadata: { name: `widgets.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  await waitFor(async () => (await raw(s, 'GET', `/apis/${GROUP}/v1`)).status === 200, 120_000, 200);
  await post(s, '/api/v1/namespaces', { metadata: { name: NS } });
  await post(s, `/apis/${GROUP}/v1/namespaces/${NS}/widgets`, {
    apiVersion: `${GROUP}/v1`,
    kind: 'Widget',
    metadata: { name: 'w0', finalizers: [`${GROUP}/cleanup`] },
  });
}

/** Start a control plane with its controller-manager, build the leak, and time one run with the default inputs. */
export async function runSettleReal(assets: string, log: (line: string) => void): Promise<SettleSample> {
  const plane = await startControlPlane(assets, { controllerManager: true });
  try {
    await build(plane.admin);
    const kc = new KubeConfig();
    kc.loadFromString(plane.admin.kubeconfig);
    const kube = createKube(kc);
    try {
      const settings = readSettings((n) => ({ namespaces: NS, 'target-label': 'none' })[n] ?? '');
      const started = performance.now();
      const report = await runTeardown(
        settings,
        { kube, logger: new RecordingLogger(), clock: systemClock },
        {},
        await resolveTargets(settings, kube),
      );
      const sample = sampleOf({ report, wallMs: performance.now() - started });
      log(
        `settle, real server: ${(sample.wallMs / 1000).toFixed(1)} s, ${sample.result}, wait ended ${sample.ended}`,
      );
      return sample;
    } finally {
      await kube.close();
    }
  } finally {
    await stopControlPlane(plane);
  }
}
