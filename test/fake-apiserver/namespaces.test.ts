/** Namespace create/delete/lifecycle semantics (fact sheet §1, §2; checklist 1-8) over real HTTPS. */
import { PatchStrategy } from '@kubernetes/client-node';
import { type StartedCluster, FakeCluster } from './index.js';
import { type Loose, deleteNamespace, getNamespace, raw, sleep, watch } from './testkit.js';
import { clients } from './clients.js';

// The controller stays idle here: these tests look at the API server alone.
const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;

beforeAll(async () => {
  s = await cluster.start();
});
afterAll(() => cluster.stop());

const ns = (name: string): Promise<Loose> => getNamespace(s, name);
const del = (name: string, query = '', body?: unknown): Promise<Loose> =>
  deleteNamespace(s, name, query, body);

test('1: create gives Active, spec.finalizers ["kubernetes"] and the name label', async () => {
  const r = await raw(s, 'POST', '/api/v1/namespaces', {
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'c1' } },
  });
  expect(r.status).toBe(201);
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.text.endsWith('}\n')).toBe(true);
  expect(r.json.status).toEqual({ phase: 'Active' });
  expect(r.json.spec).toEqual({ finalizers: ['kubernetes'] });
  expect(r.json.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'c1' });
  expect(Object.keys(r.json.metadata)).toEqual([
    'name',
    'uid',
    'resourceVersion',
    'creationTimestamp',
    'labels',
  ]);
  const again = await raw(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'c1' } } });
  expect(again.json.message).toBe('namespaces "c1" already exists');
  const bad = await raw(s, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'Bad_Name' } } });
  expect(bad.status).toBe(422);
  expect(bad.json.message).toMatch(
    /^Namespace "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 label/,
  );
  const { core } = clients(s);
  const created = await core.createNamespace({ body: { metadata: { name: 'c2' } } });
  expect(created.spec?.finalizers).toEqual(['kubernetes']);
});

