/** /finalize, /status and PATCH semantics of namespaces (fact sheet §4, §5; checklist 9-15) over real HTTPS. */
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { type StartedCluster, FakeCluster } from './index.js';
import { type Loose, deleteNamespace, getNamespace, raw, sleep, statusOf, watch } from './testkit.js';
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
const finalize = (name: string, body: unknown, query = ''): Promise<Loose> =>
  raw(s, 'PUT', `/api/v1/namespaces/${name}/finalize${query}`, { body });

test('9/10: /finalize: wrong name 400, stale RV 409, no RV succeeds; status kept, metadata + spec from the body', async () => {
  const n = cluster.addNamespace('f1', { labels: { team: 'a' } });
  const wrong = await finalize('f1', { metadata: { name: 'f2' }, spec: {} });
  expect(wrong.status).toBe(400);
  expect(wrong.json).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'the name of the object (f2) does not match the name on the URL (f1)',
    reason: 'BadRequest',
    code: 400,
  });
  const stale = await finalize('f1', { metadata: { name: 'f1', resourceVersion: '1' }, spec: {} });
  expect(stale.status).toBe(409);
  expect(stale.json.message).toBe(
    'Operation cannot be fulfilled on namespaces "f1": the object has been modified; please apply your changes to the latest version and try again',
  );
  const version = await finalize('f1', { apiVersion: 'v2', kind: 'Namespace', metadata: { name: 'f1' } });
  expect(version.json.message).toBe(
    'the API version in the data (v2) does not match the expected API version (v1)',
  );
  const ok = await finalize('f1', {
    metadata: { name: 'f1', annotations: { note: 'x' } },
    spec: { finalizers: ['example.com/extra'] },
    status: { phase: 'Terminating' },
  });
  expect(ok.status).toBe(200);
  expect(ok.json.metadata.labels).toEqual({ 'kubernetes.io/metadata.name': 'f1' });
  expect(ok.json.metadata.annotations).toEqual({ note: 'x' });
  expect(ok.json.metadata.uid).toBe(n.metadata.uid);
  expect(ok.json.spec).toEqual({ finalizers: ['example.com/extra'] });
  expect(ok.json.status).toEqual({ phase: 'Active' });
  const typo = await finalize('f1', { metadata: { name: 'f1' }, spec: { finalize: [] } });
  expect(typo.headers.warning).toBe('299 - "unknown field \\"spec.finalize\\""');
});

test('11: /finalize with a bad finalizer name is 422', async () => {
  cluster.addNamespace('f3');
  const r = await finalize('f3', { metadata: { name: 'f3' }, spec: { finalizers: ['bogus'] } });
  expect(r.status).toBe(422);
  expect(r.json.message).toBe(
    'Namespace "f3" is invalid: spec.finalizers[0]: Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified',
  );
  expect(r.json.details).toEqual({
    name: 'f3',
    kind: 'Namespace',
    causes: [
      {
        reason: 'FieldValueInvalid',
        message:
          'Invalid value: "bogus": name is neither a standard finalizer name nor is it fully qualified',
        field: 'spec.finalizers[0]',
      },
    ],
  });
});

test('12: /finalize emptying both lists while deleting removes it in that request, with DELETED', async () => {
  cluster.addNamespace('f4');
  const d = await del('f4');
  const w = watch(
    s,
    `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Df4&resourceVersion=${d.json.metadata.resourceVersion}`,
  );
  await w.status;
  const { core } = clients(s);
  const body = await core.readNamespace({ name: 'f4' });
  body.spec = { finalizers: [] };
  const res = await core.replaceNamespaceFinalize({ name: 'f4', body });
  expect(res.spec?.finalizers ?? []).toEqual([]);
  expect((await raw(s, 'GET', '/api/v1/namespaces/f4')).status).toBe(404);
  await sleep(30);
  w.close();
  expect(w.events.map((e) => e.type)).toEqual(['DELETED']);
  expect(Number(w.events[0].object.metadata.resourceVersion)).toBeGreaterThan(
    Number(d.json.metadata.resourceVersion),
  );
});

test('13: GET and PATCH on /finalize are 405', async () => {
  cluster.addNamespace('f5');
  for (const method of ['GET', 'PATCH']) {
    const r = await raw(
      s,
      method,
      '/api/v1/namespaces/f5/finalize',
      method === 'PATCH' ? { body: {}, headers: { 'Content-Type': PatchStrategy.MergePatch } } : {},
    );
    expect(r.status).toBe(405);
    expect(r.text).toBe(
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"the server does not allow this method on the requested resource","reason":"MethodNotAllowed","details":{},"code":405}\n',
    );
  }
  expect((await raw(s, 'DELETE', '/api/v1/namespaces')).status).toBe(405);
});

test('14: with metadata finalizers left, the PATCH that removes the last one deletes the namespace', async () => {
  for (const [n, kind] of [
    ['k1', 'merge'],
    ['k2', 'json'],
  ] as const) {
    cluster.addNamespace(n, { metadataFinalizers: ['finalizers.kubesphere.io/namespaces'] });
    await del(n);
    const cur = await ns(n);
    const fin = await finalize(n, { ...cur, spec: { finalizers: [] } });
    expect(fin.status).toBe(200);
    expect((await ns(n)).spec).toEqual({});
    const patch =
      kind === 'merge'
        ? await raw(s, 'PATCH', `/api/v1/namespaces/${n}`, {
            body: { metadata: { finalizers: null } },
            headers: { 'Content-Type': PatchStrategy.MergePatch },
          })
        : await raw(s, 'PATCH', `/api/v1/namespaces/${n}`, {
            body: [{ op: 'remove', path: '/metadata/finalizers' }],
            headers: { 'Content-Type': PatchStrategy.JsonPatch },
          });
    expect(patch.status).toBe(200);
    expect((await raw(s, 'GET', `/api/v1/namespaces/${n}`)).status).toBe(404);
  }
});

