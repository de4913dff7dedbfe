/** Generic object semantics (fact sheet §5; checklist 16): finalizers, graceful pods, PVC protection, GC. */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { type StartedCluster, FakeCluster, GVR } from './index.js';
import { type Loose, raw, sleep, statusOf, waitFor } from './testkit.js';
import { clients } from './clients.js';

const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;
const KIALI = '/apis/kiali.io/v1alpha1/namespaces/g1/kialis';
const mergeHeaders = { 'Content-Type': PatchStrategy.MergePatch };

beforeAll(async () => {
  cluster.addNamespace('g1');
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
  s = await cluster.start();
});
afterAll(() => cluster.stop());

test('16: CR with finalizers: DELETE sets grace 0 and keeps it; removing the last finalizer deletes it', async () => {
  cluster.addObject(GVR.kialis, {
    namespace: 'g1',
    name: 'kiali',
    finalizers: ['kiali.io/finalizer'],
    spec: { a: 1 },
  });
  const d = await raw(s, 'DELETE', `${KIALI}/kiali`);
  expect(d.status).toBe(200);
  expect(d.json.kind).toBe('Kiali');
  expect(d.json.metadata.deletionGracePeriodSeconds).toBe(0);
  expect(d.json.metadata.deletionTimestamp).toBeDefined();
  expect(d.json.metadata.generation).toBe(2);
  const again = await raw(s, 'DELETE', `${KIALI}/kiali`);
  expect(again.json.metadata.resourceVersion).toBe(d.json.metadata.resourceVersion);
  const add = await raw(s, 'PATCH', `${KIALI}/kiali`, {
    body: { metadata: { finalizers: ['kiali.io/finalizer', 'example.com/more'] } },
    headers: mergeHeaders,
  });
  expect(add.status).toBe(422);
  expect(add.json.message).toBe(
    'Kiali.kiali.io "kiali" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
  );
  expect(add.json.details.group).toBe('kiali.io');
  expect(add.json.details.kind).toBe('Kiali');
  const { custom } = clients(s);
  const removed = await custom.patchNamespacedCustomObject(
    {
      group: 'kiali.io',
      version: 'v1alpha1',
      namespace: 'g1',
      plural: 'kialis',
      name: 'kiali',
      body: { metadata: { finalizers: null } },
    },
    setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
  );
  expect((removed as Loose).metadata.name).toBe('kiali');
  expect(cluster.get(GVR.kialis, 'g1', 'kiali')).toBeUndefined();
});

test('CR without finalizers: DELETE returns the Status Success shape', async () => {
  const k = cluster.addObject(GVR.kialis, { namespace: 'g1', name: 'plain' });
  const r = await raw(s, 'DELETE', `${KIALI}/plain`);
  expect(r.text).toBe(
    `{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Success","details":{"name":"plain","group":"kiali.io","kind":"kialis","uid":"${k.metadata.uid}"}}\n`,
  );
  const nf = await raw(s, 'GET', `${KIALI}/plain`);
  expect(nf.json.message).toBe('kialis.kiali.io "plain" not found');
  expect(nf.json.details).toEqual({ name: 'plain', group: 'kiali.io', kind: 'kialis' });
});

test('CRs: strategic merge is 415, PUT without resourceVersion is 422', async () => {
  const k = cluster.addObject(GVR.kialis, { namespace: 'g1', name: 'k2' });
  const smp = await raw(s, 'PATCH', `${KIALI}/k2`, {
    body: { spec: {} },
    headers: { 'Content-Type': PatchStrategy.StrategicMergePatch },
  });
  expect(smp.status).toBe(415);
  expect(smp.json.reason).toBe('UnsupportedMediaType');
  const put = await raw(s, 'PUT', `${KIALI}/k2`, {
    body: { ...k, metadata: { name: 'k2', namespace: 'g1' } },
  });
  expect(put.status).toBe(422);
  expect(put.json.message).toBe(
    'kialis.kiali.io "k2" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update',
  );
  const jp = await raw(s, 'PATCH', `${KIALI}/k2`, {
    body: [{ op: 'test', path: '/metadata/resourceVersion', value: '1' }],
    headers: { 'Content-Type': PatchStrategy.JsonPatch },
  });
  expect(jp.status).toBe(422);
  expect(jp.json.message).toBe('the server rejected our request due to an error in our request');
});

