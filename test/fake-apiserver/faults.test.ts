/** Auth, RBAC denials, throttling, fault injection, latency and the request log (§8; checklist 28). */
import { type StartedCluster, CLIENT_USER, FakeCluster } from './index.js';
import { constants, gunzipSync } from 'node:zlib';
import { type Loose, head, raw, statusOf, waitFor } from './testkit.js';
import { clients } from './clients.js';

const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;

beforeAll(async () => {
  cluster.addNamespace('x');
  s = await cluster.start();
});
afterAll(() => cluster.stop());

test('28: RBAC denial on /finalize names namespaces/finalize', async () => {
  cluster.denyRBAC({ verb: 'update', resource: 'namespaces/finalize' });
  const { core } = clients(s);
  const body = await core.readNamespace({ name: 'x' });
  const err = await core.replaceNamespaceFinalize({ name: 'x', body }).catch((e: unknown) => e);
  expect((err as Loose).code).toBe(403);
  expect(statusOf(err)).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `namespaces "x" is forbidden: User "${CLIENT_USER}" cannot update resource "namespaces/finalize" in API group "" in the namespace "x"`,
    reason: 'Forbidden',
    details: { name: 'x', kind: 'namespaces' },
    code: 403,
  });
});

test('RBAC messages for delete, cluster-scope list and a named watch', async () => {
  const c = new FakeCluster();
  c.addNamespace('y');
  c.denyRBAC({ verb: 'delete', resource: 'namespaces' });
  c.denyRBAC({ verb: 'list', resource: 'namespaces' });
  c.denyRBAC({ verb: 'watch', resource: 'namespaces' });
  c.denyRBAC({ verb: 'list', resource: 'configmaps', namespace: 'y' });
  const t = await c.start();
  try {
    const u = `User "${CLIENT_USER}"`;
    expect((await raw(t, 'DELETE', '/api/v1/namespaces/y')).json.message).toBe(
      `namespaces "y" is forbidden: ${u} cannot delete resource "namespaces" in API group "" in the namespace "y"`,
    );
    expect((await raw(t, 'GET', '/api/v1/namespaces')).json.message).toBe(
      `namespaces is forbidden: ${u} cannot list resource "namespaces" in API group "" at the cluster scope`,
    );
    expect(
      (await raw(t, 'GET', '/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3Dy')).json.message,
    ).toBe(
      `namespaces "y" is forbidden: ${u} cannot watch resource "namespaces" in API group "" at the cluster scope`,
    );
    expect((await raw(t, 'GET', '/api/v1/namespaces/y/configmaps')).json.message).toBe(
      `configmaps is forbidden: ${u} cannot list resource "configmaps" in API group "" in the namespace "y"`,
    );
    expect((await raw(t, 'GET', '/api/v1/namespaces/default/configmaps')).status).toBe(200);
  } finally {
    await c.stop();
  }
});

test('28: 429 carries Retry-After and the Status form; it clears after N requests', async () => {
  cluster.throttle({ times: 2, retryAfterSeconds: 3 });
  const a = await raw(s, 'GET', '/api/v1/namespaces/x');
  expect(a.status).toBe(429);
  expect(a.headers['retry-after']).toBe('3');
  expect(a.json).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Too many requests, please try again later.',
    reason: 'TooManyRequests',
    details: { retryAfterSeconds: 3 },
    code: 429,
  });
  expect((await raw(s, 'GET', '/api/v1/namespaces/x')).status).toBe(429);
  expect((await raw(s, 'GET', '/api/v1/namespaces/x')).status).toBe(200);
});

test('bearer token required: 401 Unauthorized', async () => {
  const r = await raw(s, 'GET', '/api/v1/namespaces', { token: '' });
  expect(r.status).toBe(401);
  expect(r.json).toEqual({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: 'Unauthorized',
    reason: 'Unauthorized',
    code: 401,
  });
  expect((await raw(s, 'GET', '/api/v1/namespaces', { token: 'wrong' })).status).toBe(401);
});

