/** A fake cluster with a live GitOps controller and one owner of `pr-5`, and a whole run against it over HTTPS. */
import { KubeConfig } from '@kubernetes/client-node';
import { runEngine } from '../../src/entry/engine.js';
import { createKube } from '../../src/kube/client.js';
import type { Kube } from '../../src/kube/port.js';
import type { OwnerAction } from '../../src/model/lifecycle.js';
import type { RunReport } from '../../src/model/run.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { FakeCluster, FAST, GITOPS_TYPES, type GitOpsFlavour } from '../fake-apiserver/index.js';
import { UNFENCED } from '../helpers/inputs.js';

/** The owner type of a GitOps flavour, as a GVR. */
export const gvr = (f: GitOpsFlavour): { group: string; version: string; resource: string } => ({
  group: GITOPS_TYPES[f].group,
  version: GITOPS_TYPES[f].version,
  resource: GITOPS_TYPES[f].plural,
});

/** A cluster with a live GitOps controller of `flavour` and one owner (`owner` makes its body) of `pr-5`. */
export function world(
  flavour: GitOpsFlavour,
  owner: Record<string, unknown>,
  more: string[] = [],
): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  for (const ns of ['pr-5', ...more]) cluster.addNamespace(ns);
  cluster.addGitOps(flavour);
  cluster.addObject(gvr(flavour), owner);
  return cluster;
}

/** Run the action's engine on `cluster` with `inputs` (deleting `pr-5`); `wrap` may stand between it and the port. */
export async function run(
  cluster: FakeCluster,
  inputs: Record<string, string>,
  wrap: (kube: Kube) => Kube = (k) => k,
): Promise<{ report: RunReport; log: string[] }> {
  const { kubeconfig } = await cluster.start();
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  const logger = new RecordingLogger();
  try {
    const all: Record<string, string> = {
      ...UNFENCED,
      namespaces: 'pr-5',
      timeout: '20s',
      'fail-on': 'stuck',
      ...inputs,
    };
    const report = await runEngine(
      readSettings((n) => all[n] ?? ''),
      {
        kube: wrap(kube),
        logger,
        clock: systemClock,
        github: () => Promise.reject(new Error('no GitHub here')),
        serverUrl: 'https://github.com',
        pollMs: 200,
      },
      {},
    );
    return { report, log: logger.lines };
  } finally {
    await kube.close();
  }
}

/** What the run did with the GitOps owners. */
export const owners = (r: RunReport): OwnerAction[] => r.lifecycle?.owners ?? [];

/** The writes the run sent to objects of `plural` (an owner type), with the answer's status. */
export const writesTo = (cluster: FakeCluster, plural: string): string[] =>
  cluster.requests
    .filter((r) => r.method !== 'GET' && r.path.includes(`/${plural}/`))
    .map((r) => `${r.method} ${r.path} ${r.status}`);