test('2: first DELETE sets deletionTimestamp + Terminating in one write, 200 + Namespace, MODIFIED', async () => {
  const before = cluster.addNamespace('d1');
  const w = watch(
    s,
    `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dd1&resourceVersion=${before.metadata.resourceVersion}`,
  );
  await w.status;
  const r = await del('d1');
  expect(r.status).toBe(200);
  expect(r.json.kind).toBe('Namespace');
  expect(r.json.metadata.deletionTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  expect(r.json.metadata.deletionGracePeriodSeconds).toBeUndefined();
  expect(r.json.status.phase).toBe('Terminating');
  expect(r.json.spec.finalizers).toEqual(['kubernetes']);
  expect(Number(r.json.metadata.resourceVersion)).toBeGreaterThan(Number(before.metadata.resourceVersion));
  await sleep(50);
  w.close();
  expect(w.events.map((e) => e.type)).toEqual(['MODIFIED']);
  expect(w.events[0].object.metadata.resourceVersion).toBe(r.json.metadata.resourceVersion);
});

test('3: Foreground/Orphan/Background set foregroundDeletion/orphan/neither; orphanDependents=false gives 202', async () => {
  for (const n of ['p-fg', 'p-or', 'p-bg', 'p-od'])
    cluster.addNamespace(n, { metadataFinalizers: n === 'p-bg' ? ['orphan'] : [] });
  expect((await del('p-fg', '?propagationPolicy=Foreground')).json.metadata.finalizers).toEqual([
    'foregroundDeletion',
  ]);
  expect(
    (await del('p-or', '', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Orphan' })).json
      .metadata.finalizers,
  ).toEqual(['orphan']);
  expect((await del('p-bg', '?propagationPolicy=Background')).json.metadata.finalizers).toBeUndefined();
  const od = await del('p-od', '?orphanDependents=false');
  expect(od.status).toBe(202);
  expect(od.json.metadata.finalizers).toEqual(['foregroundDeletion']);
});

test('4: repeat DELETE while spec.finalizers remain: 200, unchanged, no event, options ignored', async () => {
  cluster.addNamespace('r1');
  const first = await del('r1');
  const w = watch(
    s,
    `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dr1&resourceVersion=${first.json.metadata.resourceVersion}`,
  );
  await w.status;
  const again = await del('r1', '?propagationPolicy=Foreground');
  expect(again.status).toBe(200);
  expect(again.text).toBe(first.text);
  await sleep(50);
  w.close();
  expect(w.events).toEqual([]);
});

test('5: DELETE of an immortal namespace is 403', async () => {
  for (const n of ['default', 'kube-system', 'kube-public']) {
    const r = await del(n);
    expect(r.status).toBe(403);
    expect(r.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: `namespaces "${n}" is forbidden: this namespace may not be deleted`,
      reason: 'Forbidden',
      details: { name: n, kind: 'namespaces' },
      code: 403,
    });
  }
});

test('6: precondition mismatch is 409 Precondition failed', async () => {
  const n = cluster.addNamespace('pre1');
  const r = await del('pre1', '', {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
    preconditions: { uid: 'bad-uid' },
  });
  expect(r.status).toBe(409);
  expect(r.json.reason).toBe('Conflict');
  expect(r.json.message).toBe(
    `Operation cannot be fulfilled on namespaces "pre1": Precondition failed: UID in precondition: bad-uid, UID in object meta: ${n.metadata.uid}`,
  );
  const rv = await del('pre1', '', { preconditions: { resourceVersion: '1' } });
  expect(rv.json.message).toBe(
    `Operation cannot be fulfilled on namespaces "pre1": Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: ${n.metadata.resourceVersion}`,
  );
  const { core } = clients(s);
  await expect(
    core.deleteNamespace({ name: 'pre1', body: { preconditions: { uid: 'x' } } }),
  ).rejects.toMatchObject({ code: 409 });
  expect((await del('nope')).json.message).toBe('namespaces "nope" not found');
});

test('7: POST into a Terminating namespace is 403 NamespaceTerminating; PUT/PATCH/DELETE still work', async () => {
  cluster.addNamespace('x');
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
  cluster.addObject(
    { group: '', version: 'v1', resource: 'configmaps' },
    { namespace: 'x', name: 'keep', data: { a: '1' } },
  );
  await del('x');
  const r = await raw(s, 'POST', '/api/v1/namespaces/x/configmaps', { body: { metadata: { name: 'cm1' } } });
  expect(r.status).toBe(403);
  expect(r.text).toBe(
    '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"configmaps \\"cm1\\" is forbidden: unable to create new content in namespace x because it is being terminated","reason":"Forbidden","details":{"name":"cm1","kind":"configmaps","causes":[{"reason":"NamespaceTerminating","message":"namespace x is being terminated","field":"metadata.namespace"}]},"code":403}\n',
  );
  const cr = await raw(s, 'POST', '/apis/kiali.io/v1alpha1/namespaces/x/kialis', {
    body: { apiVersion: 'kiali.io/v1alpha1', kind: 'Kiali', metadata: { name: 'k' } },
  });
  expect(cr.json.message).toBe(
    'kialis.kiali.io "k" is forbidden: unable to create new content in namespace x because it is being terminated',
  );
  expect(cr.json.details.group).toBe('kiali.io');
  const cm = (await raw(s, 'GET', '/api/v1/namespaces/x/configmaps/keep')).json;
  expect(
    (await raw(s, 'PUT', '/api/v1/namespaces/x/configmaps/keep', { body: { ...cm, data: { a: '2' } } }))
      .status,
  ).toBe(200);
  const patched = await raw(s, 'PATCH', '/api/v1/namespaces/x/configmaps/keep', {
    body: { data: { b: '3' } },
    headers: { 'Content-Type': PatchStrategy.MergePatch },
  });
  expect(patched.json.data).toEqual({ a: '2', b: '3' });
  const gone = await raw(s, 'DELETE', '/api/v1/namespaces/x/configmaps/keep');
  expect(gone.json).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
    details: { name: 'keep', kind: 'configmaps', uid: cm.metadata.uid },
  });
  expect(
    (await raw(s, 'POST', '/api/v1/namespaces/missing/configmaps', { body: { metadata: { name: 'a' } } }))
      .json.message,
  ).toBe('namespaces "missing" not found');
});

