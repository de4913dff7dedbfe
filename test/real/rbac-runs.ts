/**
 * One run per mode on the real server, made as that mode's identity alone (test/real/rbac-matrix.test.ts): each
 * does its job, and the only refusals its report holds are the reads no role grants on purpose.
 */
import { EXAMPLE_CRD } from '../../src/permissions/matrix.js';
import type { RunReport } from '../../src/model/run.js';
import { deployOperator, FINALIZER, gizmos, GROUP as GIZMOS, startOperator } from './gizmo.js';
import {
  apply,
  clearFinalizers,
  createNamespace,
  get,
  kubectl,
  namespace,
  runAction,
  uniqueName,
  waitCondition,
  waitGone,
} from './kit.js';
import type { Identity } from './rbac-identities.js';

export const CR_API = `/apis/${EXAMPLE_CRD.group}/v1`;
export const CR_TYPE = `${EXAMPLE_CRD.resource}.${EXAMPLE_CRD.group}`;
/** A Widget, the example custom type of the matrix. */
export const widget = (ns: string, name: string, finalizers: string[]): Record<string, unknown> => ({
  apiVersion: `${EXAMPLE_CRD.group}/v1`,
  kind: EXAMPLE_CRD.kind,
  metadata: { namespace: ns, name, finalizers },
});

/**
 * Refused on purpose by every role: Secrets (a `list` would read their data), and on 1.20 the deprecated
 * `extensions` ingresses, which the diagnose role leaves to networking.k8s.io.
 */
const NOT_GRANTED = [/^list secrets: 403 /, /^list ingresses\.extensions: 403 /];

/** Every refusal a run met, as its report records it: reads, the custom-resources phase, forcing, the owners. */
export function refusals(report: RunReport): string[] {
  const said = report.targets.flatMap((t) => [
    ...(t.unread ?? []).map((u) => `${u.what}: ${u.error}`),
    ...(t.preMortem?.readErrors ?? []).map((u) => `${u.what}: ${u.error}`),
    ...(t.customResources?.objects ?? []).flatMap((o) => (o.left ? [`${o.object}: ${o.left.detail}`] : [])),
    ...(t.force?.audit ?? []).flatMap((a) => (a.result === 'failed' ? [`${a.object}: ${a.error}`] : [])),
    ...(t.note ? [`${t.name}: ${t.note}`] : []),
  ]);
  const owners = (report.lifecycle?.owners ?? []).map((o) => `${o.owner}: ${o.note}`);
  return [...new Set([...said, ...owners])].filter((s) => /\b403\b|forbidden/i.test(s)).sort();
}

/** The refusals beyond those no role grants on purpose: none, for a mode bound as the README says. */
export const unexpected = (report: RunReport): string[] =>
  refusals(report).filter((r) => !NOT_GRANTED.some((n) => n.test(r)));

/** delete alone: reads and deletes namespaces; every refusal is a read of the diagnosis, none a write. */
export async function deleteMode(id: Identity): Promise<void> {
  const ns = uniqueName('rbac-delete');
  await createNamespace(ns);
  await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'c1' } });
  const run = await runAction({
    namespaces: ns,
    kubeconfig: id.kubeconfig,
    timeout: '60s',
    'teardown-order': 'namespace',
  });
  expect([run.code, run.outputs.result, run.report!.targets[0]!.outcome]).toEqual([0, 'clean', 'gone']);
  expect(await namespace(ns)).toBeUndefined();
  const refused = refusals(run.report!);
  expect(refused.some((r) => r.startsWith('list configmaps: 403 '))).toBe(true);
  expect(refused.filter((r) => /resource "namespaces"|cannot (create|delete|patch|update) /.test(r))).toEqual(
    [],
  );
}

