/** Response compression as kube-apiserver does it: gzip only when asked for and only over 128 KiB. */
import { gunzipSync } from 'node:zlib';
import { FakeCluster, type StartedCluster } from './index.js';
import { raw } from './testkit.js';

const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;
const LIST = '/api/v1/namespaces/big/configmaps';
const GZIP = { 'Accept-Encoding': 'gzip' };

beforeAll(async () => {
  cluster.addNamespace('big');
  for (let i = 0; i < 50; i++) {
    cluster.addObject(
      { group: '', version: 'v1', resource: 'configmaps' },
      { namespace: 'big', name: `big-${i}`, data: { payload: 'x'.repeat(3000) } },
    );
  }
  s = await cluster.start();
});
afterAll(() => cluster.stop());

test('an answer over 128 KiB is gzip-encoded when the client accepts gzip, and decodes to the same body', async () => {
  const plain = await raw(s, 'GET', LIST);
  const zipped = await raw(s, 'GET', LIST, { headers: GZIP });
  expect(plain.body.byteLength).toBeGreaterThan(128 * 1024);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(zipped.headers['content-encoding']).toBe('gzip');
  expect(zipped.headers.vary).toBe('Accept-Encoding');
  expect(zipped.body.byteLength * 10).toBeLessThan(plain.body.byteLength);
  expect(JSON.parse(gunzipSync(zipped.body).toString('utf8'))).toEqual(plain.json);
  // The request log counts the bytes as sent.
  expect(cluster.requests.at(-1)).toMatchObject({
    acceptEncoding: 'gzip',
    bytesOut: zipped.body.byteLength,
    bodyBytes: plain.body.byteLength,
  });
});

test('a small answer, or one for a client that does not accept gzip, is sent as it is', async () => {
  const small = await raw(s, 'GET', `${LIST}?limit=1`, { headers: GZIP });
  expect(small.headers['content-encoding']).toBeUndefined();
  expect(small.json.items).toHaveLength(1);
  const other = await raw(s, 'GET', LIST, { headers: { 'Accept-Encoding': 'br, deflate' } });
  expect(other.headers['content-encoding']).toBeUndefined();
});