test('14b: a repeat DELETE after finalize marks grace 0 and keeps it while metadata finalizers remain', async () => {
  cluster.addNamespace('k3', { metadataFinalizers: ['example.com/hold'] });
  await del('k3');
  await finalize('k3', { ...(await ns('k3')), spec: {} });
  const again = await del('k3');
  expect(again.status).toBe(200);
  expect(again.json.metadata.deletionGracePeriodSeconds).toBe(0);
  expect(again.json.metadata.finalizers).toEqual(['example.com/hold']);
});

test('15: adding a finalizer while deleting is 422 FieldValueForbidden', async () => {
  cluster.addNamespace('a1');
  await del('a1');
  const { core } = clients(s);
  const err = await core
    .patchNamespace(
      { name: 'a1', body: { metadata: { finalizers: ['example.com/new'] } } },
      setHeaderOptions('Content-Type', PatchStrategy.MergePatch),
    )
    .catch((e: unknown) => e);
  expect((err as Loose).code).toBe(422);
  const st = statusOf(err);
  expect(st.message).toBe(
    'Namespace "a1" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}',
  );
  expect(st.details.causes[0]).toEqual({
    reason: 'FieldValueForbidden',
    message:
      'Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/new"}',
    field: 'metadata.finalizers',
  });
});

test('merge patch with metadata.resourceVersion is an optimistic lock; a changed uid is rejected', async () => {
  const n = cluster.addNamespace('o1');
  const mp = { 'Content-Type': PatchStrategy.MergePatch };
  const stale = await raw(s, 'PATCH', '/api/v1/namespaces/o1', {
    body: { metadata: { resourceVersion: '1', labels: { a: 'b' } } },
    headers: mp,
  });
  expect(stale.status).toBe(409);
  expect(stale.json.message).toBe(
    'Operation cannot be fulfilled on namespaces "o1": the object has been modified; please apply your changes to the latest version and try again',
  );
  const ok = await raw(s, 'PATCH', '/api/v1/namespaces/o1', {
    body: {
      metadata: { uid: n.metadata.uid, resourceVersion: n.metadata.resourceVersion, labels: { a: 'b' } },
    },
    headers: mp,
  });
  expect(ok.status).toBe(200);
  expect(ok.json.metadata.labels.a).toBe('b');
  // The real apiserver has no UID precondition on PATCH: a different uid fails immutable-field validation.
  const uid = await raw(s, 'PATCH', '/api/v1/namespaces/o1', {
    body: { metadata: { uid: 'other', resourceVersion: ok.json.metadata.resourceVersion } },
    headers: mp,
  });
  expect(uid.status).toBe(422);
  expect(uid.json.message).toBe(
    'Namespace "o1" is invalid: metadata.uid: Invalid value: "other": field is immutable',
  );
});

test('strategic merge: finalizers merge as a set; $deleteFromPrimitiveList removes', async () => {
  cluster.addNamespace('sm1', { metadataFinalizers: ['example.com/a'] });
  const smp = { 'Content-Type': PatchStrategy.StrategicMergePatch };
  const noop = await raw(s, 'PATCH', '/api/v1/namespaces/sm1', {
    body: { metadata: { finalizers: [] } },
    headers: smp,
  });
  expect(noop.json.metadata.finalizers).toEqual(['example.com/a']);
  const add = await raw(s, 'PATCH', '/api/v1/namespaces/sm1', {
    body: { metadata: { finalizers: ['example.com/b'] } },
    headers: smp,
  });
  expect(add.json.metadata.finalizers).toEqual(['example.com/a', 'example.com/b']);
  const rm = await raw(s, 'PATCH', '/api/v1/namespaces/sm1', {
    body: { metadata: { '$deleteFromPrimitiveList/finalizers': ['example.com/a'] } },
    headers: smp,
  });
  expect(rm.json.metadata.finalizers).toEqual(['example.com/b']);
});

test('/status rejects a phase that does not match deletionTimestamp', async () => {
  const n = cluster.addNamespace('st1');
  const r = await raw(s, 'PUT', '/api/v1/namespaces/st1/status', {
    body: { ...n, status: { phase: 'Terminating' } },
  });
  expect(r.status).toBe(422);
  expect(r.json.message).toBe(
    'Namespace "st1" is invalid: status.Phase: Invalid value: "Terminating": may only be \'Active\' if `deletionTimestamp` is empty',
  );
  await del('st1');
  const cur = await ns('st1');
  const back = await raw(s, 'PUT', '/api/v1/namespaces/st1/status', {
    body: { ...cur, status: { phase: 'Active' } },
  });
  expect(back.json.message).toBe(
    'Namespace "st1" is invalid: status.Phase: Invalid value: "Active": may only be \'Terminating\' if `deletionTimestamp` is not empty',
  );
});
