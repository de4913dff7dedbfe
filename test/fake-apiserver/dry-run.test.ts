/**
 * `dryRun=All` as kube-apiserver honours it (handlers/delete.go, patch.go, update.go, create.go; the registry's
 * DryRunnableStorage): authorization and admission run, nothing is stored, no resourceVersion moves, and the answer
 * is the object as it would be. Only `All` is a valid value.
 */
import { type StartedCluster, FakeCluster } from './index.js';
import { FAST, raw, type Loose } from './testkit.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const WIDGET_PATH = '/apis/widgets.acme.io/v1/namespaces/dry/widgets';
const cluster = new FakeCluster({ controller: FAST });
let s: StartedCluster;

beforeAll(async () => {
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  cluster.addNamespace('dry');
  cluster.addObject(WIDGETS, { namespace: 'dry', name: 'held', finalizers: ['acme.io/cleanup'] });
  cluster.addObject(WIDGETS, { namespace: 'dry', name: 'free' });
  cluster.addNamespace('refused', { labels: { keep: 'true' } });
  cluster.addWebhook({
    kind: 'Validating',
    name: 'namespaces.policy.example.com',
    failurePolicy: 'Fail',
    resources: ['namespaces'],
    operations: ['DELETE'],
    down: false,
  });
  cluster.addService('webhook-system', 'validation-webhook', 1);
  cluster.denyWebhook(
    'namespaces.policy.example.com',
    { code: 403, reason: 'Forbidden', message: 'namespaces labelled keep=true stay' },
    (obj) => obj?.metadata.labels?.keep === 'true',
  );
  s = await cluster.start();
});
afterAll(() => cluster.stop());

/** What these tests could change: the two namespaces and the widgets, as stored. */
const stored = (): string => {
  const snap = cluster.snapshot() as Record<string, Loose[]>;
  const mine = (snap.namespaces ?? []).filter((n) => ['dry', 'refused'].includes(n.metadata.name));
  return JSON.stringify([mine, snap['widgets.widgets.acme.io']]);
};
const options = { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' };

test('a dry-run DELETE of a namespace answers it Terminating, with its deletionTimestamp; it stays Active', async () => {
  const before = stored();
  const rv = cluster.namespace('dry')!.metadata.resourceVersion;
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/dry', { body: { ...options, dryRun: ['All'] } });
  expect(r.status).toBe(200);
  expect(r.json.kind).toBe('Namespace');
  expect(r.json.status.phase).toBe('Terminating');
  expect(r.json.metadata.deletionTimestamp).toEqual(expect.any(String));
  expect(r.json.metadata.resourceVersion).toBe(rv);
  expect(stored()).toBe(before);
  expect(cluster.namespace('dry')!.status.phase).toBe('Active');
});

test('a dry-run DELETE of an object held by a finalizer answers it marked; of a free one, a Success Status', async () => {
  const before = stored();
  const held = await raw(s, 'DELETE', `${WIDGET_PATH}/held?dryRun=All`);
  expect(held.status).toBe(200);
  expect(held.json.metadata.deletionTimestamp).toEqual(expect.any(String));
  expect(held.json.metadata.finalizers).toEqual(['acme.io/cleanup']);
  const free = await raw(s, 'DELETE', `${WIDGET_PATH}/free`, { body: { ...options, dryRun: ['All'] } });
  expect(free.status).toBe(200);
  expect(stored()).toBe(before);
});

test('a dry-run PATCH answers the object as it would be, under the same resourceVersion; nothing is stored', async () => {
  const before = stored();
  const held = cluster.get(WIDGETS, 'dry', 'held');
  const r = await raw(s, 'PATCH', `${WIDGET_PATH}/held?dryRun=All`, {
    body: { metadata: { resourceVersion: held.metadata.resourceVersion, finalizers: [] } },
    headers: { 'Content-Type': 'application/merge-patch+json' },
  });
  expect(r.status).toBe(200);
  expect(r.json.metadata.finalizers).toBeUndefined();
  expect(r.json.metadata.resourceVersion).toBe(held.metadata.resourceVersion);
  expect(stored()).toBe(before);
});

test('admission answers a dry run as it answers the write: a webhook that denies refuses the dry-run DELETE', async () => {
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/refused', { body: { ...options, dryRun: ['All'] } });
  expect(r.status).toBe(403);
  expect(r.json.message).toBe(
    'namespaces "refused" is forbidden: admission webhook "namespaces.policy.example.com" denied the request: namespaces labelled keep=true stay',
  );
  expect(cluster.namespace('refused')!.status.phase).toBe('Active');
});

test('with a body, the DELETE reads its options from the body only: dryRun=All in the query alone deletes for real', async () => {
  cluster.addNamespace('query-only');
  const r = await raw(s, 'DELETE', '/api/v1/namespaces/query-only?dryRun=All', { body: options });
  expect(r.status).toBe(200);
  expect(cluster.namespace('query-only')!.metadata.deletionTimestamp).toEqual(expect.any(String));
});

const INVALID = 'is invalid: dryRun: Unsupported value: []string{"maybe"}: supported values: "All"';
const invalidCases: { name: string; method: string; path: string; body?: unknown; options: string }[] = [
  {
    name: 'DELETE, query',
    method: 'DELETE',
    path: '/api/v1/namespaces/dry?dryRun=maybe',
    options: 'DeleteOptions',
  },
  {
    name: 'DELETE, body',
    method: 'DELETE',
    path: '/api/v1/namespaces/dry',
    body: { ...options, dryRun: ['maybe'] },
    options: 'DeleteOptions',
  },
  {
    name: 'PATCH',
    method: 'PATCH',
    path: `${WIDGET_PATH}/held?dryRun=maybe`,
    body: { metadata: { labels: { a: 'b' } } },
    options: 'PatchOptions',
  },
  {
    name: 'POST',
    method: 'POST',
    path: '/api/v1/namespaces?dryRun=maybe',
    body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'never' } },
    options: 'CreateOptions',
  },
];

test.each(invalidCases)('an invalid dryRun value is a 422 naming the options ($name)', async (c) => {
  const before = stored();
  const headers = c.method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : undefined;
  const r: Loose = await raw(s, c.method, c.path, { body: c.body, headers });
  expect(r.status).toBe(422);
  expect(r.json.reason).toBe('Invalid');
  expect(r.json.message).toBe(`${c.options}.meta.k8s.io "" ${INVALID}`);
  expect(stored()).toBe(before);
});
