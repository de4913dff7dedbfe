/** Mutating admission webhooks with the real server's semantics, over real HTTPS. */
import { type StartedCluster, FakeCluster } from './index.js';
import { FAST, raw, type Loose } from './testkit.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const MERGE = { 'Content-Type': 'application/merge-patch+json' };
const cluster = new FakeCluster({ controller: FAST });
let s: StartedCluster;

const cm = (ns: string, name: string): Promise<Loose> =>
  raw(s, 'GET', `/api/v1/namespaces/${ns}/configmaps/${name}`).then((r) => r.json);
const patch = (path: string, body: unknown): Promise<Loose> =>
  raw(s, 'PATCH', path, { headers: MERGE, body });

beforeAll(async () => {
  cluster.addNamespace('held', { labels: { team: 'payments' } });
  cluster.addNamespace('other');
  for (const ns of ['held', 'other'])
    for (const name of ['a', 'b'])
      cluster.addObject(CONFIGMAPS, { namespace: ns, name, finalizers: ['example.com/hold'] });
  cluster.addObject(CONFIGMAPS, { namespace: 'held', name: 'live', labels: { app: 'web' } });
  cluster.addWebhook({
    kind: 'Mutating',
    name: 'finalizers.policy.example.com',
    failurePolicy: 'Fail',
    resources: ['configmaps'],
    operations: ['UPDATE'],
    apiGroups: [''],
    service: { namespace: 'policy-system', name: 'policy-webhook' },
    namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['payments'] }] },
    down: false,
  });
  cluster.putBackFinalizer('finalizers.policy.example.com', 'example.com/hold');
  cluster.addWebhook({
    kind: 'Mutating',
    name: 'stamp.example.com',
    failurePolicy: 'Fail',
    resources: ['configmaps'],
    operations: ['UPDATE'],
    apiGroups: [''],
    objectSelector: { matchLabels: { app: 'web' } },
    down: false,
  });
  cluster.putBackFinalizer('stamp.example.com', 'example.com/stamp');
  s = await cluster.start();
  for (const name of ['a', 'b']) await raw(s, 'DELETE', `/api/v1/namespaces/held/configmaps/${name}`);
  await raw(s, 'DELETE', '/api/v1/namespaces/other/configmaps/a');
});
afterAll(() => cluster.stop());

test('the configuration is stored and served like any other object', async () => {
  const r = await raw(
    s,
    'GET',
    '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/finalizers.policy.example.com',
  );
  expect(r.status).toBe(200);
  expect(r.json.kind).toBe('MutatingWebhookConfiguration');
  expect(r.json.webhooks[0]).toMatchObject({
    name: 'finalizers.policy.example.com',
    rules: [{ operations: ['UPDATE'], apiGroups: [''], resources: ['configmaps'] }],
    clientConfig: { service: { namespace: 'policy-system', name: 'policy-webhook' } },
    reinvocationPolicy: 'Never',
  });
});