test('precondition mismatch on a generic DELETE uses the store message', async () => {
  const cm = cluster.addObject(GVR.configmaps, { namespace: 'g1', name: 'pc' });
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/g1/configmaps/pc', {
    body: { preconditions: { uid: 'u-1' } },
  });
  expect(r.status).toBe(409);
  expect(r.json.message).toBe(
    `Operation cannot be fulfilled on ConfigMap "pc": the UID in the precondition (u-1) does not match the UID in record (${cm.metadata.uid}). The object might have been deleted and then recreated`,
  );
});

test('a stale resourceVersion precondition on a custom resource DELETE is a 409, and nothing is deleted', async () => {
  const k = cluster.addObject(GVR.kialis, {
    namespace: 'g1',
    name: 'rv',
    finalizers: ['kiali.io/finalizer'],
  });
  const rv = String(k.metadata.resourceVersion);
  const stale = await raw(s, 'DELETE', `${KIALI}/rv`, {
    body: {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: k.metadata.uid, resourceVersion: '1' },
    },
  });
  expect(stale.status).toBe(409);
  expect(stale.json).toMatchObject({
    reason: 'Conflict',
    details: { name: 'rv', group: 'kiali.io', kind: 'Kiali' },
  });
  expect(stale.json.message).toBe(
    `Operation cannot be fulfilled on Kiali.kiali.io "rv": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
  );
  expect(cluster.get(GVR.kialis, 'g1', 'rv').metadata.deletionTimestamp).toBeUndefined();
  const current = await raw(s, 'DELETE', `${KIALI}/rv`, {
    body: {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: k.metadata.uid, resourceVersion: rv },
    },
  });
  expect(current.status).toBe(200);
  expect(current.json.metadata.deletionTimestamp).toBeDefined();
});

test('pods: graceful deletion stays until the grace elapses on a Ready node; never on a NotReady one', async () => {
  cluster.addNode('ready-1', true);
  cluster.addNode('dead-1', false);
  cluster.addPod('g1', 'live', { nodeName: 'ready-1', graceSeconds: 1 });
  cluster.addPod('g1', 'stuck', { nodeName: 'dead-1', graceSeconds: 1 });
  cluster.addPod('g1', 'pending', {});
  const { core } = clients(s);
  const live = await core.deleteNamespacedPod({ name: 'live', namespace: 'g1' });
  expect(live.metadata?.deletionGracePeriodSeconds).toBe(1);
  await core.deleteNamespacedPod({ name: 'stuck', namespace: 'g1' });
  const pending = await raw(s, 'DELETE', '/api/v1/namespaces/g1/pods/pending');
  expect(pending.json.kind).toBe('Pod');
  expect(cluster.get(GVR.pods, 'g1', 'pending')).toBeUndefined();
  expect(cluster.get(GVR.pods, 'g1', 'live')).toBeDefined();
  await waitFor(() => !cluster.get(GVR.pods, 'g1', 'live'), 4000);
  await sleep(200);
  expect(cluster.get(GVR.pods, 'g1', 'stuck')?.metadata.deletionTimestamp).toBeDefined();
  const force = await raw(s, 'DELETE', '/api/v1/namespaces/g1/pods/stuck?gracePeriodSeconds=0');
  expect(force.status).toBe(200);
  expect(cluster.get(GVR.pods, 'g1', 'stuck')).toBeUndefined();
});

test('PVC protection: the finalizer goes once no live pod mounts the claim', async () => {
  cluster.addNode('ready-2', true);
  const pvc = cluster.addObject(GVR.persistentvolumeclaims, {
    namespace: 'g1',
    name: 'data',
    spec: { accessModes: ['ReadWriteOnce'] },
  });
  expect(pvc.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  cluster.addPod('g1', 'db', { nodeName: 'ready-2', claims: ['data'], graceSeconds: 1 });
  const d = await raw(s, 'DELETE', '/api/v1/namespaces/g1/persistentvolumeclaims/data');
  expect(d.json.metadata.finalizers).toEqual(['kubernetes.io/pvc-protection']);
  await sleep(100);
  expect(cluster.get(GVR.persistentvolumeclaims, 'g1', 'data')).toBeDefined();
  await raw(s, 'DELETE', '/api/v1/namespaces/g1/pods/db');
  await waitFor(() => !cluster.get(GVR.persistentvolumeclaims, 'g1', 'data'), 4000);
});

test('deletecollection with Background, and the GC handling orphan/foreground/cascade', async () => {
  const owner = cluster.addObject(GVR.configmaps, { namespace: 'g1', name: 'owner' });
  const ref = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    name: 'owner',
    uid: owner.metadata.uid,
    blockOwnerDeletion: true,
  };
  cluster.addObject(GVR.configmaps, { namespace: 'g1', name: 'child', ownerReferences: [ref] });
  const fg = await raw(s, 'DELETE', '/api/v1/namespaces/g1/configmaps/owner?propagationPolicy=Foreground');
  expect(fg.json.metadata.finalizers).toEqual(['foregroundDeletion']);
  await waitFor(
    () => !cluster.get(GVR.configmaps, 'g1', 'owner') && !cluster.get(GVR.configmaps, 'g1', 'child'),
    3000,
  );

  const o2 = cluster.addObject(GVR.configmaps, { namespace: 'g1', name: 'owner2' });
  cluster.addObject(GVR.configmaps, {
    namespace: 'g1',
    name: 'child2',
    ownerReferences: [{ ...ref, name: 'owner2', uid: o2.metadata.uid }],
  });
  await raw(s, 'DELETE', '/api/v1/namespaces/g1/configmaps/owner2?propagationPolicy=Orphan');
  await waitFor(() => !cluster.get(GVR.configmaps, 'g1', 'owner2'), 3000);
  expect(cluster.get(GVR.configmaps, 'g1', 'child2')?.metadata.ownerReferences).toBeUndefined();

  for (const n of ['c1', 'c2', 'c3'])
    cluster.addObject(GVR.configmaps, { namespace: 'g1', name: n, labels: { batch: 'x' } });
  const dc = await raw(
    s,
    'DELETE',
    '/api/v1/namespaces/g1/configmaps?labelSelector=batch%3Dx&propagationPolicy=Background',
  );
  expect(dc.status).toBe(200);
  expect(dc.json.kind).toBe('ConfigMapList');
  expect(dc.json.items.map((i: Loose) => i.metadata.name)).toEqual(['c1', 'c2', 'c3']);
  expect(cluster.get(GVR.configmaps, 'g1', 'c1')).toBeUndefined();
});

test('removeFinalizer acts like the owning controller; snapshot supports nothing-else-changed checks', async () => {
  cluster.addObject(GVR.kialis, {
    namespace: 'g1',
    name: 'k3',
    finalizers: ['kiali.io/finalizer', 'example.com/b'],
  });
  await raw(s, 'DELETE', `${KIALI}/k3`);
  const before = cluster.snapshot();
  cluster.removeFinalizer(GVR.kialis, 'g1', 'k3', 'kiali.io/finalizer');
  const after = cluster.snapshot();
  expect(after['kialis.kiali.io'].find((o: Loose) => o.metadata.name === 'k3').metadata.finalizers).toEqual([
    'example.com/b',
  ]);
  expect({ ...after, 'kialis.kiali.io': undefined }).toEqual({ ...before, 'kialis.kiali.io': undefined });
  cluster.removeFinalizer(GVR.kialis, 'g1', 'k3', 'example.com/b');
  expect(cluster.get(GVR.kialis, 'g1', 'k3')).toBeUndefined();
  const err = await clients(s)
    .core.readNamespacedConfigMap({ name: 'none', namespace: 'g1' })
    .catch((e: unknown) => e);
  expect(statusOf(err).message).toBe('configmaps "none" not found');
});
