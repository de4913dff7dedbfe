/** The in-process namespace controller (fact sheet §3; checklist 17-22) observed over HTTPS. */
import {
  type FakeCluster,
  type NamespaceCondition,
  type StartedCluster,
  cleanNamespaces,
  FakeCluster as Cluster,
  GVR,
  kialiStuck,
  kubesphereStuck,
  metricsApiDown,
  podOnDeadNode,
  pvcInUse,
  webhookBlocksDelete,
} from './index.js';
import { type Loose, FAST, raw, sleep, waitFor, watch } from './testkit.js';

const running: FakeCluster[] = [];
async function start(c: FakeCluster): Promise<StartedCluster> {
  running.push(c);
  return c.start();
}
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

const conditions = (c: FakeCluster, ns: string): NamespaceCondition[] =>
  c.namespace(ns)?.status.conditions ?? [];
const cond = (c: FakeCluster, ns: string, type: string): NamespaceCondition | undefined =>
  conditions(c, ns).find((x) => x.type === type);
const TYPES = [
  'NamespaceDeletionDiscoveryFailure',
  'NamespaceDeletionGroupVersionParsingFailure',
  'NamespaceDeletionContentFailure',
  'NamespaceContentRemaining',
  'NamespaceFinalizersRemaining',
];

test('17: nothing happens before the queue delay; then content goes and the namespace is finalized', async () => {
  const { cluster, namespaces } = cleanNamespaces(1, { controller: { ...FAST, queueDelayMs: 300 } });
  const s = await start(cluster);
  const [ns] = namespaces as [string];
  const d = await raw(s, 'DELETE', `/api/v1/namespaces/${ns}`, { body: { propagationPolicy: 'Background' } });
  const w = watch(
    s,
    `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D${ns}&resourceVersion=${d.json.metadata.resourceVersion}`,
  );
  await sleep(150);
  expect(cluster.namespace(ns)?.status.conditions).toBeUndefined();
  expect(cluster.get(GVR.configmaps, ns, 'app-config')).toBeDefined();
  await waitFor(() => !cluster.namespace(ns), 3000);
  await waitFor(() => w.events.some((e: Loose) => e.type === 'DELETED'), 1000);
  w.close();
  const types = w.events.map((e: Loose) => e.type);
  expect(types[types.length - 1]).toBe('DELETED');
  expect(types.slice(0, -1).every((t: string) => t === 'MODIFIED')).toBe(true);
  const last = w.events[w.events.length - 2].object;
  expect(last.status.conditions.map((c: NamespaceCondition) => c.type)).toEqual(TYPES);
  expect(last.status.conditions.map((c: NamespaceCondition) => c.status)).toEqual([
    'False',
    'False',
    'False',
    'False',
    'False',
  ]);
});

test('17/20: pods first (1.33+): other content waits while pods remain, and ContentRemaining reads OK', async () => {
  const { cluster, namespace } = podOnDeadNode({ controller: FAST, version: '1.33', graceSeconds: 1 });
  cluster.addObject(GVR.configmaps, { namespace, name: 'cfg' });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  await waitFor(() => conditions(cluster, namespace).length === 5, 3000);
  expect(cluster.get(GVR.pods, namespace, 'web-0')?.metadata.deletionTimestamp).toBeDefined();
  expect(cluster.get(GVR.configmaps, namespace, 'cfg')).toBeDefined();
  expect(cond(cluster, namespace, 'NamespaceContentRemaining')).toMatchObject({
    status: 'False',
    reason: 'ContentRemoved',
    message: 'All content successfully removed',
  });
  // Once the pod's grace has passed it is "unexpected" content: a content failure, never finalized.
  const failure = await waitFor(() => {
    const c = cond(cluster, namespace, 'NamespaceDeletionContentFailure');
    return c?.status === 'True' ? c : undefined;
  }, 5000);
  expect(failure.reason).toBe('ContentDeletionFailed');
  expect(failure.message).toBe(
    'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: preview-1 for gvr: /v1, Resource=pods',
  );
  expect(cond(cluster, namespace, 'NamespaceFinalizersRemaining')?.reason).toBe('ContentHasNoFinalizers');
  expect(cluster.get(GVR.configmaps, namespace, 'cfg')).toBeDefined();
  // The node comes back: the kubelet removes the pod, then the rest goes.
  cluster.addNode('node-1', true);
  await waitFor(() => !cluster.namespace(namespace), 4000);
});