test('failNext injects canned responses for matching requests only', async () => {
  cluster.failNext({ method: 'get', path: /^\/api\/v1\/namespaces\/x$/ }, { status: 500, times: 2 });
  cluster.failNext(
    { path: /\/finalize$/ },
    { status: 503, body: 'service unavailable\n', headers: { 'X-Test': '1' } },
  );
  expect((await raw(s, 'GET', '/api/v1/namespaces')).status).toBe(200);
  const a = await raw(s, 'GET', '/api/v1/namespaces/x');
  expect(a.status).toBe(500);
  expect(a.json.kind).toBe('Status');
  expect((await raw(s, 'GET', '/api/v1/namespaces/x')).status).toBe(500);
  expect((await raw(s, 'GET', '/api/v1/namespaces/x')).status).toBe(200);
  const f = await raw(s, 'PUT', '/api/v1/namespaces/x/finalize', { body: { metadata: { name: 'x' } } });
  expect([f.status, f.text, f.headers['x-test'], f.headers['content-type']]).toEqual([
    503,
    'service unavailable\n',
    '1',
    'text/plain; charset=utf-8',
  ]);
});

test('the request log records method, path, query, status, bytes, headers and body', async () => {
  const from = cluster.requests.length;
  const r = await raw(s, 'PATCH', '/api/v1/namespaces/x?fieldManager=t', {
    body: { metadata: { labels: { a: 'b' } } },
    headers: { 'Content-Type': 'application/merge-patch+json', Accept: 'application/json' },
  });
  const rec = cluster.requests[from];
  expect(rec).toMatchObject({
    method: 'PATCH',
    path: '/api/v1/namespaces/x',
    query: 'fieldManager=t',
    status: 200,
    accept: 'application/json',
    contentType: 'application/merge-patch+json',
    body: { metadata: { labels: { a: 'b' } } },
  });
  expect(rec?.bytesOut).toBe(Buffer.byteLength(r.text));
  expect(typeof rec?.at).toBe('number');
  const unsupported = await raw(s, 'POST', '/api/v1/namespaces', {
    body: 'k8s\0',
    headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
  });
  expect(unsupported.status).toBe(415);
});

test('latencyMs delays every response', async () => {
  const slow = new FakeCluster({ latencyMs: 80 });
  const t = await slow.start();
  try {
    const t0 = Date.now();
    await raw(t, 'GET', '/version');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(75);
  } finally {
    await slow.stop();
  }
});

describe('answers that never end', () => {
  const LIST = /^\/api\/v1\/namespaces$/;
  const MiB = 1024 * 1024;

  test('endless-body: a 200 namespace list whose items keep coming until the client goes away', async () => {
    cluster.misbehaveNext({ method: 'GET', path: LIST }, 'endless-body');
    const from = cluster.requests.length;
    const r = await head(s, '/api/v1/namespaces?limit=500', 8 * MiB);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['content-encoding']).toBeUndefined();
    expect(r.text.slice(0, 120)).toMatch(
      /^\{"kind":"NamespaceList","apiVersion":"v1",.*"items":\[\{"metadata"/,
    );
    // Never a complete document: the items array is not closed.
    expect(() => JSON.parse(r.text) as unknown).toThrow(SyntaxError);
    // The server stops writing once the client has gone: what it sent stays near what was read.
    const rec = cluster.requests[from]!;
    const sent = await waitFor(async () => {
      const before = rec.bytesOut;
      await new Promise((done) => setTimeout(done, 50));
      return rec.bytesOut === before ? before : undefined;
    });
    expect(sent).toBeGreaterThanOrEqual(8 * MiB);
    expect(sent).toBeLessThan(16 * MiB);
    // One request only: the next list is answered as usual.
    expect((await raw(s, 'GET', '/api/v1/namespaces')).json.kind).toBe('NamespaceList');
  });

  test('gzip-bomb: the same list gzip-encoded, each MiB of it a few KiB on the wire', async () => {
    cluster.misbehaveNext({ method: 'GET', path: LIST }, 'gzip-bomb');
    const r = await head(s, '/api/v1/namespaces', 64 * 1024);
    expect(r.status).toBe(200);
    expect(r.headers['content-encoding']).toBe('gzip');
    const decoded = gunzipSync(r.body, { finishFlush: constants.Z_SYNC_FLUSH });
    expect(decoded.toString('utf8', 0, 120)).toMatch(/^\{"kind":"NamespaceList",.*"items":\[\{"metadata"/);
    expect(decoded.byteLength).toBeGreaterThan(50 * r.body.byteLength);
  });
});