test('8: PUT/PATCH of spec.finalizers on the main resource: 200, no change', async () => {
  const n = cluster.addNamespace('m1');
  const merge = await raw(s, 'PATCH', '/api/v1/namespaces/m1', {
    body: { spec: { finalizers: [] } },
    headers: { 'Content-Type': PatchStrategy.MergePatch },
  });
  expect(merge.status).toBe(200);
  expect(merge.json.spec.finalizers).toEqual(['kubernetes']);
  expect(merge.json.metadata.resourceVersion).toBe(n.metadata.resourceVersion);
  const put = await raw(s, 'PUT', '/api/v1/namespaces/m1', {
    body: { ...n, spec: {}, status: { phase: 'Terminating' } },
  });
  expect(put.json.spec.finalizers).toEqual(['kubernetes']);
  expect(put.json.status.phase).toBe('Active');
  const { core } = clients(s);
  const jp = await core.patchNamespace({
    name: 'm1',
    body: [{ op: 'replace', path: '/spec/finalizers', value: [] }],
  });
  expect(jp.spec?.finalizers).toEqual(['kubernetes']);
});

test('DeleteOptions: dryRun, body overrides query, conflicting and unsupported options', async () => {
  cluster.addNamespace('do1');
  const dry = await del('do1', '?dryRun=All');
  expect(dry.json.status.phase).toBe('Terminating');
  expect((await ns('do1')).status.phase).toBe('Active');
  const both = await del('do1', '?orphanDependents=true&propagationPolicy=Background');
  expect(both.status).toBe(422);
  expect(both.json.message).toBe(
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Background": orphanDependents and deletionPropagation cannot be both set',
  );
  const bogus = await del('do1', '?propagationPolicy=Bogus');
  expect(bogus.json.message).toBe(
    'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Bogus": supported values: "Foreground", "Background", "Orphan", "nil"',
  );
  const wrongKind = await del('do1', '', { kind: 'Pod', apiVersion: 'v1' });
  expect(wrongKind.json.message).toBe('decoded object cannot be converted to DeleteOptions');
  const overridden = await del('do1', '?propagationPolicy=Foreground', {
    kind: 'DeleteOptions',
    apiVersion: 'v1',
  });
  expect(overridden.json.metadata.finalizers).toBeUndefined();
});

test('label and field selectors on namespace lists', async () => {
  cluster.addNamespace('sel-a', { labels: { env: 'dev', tier: 'web' } });
  cluster.addNamespace('sel-b', { labels: { env: 'prod' } });
  cluster.addNamespace('sel-c', { labels: { env: 'qa', tier: 'db' } });
  const names = async (q: string): Promise<string[]> =>
    (await raw(s, 'GET', `/api/v1/namespaces?${q}`)).json.items
      .map((i: Loose) => i.metadata.name)
      .filter((n: string) => n.startsWith('sel-'));
  expect(await names(`labelSelector=${encodeURIComponent('env in (dev,qa)')}`)).toEqual(['sel-a', 'sel-c']);
  expect(await names(`labelSelector=${encodeURIComponent('env notin (dev,qa),env')}`)).toEqual(['sel-b']);
  expect(await names(`labelSelector=${encodeURIComponent('!tier,env')}`)).toEqual(['sel-b']);
  expect(await names(`labelSelector=${encodeURIComponent('env!=dev,tier')}`)).toEqual(['sel-c']);
  expect(await names(`labelSelector=${encodeURIComponent('env=prod')}`)).toEqual(['sel-b']);
  expect(await names(`fieldSelector=${encodeURIComponent('metadata.name=sel-c')}`)).toEqual(['sel-c']);
  const bad = await raw(s, 'GET', '/api/v1/namespaces?fieldSelector=spec.foo%3Dx');
  expect(bad.json.message).toBe('field label not supported: spec.foo');
});
