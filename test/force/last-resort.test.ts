import type { RunReport } from '../../src/model/run.js';
import { FakeCluster, GVR, claimOnLostNode, webhookBlocksCR } from '../fake-apiserver/index.js';
import { forceRun, outside, targetOf as target, writeLines, writes } from '../helpers/cluster-state.js';
import { FAST } from '../helpers/harness.js';
import { resultText } from '../../src/force/audit.js';

const orphansOf = (report: RunReport, name: string): string[] =>
  target(report, name).force!.plan.steps.flatMap((s) => (s.kind === 'namespace-finalize' ? s.orphans : []));

describe('the last resort and lost nodes, over real HTTPS', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  /** Start the scenario's cluster (stopped after each test) and run the engine with force on. */
  const run = (s: { cluster: FakeCluster; namespace: string }, inputs: Record<string, string>) => {
    cluster = s.cluster;
    return forceRun(s, { timeout: '10s', ...inputs });
  };

  test('a webhook refuses the CR delete: /finalize goes ahead and lists the CR it leaves in storage', async () => {
    const s = webhookBlocksCR({ controller: FAST });
    const { report, before } = await run(s, {
      'force-finalizers': 'kiali.io/*',
      'force-finalize-namespace': 'true',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    // The finalizer step is skipped without a write (the CR was never marked); only /finalize writes. Its
    // controller is absent, so the custom-resources phase left it to the namespace controller.
    expect(writeLines(cluster, s.namespace)).toEqual(['PUT /api/v1/namespaces/preview-1/finalize 200']);
    expect(t.customResources!.objects[0]!.left).toMatchObject({ reason: 'controller-absent' });
    expect(t.force!.audit.map((a) => `${a.object} ${a.field}: ${resultText(a)}`)).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: skipped: not being deleted yet',
      'namespace/preview-1 spec.finalizers: finalized',
    ]);
    expect(orphansOf(report, s.namespace)).toContain(
      'kialis.kiali.io/kiali (never marked for deletion; keeps kiali.io/finalizer)',
    );
    expect(t.findings.map((f) => f.id)).toContain('content-delete-refused');
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    const cr = cluster.get(GVR.kialis, s.namespace, 'kiali');
    expect(cr.metadata.deletionTimestamp).toBeUndefined();
    expect(cr.metadata.finalizers).toEqual(['kiali.io/finalizer']);
    // The webhook configuration is outside the target: reported, never changed.
    expect(outside(cluster, s.namespace)).toEqual(before);
  });

  test('the webhook case in dry-run: the same plan, zero writes', async () => {
    const s = webhookBlocksCR({ controller: FAST });
    const { report } = await run(s, {
      timeout: '4s',
      force: 'dry-run',
      'force-finalizers': 'kiali.io/*',
      'force-finalize-namespace': 'true',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    expect(t.force!.audit.map((a) => [a.object, resultText(a), a.writes])).toEqual([
      ['kialis.kiali.io/kiali', 'skipped: not being deleted yet', 0],
      ['namespace/preview-1', 'dry-run', 0],
    ]);
    expect(cluster.namespace(s.namespace)!.spec.finalizers).toEqual(['kubernetes']);
  });

  test('pods first, pod on a lost node: pvc-protection named exactly + /finalize allowed → forced', async () => {
    const s = claimOnLostNode({ controller: FAST });
    const { report, before } = await run(s, {
      'force-finalizers': 'kubernetes.io/pvc-protection',
      'force-finalize-namespace': 'true',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    expect(writeLines(cluster, s.namespace)).toEqual(['PUT /api/v1/namespaces/preview-1/finalize 200']);
    expect(t.force!.audit.map((a) => `${a.object}: ${resultText(a)}`)).toEqual([
      'persistentvolumeclaims/data: skipped: not being deleted yet',
      'namespace/preview-1: finalized',
    ]);
    expect(orphansOf(report, s.namespace)).toEqual(
      expect.arrayContaining([
        'persistentvolumeclaims/data (never marked for deletion; keeps kubernetes.io/pvc-protection)',
        'pods/db-0 (being deleted)',
      ]),
    );
    // force-delete-pods is off: the pod is refused, not deleted.
    expect(t.force!.plan.refusals.map((r) => r.object)).toEqual(['pods/db-0']);
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    expect(cluster.get(GVR.persistentvolumeclaims, s.namespace, 'data')).toBeDefined();
    expect(outside(cluster, s.namespace)).toEqual(before);
  });

  test('the same without the exact name: /finalize refused because it would strand the claim', async () => {
    const s = claimOnLostNode({ controller: FAST });
    const { report } = await run(s, {
      timeout: '4s',
      'force-finalizers': 'kubernetes.io/*',
      'force-finalize-namespace': 'true',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    expect(t.force!.plan.decision).toBe('nothing-allowed');
    const refusal = t.force!.plan.refusals.find((r) => r.object === 'namespace/preview-1');
    expect(refusal?.reason).toBe(
      '/finalize would strand persistentvolumeclaims/data (kubernetes.io/pvc-protection) in storage while still waiting or guarding real infrastructure',
    );
    expect(cluster.namespace(s.namespace)).toBeDefined();
  });

  test('force-delete-pods: lost-nodes deletes the pod with grace 0 and a UID precondition; the namespace goes without /finalize', async () => {
    const s = claimOnLostNode({ controller: FAST });
    // The same lost node runs a pod of another namespace: never a target, never touched.
    s.cluster.addNamespace('shop');
    s.cluster.addPod('shop', 'cart-0', { nodeName: 'node-1' });
    const uid = s.cluster.get(GVR.pods, s.namespace, 'db-0').metadata.uid as string;
    const { report, before } = await run(s, { 'force-delete-pods': 'lost-nodes' });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    const w = writes(cluster, s.namespace);
    expect(w.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'DELETE /api/v1/namespaces/preview-1/pods/db-0 200',
    ]);
    expect(w[0]!.body).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      gracePeriodSeconds: 0,
      preconditions: { uid },
    });
    expect(t.force!.audit).toMatchObject([
      {
        step: 'pod-delete',
        object: 'pods/db-0',
        allowedBy: { input: 'force-delete-pods', value: 'lost-nodes' },
        result: 'deleted',
        writes: 1,
      },
    ]);
    expect(t.force!.plan.steps.map((x) => x.kind)).toEqual(['pod-delete']);
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    expect(outside(cluster, s.namespace)).toEqual(before);
    expect(cluster.get(GVR.pods, 'shop', 'cart-0')).toBeDefined();
  });

  test('lost-nodes in dry-run: the pod delete is planned, nothing is written', async () => {
    const s = claimOnLostNode({ controller: FAST });
    const { report } = await run(s, {
      timeout: '4s',
      force: 'dry-run',
      'force-delete-pods': 'lost-nodes',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    expect(t.force!.audit.map((a) => [a.object, a.result, a.writes])).toEqual([['pods/db-0', 'dry-run', 0]]);
    expect(cluster.get(GVR.pods, s.namespace, 'db-0')).toBeDefined();
  });

  test('a pod on a Ready node is never touched, even next to one on a lost node', async () => {
    const s = claimOnLostNode({ controller: FAST });
    s.cluster.addNode('node-2', true);
    s.cluster.addPod(s.namespace, 'web-0', { nodeName: 'node-2', graceSeconds: 3600 });
    const { report } = await run(s, { timeout: '5s', 'force-delete-pods': 'lost-nodes' });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writeLines(cluster, s.namespace)).toEqual(['DELETE /api/v1/namespaces/preview-1/pods/db-0 200']);
    expect(cluster.get(GVR.pods, s.namespace, 'web-0').metadata.deletionTimestamp).toBeDefined();
    expect(cluster.get(GVR.pods, s.namespace, 'db-0')).toBeUndefined();
  });

  test('a first pass before the controller marked the pod finds nothing; a later pass deletes it', async () => {
    // The controller first acts 2 s after the DELETE, after force-after (1 s): the first pass sees no stuck pod.
    const s = claimOnLostNode({ controller: { ...FAST, queueDelayMs: 2_000 } });
    const { report } = await run(s, { timeout: '20s', 'force-delete-pods': 'lost-nodes' });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    expect(writeLines(cluster, s.namespace)).toEqual(['DELETE /api/v1/namespaces/preview-1/pods/db-0 200']);
    expect(t.force!.audit.map((a) => `${a.object}: ${a.result}`)).toEqual(['pods/db-0: deleted']);
  });

  test('a node NotReady for less than 5 minutes: its pod is not deleted yet', async () => {
    const s = claimOnLostNode({ controller: FAST, lostMinutes: 1 });
    const { report } = await run(s, { timeout: '4s', 'force-delete-pods': 'lost-nodes' });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    expect(t.force!.plan.decision).toBe('not-yet');
    expect(t.force!.plan.notes.join('\n')).toMatch(
      /pods\/db-0: its node node-1 is NotReady \(Ready=Unknown\) for 1m/,
    );
  });
});
