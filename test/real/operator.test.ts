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
import {
  clearFinalizers,
  createCRD,
  createNamespace,
  get,
  kubectl,
  namespace,
  apply,
  runAction,
  uniqueName,
  waitGone,
} from './kit.js';
import { FINALIZER, GROUP, deployOperator, gizmos, startOperator, type Operator } from './gizmo.js';

async function preview(prefix: string): Promise<{ ns: string; op: Operator }> {
  const ns = uniqueName(prefix);
  await createNamespace(ns);
  await deployOperator(ns);
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
        (o) =>
          o.waited &&
          /gizmo-operator is alive \(.*1 ready replica\(s\).*\) inside the namespace$/.test(o.why),
      ),
    ).toBe(true);
    expect(run.summary).toContain('Custom resources first');
    await kubectl(['get', 'crd', `gizmos.${GROUP}`]);
  });
});
