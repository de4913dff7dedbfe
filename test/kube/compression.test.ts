/**
 * Response compression on the request path: the client asks for gzip (kube-apiserver compresses answers over
 * 128 KiB), decodes it, counts the bytes as received, never asks for it on a watch, and refuses a body it cannot
 * decode or that would expand without bound.
 */
import { gzipSync } from 'node:zlib';
import { KubeConfig } from '@kubernetes/client-node';
import nock from 'nock';
import { createKube, type KubeClient, type KubeClientOptions } from '../../src/kube/client.js';
import { KubeError } from '../../src/kube/port.js';
import { BODY_LIMITS } from '../../src/kube/transport.js';
import { FakeCluster, type StartedCluster } from '../fake-apiserver/index.js';
import { api, testKube } from './fixtures.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const NS = 'preview-big';
const COUNT = 600;

const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
let s: StartedCluster;

beforeAll(async () => {
  cluster.addNamespace(NS);
  for (let i = 0; i < COUNT; i++) {
    cluster.addObject(CONFIGMAPS, {
      namespace: NS,
      name: `app-config-${String(i).padStart(4, '0')}`,
      labels: { app: 'shop', 'app.kubernetes.io/instance': `preview-${i % 7}` },
      data: { 'application.properties': `feature.flag=${i}\n`.repeat(40) },
    });
  }
  s = await cluster.start();
});
afterAll(() => cluster.stop());

function kubeFor(opts: KubeClientOptions = {}): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromString(s.kubeconfig);
  return createKube(kc, opts);
}

/** The fake's log entries from `from` on: what each request asked for and how many body bytes went out. */
const logged = (from: number) => cluster.requests.slice(from);

/** Every page of the ConfigMaps, 500 at a time (the scan's page size). */
async function listAll(kube: KubeClient) {
  const from = cluster.requests.length;
  const items = [];
  let token: string | undefined;
  do {
    const page = await kube.listMetadata(CONFIGMAPS, { namespace: NS, limit: 500, continue: token });
    items.push(...page.items);
    token = page.continue;
  } while (token);
  return { items, log: logged(from), cost: kube.cost() };
}

test('a list page over 128 KiB comes gzip-encoded, is decoded, and costs the bytes as received', async () => {
  const zipped = kubeFor();
  const plain = kubeFor({ gzip: false });
  try {
    const a = await listAll(zipped);
    const b = await listAll(plain);
    // Same objects either way.
    expect(a.items.map((m) => m.name)).toEqual(b.items.map((m) => m.name));
    expect(a.items).toHaveLength(COUNT);
    expect(a.items[599]).toMatchObject({ name: 'app-config-0599', namespace: NS });
    // The client asked for it on every page; the first (500 objects, over 128 KiB) came compressed.
    expect(a.log).toHaveLength(2);
    expect(a.log.every((r) => r.acceptEncoding === 'gzip')).toBe(true);
    expect(b.log.every((r) => r.acceptEncoding === undefined)).toBe(true);
    // What the client counts is what the server sent; compressed it is a fraction.
    expect(a.cost.bytes).toBe(a.log.reduce((n, r) => n + r.bytesOut, 0));
    expect(b.cost.bytes).toBe(b.log.reduce((n, r) => n + r.bytesOut, 0));
    // Page 1 (500 objects, over 128 KiB) came compressed, to a fraction; page 2 (100 objects) as it is.
    const [first, second] = [a.log[0]!, a.log[1]!];
    expect(b.log[0]!.bytesOut).toBeGreaterThan(128 * 1024);
    expect(first.bytesOut * 5).toBeLessThan(b.log[0]!.bytesOut);
    expect(second.bytesOut).toBe(b.log[1]!.bytesOut);
  } finally {
    await zipped.close();
    await plain.close();
  }
});

test('a small answer is not compressed and reads the same', async () => {
  const kube = kubeFor();
  try {
    const from = cluster.requests.length;
    const ns = await kube.getNamespace(NS);
    expect(ns?.name).toBe(NS);
    const [get] = logged(from);
    expect(get?.acceptEncoding).toBe('gzip');
    expect(kube.cost().bytes).toBe(get?.bytesOut);
  } finally {
    await kube.close();
  }
});

test('a watch never asks for compression', async () => {
  const kube = kubeFor();
  try {
    const ns = await kube.getNamespace(NS);
    const from = cluster.requests.length;
    const handle = await kube.watchNamespace(NS, ns?.resourceVersion ?? '', () => undefined);
    await handle.stop();
    const watches = logged(from).filter((r) => /(^|&)watch=(1|true)/.test(r.query));
    expect(watches.length).toBeGreaterThan(0);
    expect(watches.every((r) => r.acceptEncoding === undefined)).toBe(true);
  } finally {
    await kube.close();
  }
});

describe('a gzip body the client cannot use', () => {
  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());

  test('a body that is not gzip after all: a clear error naming the request, not a crash', async () => {
    const { kube } = testKube();
    api().get('/api/v1/namespaces/preview-42').reply(200, Buffer.from('{"kind":"Namespace"}'), {
      'Content-Type': 'application/json',
      'Content-Encoding': 'gzip',
    });
    const err = await kube.getNamespace('preview-42').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect(err).toMatchObject({ reason: 'UnexpectedServerResponse' });
    expect((err as Error).message).toMatch(
      /gzip-encoded answer to get namespaces .*\(20 bytes\) cannot be decoded/i,
    );
  });

  test(`a body that would expand past ${BODY_LIMITS.object / 1024 / 1024} MiB (one object) is refused as it is decoded`, async () => {
    const { kube } = testKube();
    const bomb = gzipSync(Buffer.alloc(BODY_LIMITS.object * 4), { level: 1 });
    expect(bomb.byteLength).toBeLessThan(1024 * 1024);
    api()
      .get('/api/v1/namespaces/preview-42')
      .reply(200, bomb, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
    const err = await kube.getNamespace('preview-42').catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'ResponseTooLarge', verb: 'get', resource: 'namespaces' });
    expect((err as Error).message).toBe(
      "the server's gzip-encoded answer, decoded, to GET /api/v1/namespaces/preview-42 grew past 8 MiB, the most " +
        'the answer about one object may be; it was not read further',
    );
  });

  test('a kubeconfig without TLS options (fetch decodes the body): the decoded bytes are bounded the same', async () => {
    const kc = new KubeConfig();
    kc.loadFromString(
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters: [{ name: public, cluster: { server: "https://k8s.example.com" } }]',
        'users: [{ name: admin, user: { token: abc } }]',
        'contexts: [{ name: public, context: { cluster: public, user: admin } }]',
        'current-context: public',
      ].join('\n'),
    );
    const kube = createKube(kc);
    nock('https://k8s.example.com')
      .get('/api/v1/namespaces/preview-42')
      .reply(200, gzipSync(Buffer.alloc(BODY_LIMITS.object * 4)), {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
      });
    const err = await kube.getNamespace('preview-42').catch((e: unknown) => e);
    expect(err).toMatchObject({ reason: 'ResponseTooLarge' });
    expect((err as Error).message).toMatch(
      /^the server's answer to GET \/api\/v1\/namespaces\/preview-42 grew past 8 MiB/,
    );
  });
});
