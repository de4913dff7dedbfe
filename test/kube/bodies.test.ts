/**
 * Every answer is read within a bound for its kind (a list page, a discovery document, one object, a watch line):
 * past it the read stops with an error naming the request and the bound, and the connection is closed.
 */
import { gzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import { createKube, type KubeClient } from '../../src/kube/client.js';
import { KubeError, type NamespaceEvent } from '../../src/kube/port.js';
import { FakeCluster, type StartedCluster } from '../fake-apiserver/index.js';

const MiB = 1024 * 1024;
/** The bound of a list page. */
const PAGE = 64 * MiB;
const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;
let kube: KubeClient;

beforeAll(async () => {
  cluster.addNamespace('pr-1');
  s = await cluster.start();
});
beforeEach(() => {
  const kc = new KubeConfig();
  kc.loadFromString(s.kubeconfig);
  kube = createKube(kc, { retry: { attempts: 1, baseMs: 1 } });
});
afterEach(() => kube.close());
afterAll(() => cluster.stop());

/** A JSON list of `bytes` bytes or a little more: complete and valid, only too big. */
function bigList(bytes: number): string {
  const item = JSON.stringify({ metadata: { name: 'pr-x', uid: 'u', labels: { pad: 'x'.repeat(1000) } } });
  const items = Array.from({ length: Math.ceil(bytes / (item.length + 1)) }, () => item);
  return `{"kind":"NamespaceList","apiVersion":"v1","metadata":{},"items":[${items.join(',')}]}`;
}

/** Bytes the server sent for the requests that match. */
const sent = (path: RegExp, from: number): number =>
  cluster.requests.slice(from).reduce((n, r) => n + (path.test(r.path) ? r.bytesOut : 0), 0);

const refusal = async (work: Promise<unknown>): Promise<KubeError> => {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(KubeError);
  return err as KubeError;
};

describe('past its bound an answer is not read', () => {
  test('a complete list page just over 64 MiB', async () => {
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/ },
      { status: 200, body: bigList(65 * MiB) },
    );
    const err = await refusal(kube.listNamespaces('team=a'));
    expect(err).toMatchObject({ reason: 'ResponseTooLarge', verb: 'list', resource: 'namespaces' });
    expect(err.message).toBe(
      "the server's answer to GET /api/v1/namespaces?labelSelector=team%3Da&limit=500 grew past 64 MiB, the most a " +
        'list page may be; it was not read further',
    );
  });

  test('a list page under its bound is read as before', async () => {
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/ },
      { status: 200, body: bigList(20 * MiB) },
    );
    const items = await kube.listNamespaces('team=a');
    expect(items.length).toBeGreaterThan(19_000);
  });

  test('one object over 8 MiB, its continue token left out of the message', async () => {
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces\/pr-1\/pods\/web-0$/ },
      { status: 200, body: bigList(9 * MiB).replace('"NamespaceList"', '"Pod"') },
    );
    const err = await refusal(kube.getRaw('/api/v1/namespaces/pr-1/pods/web-0'));
    expect(err.message).toBe(
      "the server's answer to GET /api/v1/namespaces/pr-1/pods/web-0 grew past 8 MiB, the most the answer about one " +
        'object may be; it was not read further',
    );
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces\/pr-1\/pods$/ },
      { status: 200, body: bigList(65 * MiB) },
    );
    const page = await refusal(
      kube.listRaw('/api/v1/namespaces/pr-1/pods', { limit: 500, continue: 'abc'.repeat(50) }),
    );
    expect(page.message).toMatch(
      /^the server's answer to GET \/api\/v1\/namespaces\/pr-1\/pods\?limit=500 grew past 64 MiB/,
    );
  });

  test('an error answer is bounded like the object it is about', async () => {
    cluster.failNext(
      { method: 'DELETE', path: /^\/api\/v1\/namespaces\/pr-1$/ },
      { status: 500, body: 'x'.repeat(9 * MiB) },
    );
    const err = await refusal(kube.deleteNamespace('pr-1'));
    expect(err.message).toMatch(
      /^the server's answer to DELETE \/api\/v1\/namespaces\/pr-1.* grew past 8 MiB/,
    );
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
  });

  test('a discovery document over 32 MiB', async () => {
    cluster.failNext({ method: 'GET', path: /^\/apis$/ }, { status: 200, body: bigList(33 * MiB) });
    const err = await refusal(kube.discover());
    expect(err.message).toBe(
      "the server's answer to GET /apis grew past 32 MiB, the most a discovery document may be; it was not read further",
    );
  });

  test('a gzip bomb: 100 MiB of a list page in well under 1 MiB on the wire, refused at 64 MiB decoded', async () => {
    const bomb = gzipSync(bigList(100 * MiB), { level: 9 });
    expect(bomb.byteLength).toBeLessThan(MiB);
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/ },
      {
        status: 200,
        body: bomb,
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' },
      },
    );
    const err = await refusal(kube.listNamespaces('team=a'));
    expect(err.message).toMatch(
      /^the server's gzip-encoded answer, decoded, to GET \/api\/v1\/namespaces\?labelSelector=team%3Da&limit=500 grew past 64 MiB/,
    );
  });

  test('an answer that never ends is cut at its bound and the connection closed', async () => {
    const from = cluster.requests.length;
    cluster.misbehaveNext({ method: 'GET', path: /^\/api\/v1\/namespaces$/ }, 'endless-body');
    const err = await refusal(kube.listNamespaces('team=a'));
    expect(err.reason).toBe('ResponseTooLarge');
    // The client read up to the bound; what the sockets held when it closed comes on top, never much more.
    const bytes = sent(/^\/api\/v1\/namespaces$/, from);
    expect(bytes).toBeGreaterThan(PAGE);
    expect(bytes).toBeLessThan(PAGE + 16 * MiB);
    expect(kube.cost().bytes).toBeGreaterThan(PAGE);
    expect(kube.cost().bytes).toBeLessThanOrEqual(bytes);
  });

  test('a watch line that never ends: the error names the watch and its request', async () => {
    const ns = await kube.getNamespace('pr-1');
    cluster.misbehaveNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /watch=1/ },
      'endless-line',
    );
    const events: NamespaceEvent[] = [];
    const handle = await kube.watchNamespace('pr-1', ns!.resourceVersion, (e) => events.push(e));
    const { error } = await handle.done;
    expect(error).toMatchObject({ reason: 'LineTooLong', verb: 'watch', resource: 'namespaces' });
    expect(error?.message).toMatch(
      /^the watch on namespace "pr-1" \(GET \/api\/v1\/namespaces\?fieldSelector=metadata\.name%3Dpr-1&watch=1&.*\) sent a line that grew past 4 MiB without a newline; the stream was closed$/,
    );
    expect(events).toEqual([]);
  });
});