/** diagnose alone, `scope: all-terminating`: both finalizers named with their objects, nothing written. */
export async function diagnoseMode(id: Identity): Promise<void> {
  const ns = uniqueName('rbac-diagnose');
  await createNamespace(ns, { 'rbac-probe': ns });
  await apply(widget(ns, 'w1', ['example.com/cleanup']), {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { namespace: ns, name: 'c1', finalizers: ['example.com/hold'] },
  });
  await kubectl(['delete', 'namespace', ns, '--wait=false']);
  await waitCondition(ns, 'NamespaceFinalizersRemaining');
  const run = await runAction({
    scope: 'all-terminating',
    selector: `rbac-probe=${ns}`,
    kubeconfig: id.kubeconfig,
    timeout: '10s',
    'fail-on': 'never',
  });
  const t = run.report!.targets[0]!;
  expect([t.name, t.outcome]).toEqual([ns, 'stuck']);
  const held = t.findings.filter((f) => f.id === 'object-finalizers').map((f) => f.summary);
  expect(held.join('\n')).toContain(`${CR_TYPE}/w1 holds finalizer(s) example.com/cleanup`);
  expect(held.join('\n')).toContain('configmaps/c1 holds finalizer(s) example.com/hold');
  expect(unexpected(run.report!)).toEqual([]);
  expect((await get(`${CR_API}/namespaces/${ns}/${EXAMPLE_CRD.resource}/w1`)).metadata.finalizers).toEqual([
    'example.com/cleanup',
  ]);
  await clearFinalizers(`${CR_API}/namespaces/${ns}/${EXAMPLE_CRD.resource}/w1`);
  await clearFinalizers(`/api/v1/namespaces/${ns}/configmaps/c1`);
  expect(await waitGone(ns)).toBe(true);
}

/** The default order: the operator in the namespace releases its gizmos while it runs, then the namespace goes. */
export async function customResourcesMode(id: Identity): Promise<void> {
  const ns = uniqueName('rbac-first');
  await createNamespace(ns);
  await deployOperator(ns);
  for (const name of ['g1', 'g2'])
    await apply({
      apiVersion: `${GIZMOS}/v1`,
      kind: 'Gizmo',
      metadata: { namespace: ns, name, finalizers: [FINALIZER] },
    });
  const op = await startOperator(ns);
  const run = await runAction({
    namespaces: ns,
    kubeconfig: id.kubeconfig,
    timeout: '40s',
    'fail-on': 'stuck',
  });
  expect(run.outputs.result).toBe('clean');
  expect(op.cleanups()).toEqual([`deleted bucket for ${ns}/g1`, `deleted bucket for ${ns}/g2`]);
  expect(run.report!.targets[0]!.customResources!.types).toEqual([
    expect.objectContaining({ type: `gizmos.${GIZMOS}`, found: 2, gone: 2, left: {} }),
  ]);
  expect(await get(`${gizmos(ns)}/g1`)).toBeUndefined();
  expect(unexpected(run.report!)).toEqual([]);
}

const minutesAgo = (n: number): string =>
  new Date(Date.now() - n * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

/** force: a custom resource's finalizer, the namespace's own, and a pod on a lost node, each forced. */
export async function forceMode(id: Identity): Promise<void> {
  const ns = uniqueName('rbac-force');
  const node = uniqueName('spot');
  const since = minutesAgo(10);
  const lost = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: since, lastTransitionTime: since };
  await apply(
    { apiVersion: 'v1', kind: 'Node', metadata: { name: node }, status: { conditions: [lost] } },
    {
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: ns, finalizers: ['finalizers.kubesphere.io/ns'] },
    },
  );
  await apply(widget(ns, 'w1', ['example.com/cleanup']), {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace: ns, name: 'web-0' },
    spec: {
      nodeName: node,
      automountServiceAccountToken: false,
      containers: [{ name: 'a', image: 'pause' }],
    },
  });
  try {
    const run = await runAction({
      namespaces: ns,
      kubeconfig: id.kubeconfig,
      timeout: '60s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'example.com/*\nfinalizers.kubesphere.io/*',
      'force-delete-pods': 'lost-nodes',
      'fail-on': 'stuck',
    });
    expect(run.outputs.result).toBe('forced');
    const done = run.report!.targets[0]!.force!.audit.filter((a) => a.result !== 'skipped');
    expect(done.map((a) => `${a.object}: ${a.result}`).sort()).toEqual([
      `namespace/${ns}: removed`,
      'pods/web-0: deleted',
      `${CR_TYPE}/w1: removed`,
    ]);
    expect(await namespace(ns)).toBeUndefined();
    expect(unexpected(run.report!)).toEqual([]);
  } finally {
    await kubectl(['delete', 'node', node, '--ignore-not-found']);
  }
}