test('17: 1.29 has no pods-first ordering and reports the remaining pods', async () => {
  const { cluster, namespace } = podOnDeadNode({ controller: FAST, version: '1.29' });
  cluster.addObject(GVR.configmaps, { namespace, name: 'cfg', finalizers: ['orphan'] });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  // Background propagation drops the orphan finalizer, so the ConfigMap goes at once.
  await waitFor(() => !cluster.get(GVR.configmaps, namespace, 'cfg'), 3000);
  const remaining = await waitFor(() => cond(cluster, namespace, 'NamespaceContentRemaining'), 3000);
  expect(remaining).toMatchObject({
    status: 'True',
    reason: 'SomeResourcesRemain',
    message: 'Some resources are remaining: pods. has 1 resource instances',
  });
});

test('18/19: CR stuck on a finalizer: exact messages, fixed order, rechecked after finalizerRecheckMs', async () => {
  const { cluster, namespace, gvr, object, finalizer } = kialiStuck({
    controller: { ...FAST, finalizerRecheckMs: 150 },
  });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  await waitFor(() => cond(cluster, namespace, 'NamespaceFinalizersRemaining')?.status === 'True', 3000);
  const cs = conditions(cluster, namespace);
  expect(cs.map((c) => c.type)).toEqual(TYPES);
  expect(cs.map((c) => [c.status, c.reason, c.message])).toEqual([
    ['False', 'ResourcesDiscovered', 'All resources successfully discovered'],
    ['False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
    ['False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
    ['True', 'SomeResourcesRemain', 'Some resources are remaining: kialis.kiali.io has 1 resource instances'],
    [
      'True',
      'SomeFinalizersRemain',
      'Some content in the namespace has finalizers remaining: kiali.io/finalizer in 1 resource instances',
    ],
  ]);
  expect(Object.keys(cs[0] ?? {})).toEqual(['type', 'status', 'lastTransitionTime', 'reason', 'message']);
  const rv = cluster.namespace(namespace)?.metadata.resourceVersion;
  await sleep(400);
  expect(cluster.namespace(namespace)?.metadata.resourceVersion).toBe(rv); // unchanged conditions are not rewritten
  expect(cluster.get(gvr, namespace, object)?.metadata.deletionTimestamp).toBeDefined();
  cluster.removeFinalizer(gvr, namespace, object, finalizer);
  const t0 = Date.now();
  await waitFor(() => !cluster.namespace(namespace), 3000);
  expect(Date.now() - t0).toBeLessThan(1500);
});

test('19: lastTransitionTime changes only when the status flips', async () => {
  const { cluster, namespace } = kialiStuck({ controller: { ...FAST, queueDelayMs: 300 } });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  const cur = (await raw(s, 'GET', `/api/v1/namespaces/${namespace}`)).json;
  const old = '2020-01-01T00:00:00Z';
  const seeded = [
    {
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: old,
      reason: 'SomeResourcesRemain',
      message: 'stale',
    },
    {
      type: 'NamespaceFinalizersRemaining',
      status: 'False',
      lastTransitionTime: old,
      reason: 'ContentHasNoFinalizers',
      message: 'x',
    },
  ];
  const put = await raw(s, 'PUT', `/api/v1/namespaces/${namespace}/status`, {
    body: { ...cur, status: { phase: 'Terminating', conditions: seeded } },
  });
  expect(put.status).toBe(200);
  await waitFor(() => conditions(cluster, namespace).length === 5, 3000);
  const remaining = cond(cluster, namespace, 'NamespaceContentRemaining');
  expect(remaining?.message).toBe('Some resources are remaining: kialis.kiali.io has 1 resource instances');
  expect(remaining?.lastTransitionTime).toBe(old);
  expect(cond(cluster, namespace, 'NamespaceFinalizersRemaining')?.lastTransitionTime).not.toBe(old);
  expect(
    conditions(cluster, namespace)
      .map((c) => c.type)
      .slice(0, 2),
  ).toEqual(['NamespaceContentRemaining', 'NamespaceFinalizersRemaining']);
});

test('21: a stale aggregated API gives DiscoveryFailed and the namespace is never finalized', async () => {
  const { cluster, namespace } = metricsApiDown({ controller: FAST });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  const c = await waitFor(() => cond(cluster, namespace, 'NamespaceDeletionDiscoveryFailure'), 3000);
  expect(c).toMatchObject({
    status: 'True',
    reason: 'DiscoveryFailed',
    message:
      'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
  });
  await sleep(500);
  expect(cluster.get(GVR.configmaps, namespace, 'app-config')).toBeUndefined(); // found groups are still deleted
  expect(cluster.namespace(namespace)?.spec.finalizers).toEqual(['kubernetes']);
});

test('22: a clean pass finalizes; with a metadata finalizer left the namespace waits for its PATCH', async () => {
  const { cluster, namespace, finalizer } = kubesphereStuck({ controller: FAST });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  await waitFor(() => cluster.namespace(namespace)?.spec.finalizers === undefined, 3000);
  const ns = cluster.namespace(namespace);
  expect(ns?.metadata.finalizers).toEqual([finalizer]);
  expect(ns?.status.conditions?.every((c) => c.status === 'False')).toBe(true);
  const patch = await raw(s, 'PATCH', `/api/v1/namespaces/${namespace}`, {
    body: { metadata: { finalizers: null } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(patch.status).toBe(200);
  expect(cluster.namespace(namespace)).toBeUndefined();
});

test('a down Fail webhook blocks content deletion with the apiserver message', async () => {
  const { cluster, namespace, configMap } = webhookBlocksDelete({ controller: FAST });
  const s = await start(cluster);
  const direct = await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}/configmaps/${configMap}`);
  expect(direct.status).toBe(500);
  const msg =
    /^Internal error occurred: failed calling webhook "deny-delete\.example\.com": failed to call webhook: Post "https:\/\/deny-delete\.webhook-system\.svc:443\/\?timeout=10s": dial tcp 10\.96\.\d+\.\d+:443: connect: connection refused$/;
  expect(direct.json.message).toMatch(msg);
  expect(direct.json.reason).toBe('InternalError');
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  const c = await waitFor(() => {
    const x = cond(cluster, namespace, 'NamespaceDeletionContentFailure');
    return x?.status === 'True' ? x : undefined;
  }, 3000);
  expect(c.reason).toBe('ContentDeletionFailed');
  expect(c.message!.replace('Failed to delete all resource types, 1 remaining: ', '')).toMatch(msg);
  // Removing the webhook configuration unblocks the next pass.
  await raw(
    s,
    'DELETE',
    '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/deny-delete.example.com',
  );
  await waitFor(() => !cluster.namespace(namespace), 3000);
});

test('PVC in use (1.29): the PVC waits for its pod, then everything goes', async () => {
  const { cluster, namespace, pvc, pod } = pvcInUse({ controller: FAST, version: '1.29', graceSeconds: 1 });
  const s = await start(cluster);
  await raw(s, 'DELETE', `/api/v1/namespaces/${namespace}`);
  await waitFor(
    () => cluster.get(GVR.persistentvolumeclaims, namespace, pvc)?.metadata.deletionTimestamp,
    3000,
  );
  expect(cluster.get(GVR.persistentvolumeclaims, namespace, pvc)?.metadata.finalizers).toEqual([
    'kubernetes.io/pvc-protection',
  ]);
  expect(cluster.get(GVR.pods, namespace, pod)).toBeDefined();
  await waitFor(() => !cluster.namespace(namespace), 5000);
});

test('the controller picks up namespaces that were already deleting when it starts', async () => {
  const cluster = new Cluster({ controller: FAST });
  cluster.addObject(GVR.namespaces, {
    name: 'pre',
    metadata: { deletionTimestamp: '2024-01-01T00:00:00Z' },
    spec: { finalizers: ['kubernetes'] },
    status: { phase: 'Terminating' },
  });
  await start(cluster);
  await waitFor(() => !cluster.namespace('pre'), 3000);
});
