/** Watch streams (§10; checklist 27): framing, DELETED RV, 410 Expired, bookmarks, timeouts, resets. */
import { Watch } from '@kubernetes/client-node';
import { type StartedCluster, FakeCluster, GVR } from './index.js';
import { type Loose, FAST, raw, sleep, waitFor, watch } from './testkit.js';
import { clients } from './clients.js';

const cluster = new FakeCluster({ controller: FAST, bookmarkIntervalMs: 100 });
let s: StartedCluster;

beforeAll(async () => {
  s = await cluster.start();
});
afterAll(() => cluster.stop());

const nsWatch = (name: string, extra = ''): string =>
  `/api/v1/namespaces?watch=1&fieldSelector=metadata.name%3D${name}${extra}`;

test('27: newline-delimited chunked JSON; DELETED carries the last state at the deletion RV', async () => {
  const n = cluster.addNamespace('w1');
  const w = watch(s, nsWatch('w1', `&resourceVersion=${n.metadata.resourceVersion}`));
  expect(await w.status).toBe(200);
  const headers = await w.headers;
  expect(headers['content-type']).toBe('application/json');
  expect(headers['transfer-encoding']).toBe('chunked');
  const d = await raw(s, 'DELETE', '/api/v1/namespaces/w1');
  await waitFor(() => w.events.some((e) => e.type === 'DELETED'), 3000);
  w.close();
  const text = w.text();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.trim().split('\n'))
    expect(Object.keys(JSON.parse(line))).toEqual(['type', 'object']);
  const first = w.events[0];
  expect(first.type).toBe('MODIFIED');
  expect(first.object.metadata.resourceVersion).toBe(d.json.metadata.resourceVersion);
  const deleted = w.events[w.events.length - 1];
  const before = w.events[w.events.length - 2];
  expect(Number(deleted.object.metadata.resourceVersion)).toBeGreaterThan(
    Number(before.object.metadata.resourceVersion),
  );
  expect(deleted.object.metadata.deletionTimestamp).toBeDefined();
  expect(deleted.object.status.phase).toBe('Terminating');
});

test('synthetic ADDED events when resourceVersion is empty or 0', async () => {
  cluster.addNamespace('w2');
  for (const rv of ['', '&resourceVersion=0']) {
    const w = watch(s, nsWatch('w2', rv));
    await waitFor(() => w.events.length === 1);
    w.close();
    expect(w.events[0].type).toBe('ADDED');
    expect(w.events[0].object.metadata.name).toBe('w2');
  }
});

test('27: an expired resourceVersion gives 200, one ERROR 410 event, then close', async () => {
  cluster.addNamespace('w3');
  cluster.expireWatches();
  const w = watch(s, nsWatch('w3', '&resourceVersion=101'));
  expect(await w.status).toBe(200);
  expect(await w.done).toEqual({});
  const compacted = (await raw(s, 'GET', '/api/v1/namespaces?limit=1')).json.metadata.resourceVersion;
  expect(w.text()).toBe(
    `{"type":"ERROR","object":{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"too old resource version: 101 (${compacted})","reason":"Expired","code":410}}\n`,
  );
});

test('expireWatches() ends open watches with ERROR 410; a relist RV is accepted again', async () => {
  const n = cluster.addNamespace('w4');
  const w = watch(s, nsWatch('w4', `&resourceVersion=${n.metadata.resourceVersion}`));
  await w.status;
  cluster.expireWatches();
  expect(await w.done).toEqual({});
  expect(w.events).toHaveLength(1);
  expect(w.events[0]).toMatchObject({ type: 'ERROR', object: { reason: 'Expired', code: 410 } });
  const list = (await raw(s, 'GET', '/api/v1/namespaces')).json;
  const again = watch(s, nsWatch('w4', `&resourceVersion=${list.metadata.resourceVersion}`));
  await sleep(50);
  again.close();
  expect(again.events).toEqual([]);
});

test('bookmarks when allowed, clean close at timeoutSeconds', async () => {
  cluster.addNamespace('w5');
  const w = watch(s, nsWatch('w5', '&resourceVersion=0&allowWatchBookmarks=true&timeoutSeconds=1'));
  const t0 = Date.now();
  expect(await w.done).toEqual({});
  expect(Date.now() - t0).toBeGreaterThanOrEqual(900);
  const bookmark = w.events.find((e) => e.type === 'BOOKMARK');
  expect(Object.keys(bookmark.object)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
  expect(bookmark.object).toMatchObject({ kind: 'Namespace', apiVersion: 'v1', spec: {}, status: {} });
  expect(Object.keys(bookmark.object.metadata)).toEqual(['resourceVersion']);
  const plain = watch(s, nsWatch('w5', '&resourceVersion=0&timeoutSeconds=1'));
  await plain.done;
  expect(plain.events.map((e: Loose) => e.type)).toEqual(['ADDED']);
});

test('resetWatches() drops connections abruptly', async () => {
  const w = watch(s, nsWatch('w6'));
  await w.status;
  expect(cluster.openWatches).toBeGreaterThan(0);
  cluster.resetWatches();
  const r = await w.done;
  expect(r.error).toBeDefined();
});

test('generic watches filter by namespace and labels; client-node Watch works against the fake', async () => {
  cluster.addNamespace('w7');
  const { kc } = clients(s);
  const seen: string[] = [];
  let doneErr: unknown = 'open';
  const ctl = await new Watch(kc).watch(
    '/api/v1/namespaces/w7/configmaps',
    { labelSelector: 'pick=yes' },
    (type, obj: Loose) => seen.push(`${type} ${obj.metadata.name}`),
    (err) => (doneErr = err),
  );
  await sleep(50);
  cluster.addObject(GVR.configmaps, { namespace: 'w7', name: 'a', labels: { pick: 'yes' } });
  cluster.addObject(GVR.configmaps, { namespace: 'w7', name: 'b', labels: { pick: 'no' } });
  cluster.addObject(GVR.configmaps, { namespace: 'default', name: 'c', labels: { pick: 'yes' } });
  await raw(s, 'DELETE', '/api/v1/namespaces/w7/configmaps/a');
  await waitFor(() => seen.length === 2, 2000);
  expect(seen).toEqual(['ADDED a', 'DELETED a']);
  ctl.abort();
  await waitFor(() => doneErr !== 'open', 2000);
});
