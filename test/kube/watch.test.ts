import http from 'node:http';
import { PassThrough } from 'node:stream';
import nock from 'nock';
import { KubeError, type NamespaceEvent } from '../../src/kube/port.js';
import { api, JSON_HEADERS, status, terminatingNamespace, testKube } from './fixtures.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const WATCH_QUERY = {
  fieldSelector: 'metadata.name=preview-42',
  watch: '1',
  resourceVersion: '1234',
  allowWatchBookmarks: 'true',
  timeoutSeconds: '290',
};

const line = (o: unknown) => `${JSON.stringify(o)}\n`;
const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

test('parses newline-delimited events across chunk boundaries, incl. BOOKMARK and ERROR 410; done on stream end', async () => {
  const { kube } = testKube();
  const stream = new PassThrough();
  const modified = line({ type: 'MODIFIED', object: terminatingNamespace('preview-42', '1300') });
  stream.write(modified.slice(0, 40));
  api()
    .get('/api/v1/namespaces')
    .query(WATCH_QUERY)
    .reply(200, () => stream, JSON_HEADERS);
  const events: NamespaceEvent[] = [];
  const handle = await kube.watchNamespace('preview-42', '1234', (e) => events.push(e));
  stream.write(modified.slice(40));
  await tick();
  stream.write(
    line({
      type: 'BOOKMARK',
      object: {
        kind: 'Namespace',
        apiVersion: 'v1',
        metadata: { resourceVersion: '12345' },
        spec: {},
        status: {},
      },
    }) +
      'not json\n' +
      line({ type: 'ERROR', object: status(410, 'Expired', 'too old resource version: 100 (2000)') }),
  );
  await tick();
  stream.end();
  await expect(handle.done).resolves.toEqual({});
  expect(events).toEqual([
    {
      type: 'MODIFIED',
      namespace: expect.objectContaining({
        name: 'preview-42',
        resourceVersion: '1300',
        phase: 'Terminating',
      }),
    },
    { type: 'BOOKMARK', resourceVersion: '12345' },
    { type: 'ERROR', code: 410, reason: 'Expired', message: 'too old resource version: 100 (2000)' },
  ]);
  expect(kube.cost().requests).toBe(1);
  expect(kube.cost().bytes).toBeGreaterThan(modified.length);
});

test('DELETED carries the last state; stop() ends the watch without an error and without further events', async () => {
  const { kube } = testKube();
  const stream = new PassThrough();
  const deleted = { ...terminatingNamespace('preview-42', '1400'), spec: { finalizers: [] } };
  stream.write(line({ type: 'DELETED', object: deleted }));
  api()
    .get('/api/v1/namespaces')
    .query(WATCH_QUERY)
    .reply(200, () => stream, JSON_HEADERS);
  const events: NamespaceEvent[] = [];
  const handle = await kube.watchNamespace('preview-42', '1234', (e) => events.push(e));
  await tick();
  handle.stop();
  stream.write(line({ type: 'MODIFIED', object: deleted }));
  await expect(handle.done).resolves.toEqual({});
  expect(events).toEqual([
    { type: 'DELETED', namespace: expect.objectContaining({ resourceVersion: '1400', specFinalizers: [] }) },
  ]);
});

test('an expired resourceVersion rejected before the stream starts becomes an ERROR 410 event', async () => {
  const { kube } = testKube();
  api()
    .get('/api/v1/namespaces')
    .query(WATCH_QUERY)
    .reply(410, status(410, 'Expired', 'too old resource version: 1234 (5000)'), JSON_HEADERS);
  const events: NamespaceEvent[] = [];
  const handle = await kube.watchNamespace('preview-42', '1234', (e) => events.push(e));
  await expect(handle.done).resolves.toEqual({});
  expect(events).toEqual([
    { type: 'ERROR', code: 410, reason: 'Expired', message: 'too old resource version: 1234 (5000)' },
  ]);
});

test('a refused watch (403) rejects with the server message', async () => {
  const { kube } = testKube();
  const msg =
    'namespaces is forbidden: User "u" cannot watch resource "namespaces" in API group "" at the cluster scope';
  api()
    .get('/api/v1/namespaces')
    .query(WATCH_QUERY)
    .reply(403, status(403, 'Forbidden', msg), JSON_HEADERS);
  await expect(kube.watchNamespace('preview-42', '1234', () => undefined)).rejects.toMatchObject({
    code: 403,
    verb: 'watch',
    message: msg,
  });
});

test('a callback that throws ends the watch with that error', async () => {
  const { kube } = testKube();
  const stream = new PassThrough();
  stream.write(line({ type: 'MODIFIED', object: terminatingNamespace() }));
  api()
    .get('/api/v1/namespaces')
    .query(WATCH_QUERY)
    .reply(200, () => stream, JSON_HEADERS);
  const handle = await kube.watchNamespace('preview-42', '1234', () => {
    throw new Error('boom');
  });
  const result = await handle.done;
  expect(result.error?.message).toBe('boom');
  stream.destroy();
});

describe('against a real socket', () => {
  let server: http.Server;
  let url: string;
  let onRequest: (req: http.IncomingMessage, res: http.ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    server = http.createServer((req, res) => onRequest(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const addr = server.address();
    const port = typeof addr === 'object' && addr ? addr.port : 0;
    url = `http://127.0.0.1:${port}`;
    nock.enableNetConnect(`127.0.0.1:${port}`);
  });
  afterAll(async () => {
    nock.disableNetConnect();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('a mid-stream connection reset resolves done with a KubeError naming the server', async () => {
    let requested: string | undefined;
    onRequest = (req, res) => {
      requested = req.url;
      res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
      res.write(line({ type: 'MODIFIED', object: terminatingNamespace('preview-42', '1300') }));
      setTimeout(() => res.socket?.destroy(), 50);
    };
    const { kube } = testKube({}, url);
    const events: NamespaceEvent[] = [];
    const handle = await kube.watchNamespace('preview-42', '1234', (e) => events.push(e));
    const result = await handle.done;
    expect(requested).toBe(
      '/api/v1/namespaces?fieldSelector=metadata.name%3Dpreview-42&watch=1&resourceVersion=1234&allowWatchBookmarks=true&timeoutSeconds=290',
    );
    expect(events).toHaveLength(1);
    expect(result.error).toBeInstanceOf(KubeError);
    expect(result.error).toMatchObject({ code: 0, verb: 'watch' });
    expect(result.error?.message).toContain(`the watch on namespace "preview-42" at ${url} was interrupted`);
    await kube.close();
  });

  test('the server ending the stream (timeoutSeconds) resolves done without error; close() stops running watches', async () => {
    onRequest = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        line({
          type: 'BOOKMARK',
          object: { kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: '7' } },
        }),
      );
    };
    const { kube } = testKube({}, url);
    const events: NamespaceEvent[] = [];
    const h1 = await kube.watchNamespace('preview-42', '1234', (e) => events.push(e));
    await expect(h1.done).resolves.toEqual({});
    expect(events).toEqual([{ type: 'BOOKMARK', resourceVersion: '7' }]);

    onRequest = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('\n');
    };
    const h2 = await kube.watchNamespace('preview-42', '1234', () => undefined);
    await kube.close();
    await expect(h2.done).resolves.toEqual({});
  });
});
