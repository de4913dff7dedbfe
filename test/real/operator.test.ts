/**
 * A real controller process against the real kube-apiserver: `gizmo-operator.mjs` (client-node) releases its
 * finalizer from gizmos being deleted, after its cleanup, which it records in a file.
 *
 * Kubernetes 1.20 has no pods-first deletion (OrderedNamespaceDeletion came in 1.33, locked on in 1.34): its
 * namespace controller deletes every type in one pass, and there is no kubelet here to stop a pod at all. On 1.33+
 * the operator's pod inside the namespace is stopped before its custom resources are deleted. This test stands in
 * for that: it kills the operator process the moment its namespace gets a deletionTimestamp — exactly what the
 * kubelet would do to a pod inside it under pods-first ordering.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  apply,
  clearFinalizers,
  createCRD,
  createNamespace,
  get,
  kubectl,
  namespace,
  plane,
  raw,
  admin,
  runAction,
  sleep,
  uniqueName,
  waitFor,
  waitGone,
} from './kit.js';

const GROUP = 'gizmos.acmeops.io';
const FINALIZER = 'acmeops.io/cleanup';
const gizmos = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/gizmos`;

interface Operator {
  child: ChildProcess;
  record: string;
  cleanups: () => string[];
  /** When the test killed it (the namespace got its deletionTimestamp). */
  killedAt: () => number | undefined;
}

/**
 * The operator's Deployment, made ready by hand (no kubelet here): the owner evidence reads it, as it would read a
 * real operator's. Its pod's status is written Ready, so the ReplicaSet and Deployment count it.
 */
async function deployment(ns: string): Promise<void> {
  await apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { namespace: ns, name: 'gizmo-operator' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'gizmo-operator' } },
      template: {
        metadata: { labels: { app: 'gizmo-operator' } },
        spec: { containers: [{ name: 'operator', image: 'ghcr.io/acmeops/gizmo-operator:1.0' }] },
      },
    },
  });
  const pod = await waitFor(
    async () => {
      const list = await get(`/api/v1/namespaces/${ns}/pods`);
      return (list?.items ?? [])[0]?.metadata?.name as string | undefined;
    },
    30_000,
    200,
  );
  await raw(admin(), 'PATCH', `/api/v1/namespaces/${ns}/pods/${pod}/status`, {
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
  });
  await waitFor(
    async () => {
      const d = await get(`/apis/apps/v1/namespaces/${ns}/deployments/gizmo-operator`);
      return (d?.status?.readyReplicas ?? 0) >= 1 || undefined;
    },
    30_000,
    200,
  );
}

/** Start the operator process and the stand-in for pods-first ordering that kills it. */
async function startOperator(ns: string): Promise<Operator> {
  const dir = mkdtempSync(join(tmpdir(), 'gizmo-'));
  const record = join(dir, 'cleanups.txt');
  writeFileSync(record, '');
  const args = [join(plane().dir, 'admin.kubeconfig'), ns, GROUP, 'v1', 'gizmos', FINALIZER, record];
  const child = spawn(process.execPath, ['test/real/gizmo-operator.mjs', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  let killedAt: number | undefined;
  void (async () => {
    while (child.exitCode === null && killedAt === undefined) {
      const n = await namespace(ns);
      if (!n || n.metadata.deletionTimestamp) {
        child.kill('SIGKILL');
        killedAt = Date.now();
      } else await sleep(100);
    }
  })();
  const cleanups = (): string[] => readFileSync(record, 'utf8').split('\n').filter(Boolean).sort();
  return { child, record, cleanups, killedAt: () => killedAt };
}

async function preview(prefix: string): Promise<{ ns: string; op: Operator }> {
  const ns = uniqueName(prefix);
  await createNamespace(ns);
  await deployment(ns);
  for (const name of ['g1', 'g2'])
    await apply({
      apiVersion: `${GROUP}/v1`,
      kind: 'Gizmo',
      metadata: { namespace: ns, name, finalizers: [FINALIZER] },
    });
  return { ns, op: await startOperator(ns) };
}

describe('an operator inside the preview namespace, against the real server', () => {
  beforeAll(() => createCRD(GROUP, 'Gizmo', 'gizmos'));

  test('`namespace` order: the operator is stopped first and the namespace hangs on its finalizer', async () => {
    const { ns, op } = await preview('op-ns');
    const run = await runAction({
      namespaces: ns,
      timeout: '15s',
      'teardown-order': 'namespace',
      'fail-on': 'stuck',
    });
    expect(run.outputs.result).toBe('stuck');
    expect(op.killedAt()).toBeDefined();
    expect(op.cleanups()).toEqual([]);
    const left = await get(`${gizmos(ns)}/g1`);
    expect(left.metadata.finalizers).toEqual([FINALIZER]);
    expect(left.metadata.deletionTimestamp).toBeDefined();
    const p = run.report!.targets[0]!.preMortem!.predictions;
    // 1.20 does not delete pods first: the pre-mortem says so instead of calling it certain.
    expect(p.map((x) => [x.kind, x.hang])).toEqual([['in-namespace-controller', false]]);
    expect(p[0]!.summary).toMatch(/does not delete pods first/);
    // Let it go, so the control plane is left clean.
    for (const g of ['g1', 'g2']) await clearFinalizers(`${gizmos(ns)}/${g}`);
    expect(await waitGone(ns)).toBe(true);
  });

  test('`custom-resources-first`: the operator cleans up while it runs, then the namespace goes', async () => {
    const { ns, op } = await preview('op-first');
    const run = await runAction({ namespaces: ns, timeout: '40s', 'fail-on': 'stuck' });
    expect(run.outputs.result).toBe('clean');
    expect(op.cleanups()).toEqual([`deleted bucket for ${ns}/g1`, `deleted bucket for ${ns}/g2`]);
    expect(op.killedAt()).toBeDefined();
    expect(await namespace(ns)).toBeUndefined();
    const phase = run.report!.targets[0]!.customResources!;
    expect(phase.types).toEqual([
      expect.objectContaining({ type: `gizmos.${GROUP}`, found: 2, gone: 2, left: {} }),
    ]);
    expect(
      phase.objects.every(
        (o) => o.waited && /gizmo-operator \(1 ready\) runs inside the namespace/.test(o.why),
      ),
    ).toBe(true);
    expect(run.summary).toContain('Custom resources first');
    await kubectl(['get', 'crd', `gizmos.${GROUP}`]);
  });
});