test('a PATCH removing the finalizer it puts back answers 200 with the finalizer kept and the resourceVersion unchanged', async () => {
  const before = await cm('held', 'a');
  expect(before.metadata.deletionTimestamp).toBeDefined();
  const path = '/api/v1/namespaces/held/configmaps/a';
  const r = await patch(path, {
    metadata: { resourceVersion: before.metadata.resourceVersion, finalizers: [] },
  });
  expect(r.status).toBe(200);
  expect(r.headers.warning).toBeUndefined();
  expect(r.json.metadata.finalizers).toEqual(['example.com/hold']);
  expect(r.json.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
  expect(await cm('held', 'a')).toEqual(before);
  // The same answer to `null` and to a JSON patch: what the webhook sees is the object after the patch.
  const again = await patch(path, { metadata: { finalizers: null } });
  expect(again.json.metadata.finalizers).toEqual(['example.com/hold']);
});

test('the namespace selector keeps the webhook away from other namespaces: there the finalizer goes', async () => {
  const r = await patch('/api/v1/namespaces/other/configmaps/a', { metadata: { finalizers: [] } });
  expect(r.status).toBe(200);
  expect(r.json.metadata.finalizers).toBeUndefined();
  expect((await raw(s, 'GET', '/api/v1/namespaces/other/configmaps/a')).status).toBe(404);
});

test('a finalizer it adds that is new on an object being deleted is the 422 of any new finalizer', async () => {
  const path = '/api/v1/namespaces/held/configmaps/b';
  const before = await cm('held', 'b');
  const r = await patch(path, { metadata: { labels: { app: 'web' } } });
  expect(r.status).toBe(422);
  expect(r.json).toMatchObject({
    kind: 'Status',
    status: 'Failure',
    reason: 'Invalid',
    code: 422,
    details: { name: 'b', kind: 'ConfigMap' },
  });
  expect(r.json.message).toBe(
    'ConfigMap "b" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/stamp"}',
  );
  expect(await cm('held', 'b')).toEqual(before);
});

test('on an object not being deleted what each matching webhook adds is stored, in order, with a new resourceVersion', async () => {
  const before = await cm('held', 'live');
  const r = await patch('/api/v1/namespaces/held/configmaps/live', { data: { k: 'v' } });
  expect(r.status).toBe(200);
  expect(r.json.metadata.finalizers).toEqual(['example.com/hold', 'example.com/stamp']);
  expect(r.json.metadata.resourceVersion).not.toBe(before.metadata.resourceVersion);
});

test('a mutating webhook that is down fails the request under failurePolicy Fail, before any change', async () => {
  const down = new FakeCluster({ controller: FAST });
  down.addNamespace('x');
  down.addObject(CONFIGMAPS, { namespace: 'x', name: 'c', finalizers: ['example.com/hold'] });
  down.addWebhook({
    kind: 'Mutating',
    name: 'finalizers.policy.example.com',
    failurePolicy: 'Fail',
    resources: ['configmaps'],
    operations: ['UPDATE'],
    down: true,
  });
  down.putBackFinalizer('finalizers.policy.example.com', 'example.com/hold');
  const started = await down.start();
  try {
    const r = await raw(started, 'PATCH', '/api/v1/namespaces/x/configmaps/c', {
      headers: MERGE,
      body: { metadata: { finalizers: [] } },
    });
    expect(r.status).toBe(500);
    expect(r.json.message).toMatch(
      /^Internal error occurred: failed calling webhook "finalizers\.policy\.example\.com": failed to call webhook: Post "https:\/\/finalizers-webhook\.webhook-system\.svc:443\/\?timeout=10s": dial tcp .*: connect: connection refused$/,
    );
  } finally {
    await down.stop();
  }
});

test('on /finalize a webhook on namespaces/finalize puts spec.finalizers back: 200, the namespace still there', async () => {
  const fin = new FakeCluster({ controller: { ...FAST, queueDelayMs: 60_000 } });
  fin.addNamespace('gone-soon');
  fin.addWebhook({
    kind: 'Mutating',
    name: 'ns.policy.example.com',
    failurePolicy: 'Fail',
    resources: ['namespaces/finalize'],
    operations: ['UPDATE'],
    apiGroups: [''],
    down: false,
  });
  fin.putBackFinalizer('ns.policy.example.com', 'kubernetes', { field: 'spec' });
  const started = await fin.start();
  try {
    await raw(started, 'DELETE', '/api/v1/namespaces/gone-soon');
    const ns = (await raw(started, 'GET', '/api/v1/namespaces/gone-soon')).json;
    const r = await raw(started, 'PUT', '/api/v1/namespaces/gone-soon/finalize', {
      body: { ...ns, spec: { finalizers: [] } },
    });
    expect(r.status).toBe(200);
    expect(r.json.spec.finalizers).toEqual(['kubernetes']);
    expect(r.json.metadata.resourceVersion).toBe(ns.metadata.resourceVersion);
    expect((await raw(started, 'GET', '/api/v1/namespaces/gone-soon')).json.spec.finalizers).toEqual([
      'kubernetes',
    ]);
  } finally {
    await fin.stop();
  }
});
