import net from 'node:net';
import nock from 'nock';
import { KubeError } from '../../src/kube/port.js';
import { createKube } from '../../src/kube/client.js';
import {
  api,
  JSON_HEADERS,
  SERVER,
  status,
  terminatingNamespace,
  testKube,
  testKubeConfig,
  TOKEN,
} from './fixtures.js';

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('namespaces', () => {
  test('getNamespace maps the object and sends the bearer token', async () => {
    const { kube } = testKube({ userAgent: 'namespace-teardown/test' });
    const scope = api()
      .get('/api/v1/namespaces/preview-42')
      .matchHeader('authorization', `Bearer ${TOKEN}`)
      .matchHeader('user-agent', 'namespace-teardown/test')
      .reply(200, terminatingNamespace(), JSON_HEADERS);
    const ns = await kube.getNamespace('preview-42');
    expect(ns).toEqual({
      name: 'preview-42',
      uid: '6a1f8c2e-0b7d-4c1e-9d3a-5f2e8b7c9a10',
      resourceVersion: '1234',
      creationTimestamp: '2026-11-02T10:00:00Z',
      deletionTimestamp: '2026-11-02T10:05:00Z',
      phase: 'Terminating',
      labels: { 'kubernetes.io/metadata.name': 'preview-42', preview: 'true' },
      metadataFinalizers: ['example.com/hold'],
      specFinalizers: ['kubernetes'],
      conditions: [
        expect.objectContaining({
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'True',
          reason: 'DiscoveryFailed',
        }),
      ],
    });
    scope.done();
    expect(kube.cost().requests).toBe(1);
    expect(kube.cost().bytes).toBe(Buffer.byteLength(JSON.stringify(terminatingNamespace())));
  });

  test('getNamespace: 404 → undefined', async () => {
    const { kube } = testKube();
    api()
      .get('/api/v1/namespaces/missing')
      .reply(
        404,
        status(404, 'NotFound', 'namespaces "missing" not found', { name: 'missing', kind: 'namespaces' }),
        JSON_HEADERS,
      );
    await expect(kube.getNamespace('missing')).resolves.toBeUndefined();
  });

  test('listNamespaces passes the label selector and follows continue tokens', async () => {
    const { kube } = testKube();
    api()
      .get('/api/v1/namespaces')
      .query({ labelSelector: 'preview=true', limit: '500' })
      .reply(
        200,
        {
          kind: 'NamespaceList',
          apiVersion: 'v1',
          metadata: { resourceVersion: '9', continue: 'tok1' },
          items: [terminatingNamespace('a')],
        },
        JSON_HEADERS,
      )
      .get('/api/v1/namespaces')
      .query({ labelSelector: 'preview=true', limit: '500', continue: 'tok1' })
      .reply(
        200,
        {
          kind: 'NamespaceList',
          apiVersion: 'v1',
          metadata: { resourceVersion: '9' },
          items: [terminatingNamespace('b')],
        },
        JSON_HEADERS,
      );
    const list = await kube.listNamespaces('preview=true');
    expect(list.map((n) => n.name)).toEqual(['a', 'b']);
  });

  test('deleteNamespace sends Background propagation and the UID precondition in a DeleteOptions body', async () => {
    const { kube } = testKube();
    let body: unknown;
    api()
      .delete('/api/v1/namespaces/preview-42', (b) => {
        body = b;
        return true;
      })
      .matchHeader('content-type', 'application/json')
      .reply(200, terminatingNamespace(), JSON_HEADERS);
    await expect(kube.deleteNamespace('preview-42', { uid: 'u-1' })).resolves.toMatchObject({
      removed: false,
      answer: { meta: { deletionTimestamp: '2026-11-02T10:05:00Z' }, specFinalizers: ['kubernetes'] },
    });
    expect(body).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      preconditions: { uid: 'u-1' },
    });
  });

  test('deleteNamespace: 404 → gone; 403 keeps the server message', async () => {
    const { kube } = testKube();
    api()
      .delete('/api/v1/namespaces/x')
      .reply(404, status(404, 'NotFound', 'namespaces "x" not found'), JSON_HEADERS)
      .delete('/api/v1/namespaces/default')
      .reply(
        403,
        status(403, 'Forbidden', 'namespaces "default" is forbidden: this namespace may not be deleted'),
        JSON_HEADERS,
      );
    await expect(kube.deleteNamespace('x')).resolves.toBe('gone');
    const err = await kube.deleteNamespace('default').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect(err).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      verb: 'delete',
      resource: 'namespaces',
      message: 'namespaces "default" is forbidden: this namespace may not be deleted',
    });
  });

  test('RBAC 403 message names verb and resource; DELETE is not retried on 5xx', async () => {
    const { kube } = testKube();
    const msg =
      'namespaces "x" is forbidden: User "system:serviceaccount:ci:teardown" cannot delete resource "namespaces" in API group "" in the namespace "x"';
    api()
      .delete('/api/v1/namespaces/x')
      .reply(403, status(403, 'Forbidden', msg, { name: 'x', kind: 'namespaces' }), JSON_HEADERS)
      .delete('/api/v1/namespaces/y')
      .once()
      .reply(
        500,
        status(500, 'InternalError', 'Internal error occurred: etcdserver: request timed out'),
        JSON_HEADERS,
      );
    await expect(kube.deleteNamespace('x')).rejects.toThrow(msg);
    await expect(kube.deleteNamespace('y')).rejects.toMatchObject({ code: 500, reason: 'InternalError' });
    expect(kube.cost().requests).toBe(2);
  });
});

describe('errors and retries', () => {
  test('plain-text 503 (aggregator proxy) becomes a KubeError without a parse crash, after retries', async () => {
    const { kube, waits } = testKube();
    api().get('/apis/metrics.k8s.io/v1beta1/namespaces/x/pods').times(3).reply(503, 'service unavailable\n', {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    const err = await kube
      .listMetadata({ group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods' }, { namespace: 'x' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect(err).toMatchObject({
      code: 503,
      reason: 'ServiceUnavailable',
      message: 'the server is currently unable to handle the request (list pods.metrics.k8s.io)',
    });
    expect(waits).toHaveLength(2);
    expect(kube.cost().requests).toBe(3);
  });

  test('a 5xx on GET is retried and then succeeds', async () => {
    const { kube } = testKube();
    api()
      .get('/api/v1/namespaces/a')
      .reply(
        500,
        status(500, 'InternalError', 'Internal error occurred: etcdserver: leader changed'),
        JSON_HEADERS,
      )
      .get('/api/v1/namespaces/a')
      .reply(200, terminatingNamespace('a'), JSON_HEADERS);
    await expect(kube.getNamespace('a')).resolves.toMatchObject({ name: 'a' });
  });

  test('429 honours Retry-After (seconds), also for writes', async () => {
    const { kube, waits } = testKube();
    api()
      .patch('/api/v1/namespaces/x')
      .reply(429, 'Too many requests, please try again later.\n', {
        'Content-Type': 'text/plain',
        'Retry-After': '1',
      })
      .patch('/api/v1/namespaces/x')
      .reply(
        429,
        {
          ...status(429, 'TooManyRequests', 'storage is (re)initializing'),
          details: { retryAfterSeconds: 2 },
        },
        JSON_HEADERS,
      )
      .patch('/api/v1/namespaces/x')
      .reply(200, terminatingNamespace('x'), JSON_HEADERS);
    await expect(
      kube.patchFinalizers(
        { group: '', version: 'v1', resource: 'namespaces' },
        undefined,
        'x',
        { uid: 'u', resourceVersion: '1' },
        [],
      ),
    ).resolves.toMatchObject({ meta: { name: 'x', finalizers: ['example.com/hold'] } });
    expect(waits).toEqual([1000, 2000]);
  });

  test.each([
    ['without a cancellation signal', undefined],
    ['with one', new AbortController().signal],
  ])('the retry after a 429 is not sent before the wait has ended, %s', async (_, signal) => {
    let wake = (): void => undefined;
    const kube = createKube(testKubeConfig(), {
      signal,
      sleep: () => new Promise<void>((resolve) => (wake = resolve)),
    });
    const scope = api()
      .get('/api/v1/namespaces/x')
      .reply(429, 'Too many requests, please try again later.\n', { 'Retry-After': '1' })
      .get('/api/v1/namespaces/x')
      .reply(200, terminatingNamespace('x'), JSON_HEADERS);
    const got = kube.getNamespace('x');
    await new Promise((r) => setTimeout(r, 50));
    // Still waiting: one request so far.
    expect(kube.cost().requests).toBe(1);
    wake();
    await expect(got).resolves.toMatchObject({ name: 'x' });
    expect(kube.cost().requests).toBe(2);
    scope.done();
  });

  test('429 Retry-After is capped and retried at most throttle.maxRetries times', async () => {
    const { kube, waits } = testKube({ throttle: { maxRetries: 2, maxWaitMs: 50 } });
    api().get('/api/v1/namespaces/x').times(3).reply(429, 'Too many requests, please try again later.\n', {
      'Content-Type': 'text/plain',
      'Retry-After': '600',
    });
    await expect(kube.getNamespace('x')).rejects.toMatchObject({ code: 429, reason: 'TooManyRequests' });
    expect(waits).toEqual([50, 50]);
  });

  test('ECONNREFUSED ends in one clear error naming the server and the code', async () => {
    const port = await closedPort();
    nock.enableNetConnect(`127.0.0.1:${port}`);
    try {
      const server = `https://127.0.0.1:${port}`;
      const { kube, waits } = testKube({}, server);
      const err = await kube.getNamespace('x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(KubeError);
      const k = err as KubeError;
      expect(k.message).toContain(`cannot reach the Kubernetes API server at ${server}`);
      expect(k.message).toContain('ECONNREFUSED');
      expect(k.message).toContain('after 3 attempts');
      expect(k).toMatchObject({ code: 0, reason: 'ECONNREFUSED', verb: 'get', resource: 'namespaces' });
      expect(waits).toHaveLength(2);
    } finally {
      nock.disableNetConnect();
    }
  });

  test('ECONNRESET on GET is retried; on a write it is not', async () => {
    const { kube } = testKube();
    const reset = () => Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    api()
      .get('/api/v1/namespaces/a')
      .replyWithError(reset())
      .get('/api/v1/namespaces/a')
      .reply(200, terminatingNamespace('a'), JSON_HEADERS)
      .put('/api/v1/namespaces/a/finalize')
      .replyWithError(reset());
    await expect(kube.getNamespace('a')).resolves.toMatchObject({ name: 'a' });
    api().get('/api/v1/namespaces/a').reply(200, terminatingNamespace('a'), JSON_HEADERS);
    const err = await kube
      .finalizeNamespace('a', { uid: '6a1f8c2e-0b7d-4c1e-9d3a-5f2e8b7c9a10', resourceVersion: '1234' }, [])
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 0, reason: 'ECONNRESET' });
    expect((err as Error).message).toContain(SERVER);
    expect(kube.cost().requests).toBe(4);
  });
});

describe('metadata lists and raw reads', () => {
  test('listMetadata sends the PartialObjectMetadataList Accept header and passes pagination through', async () => {
    const { kube } = testKube();
    const scope = api()
      .get('/apis/kiali.io/v1alpha1/namespaces/x/kialis')
      .query({ limit: '2', continue: 'abc', labelSelector: 'app=k' })
      .matchHeader('accept', (v) =>
        (v ?? '').startsWith('application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1'),
      )
      .reply(
        200,
        {
          kind: 'PartialObjectMetadataList',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: '9', continue: 'def' },
          items: [
            {
              kind: 'PartialObjectMetadata',
              apiVersion: 'meta.k8s.io/v1',
              metadata: {
                name: 'k',
                namespace: 'x',
                uid: 'u-k',
                resourceVersion: '77',
                deletionTimestamp: '2026-11-02T10:05:10Z',
                deletionGracePeriodSeconds: 0,
                finalizers: ['kiali.io/finalizer'],
                ownerReferences: [
                  { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-d', controller: true },
                ],
              },
            },
          ],
        },
        JSON_HEADERS,
      );
    const page = await kube.listMetadata(
      { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' },
      { namespace: 'x', limit: 2, continue: 'abc', labelSelector: 'app=k' },
    );
    scope.done();
    expect(page).toEqual({
      continue: 'def',
      resourceVersion: '9',
      items: [
        {
          name: 'k',
          namespace: 'x',
          uid: 'u-k',
          resourceVersion: '77',
          deletionTimestamp: '2026-11-02T10:05:10Z',
          deletionGracePeriodSeconds: 0,
          finalizers: ['kiali.io/finalizer'],
          ownerReferences: [
            { apiVersion: 'apps/v1', kind: 'Deployment', name: 'd', uid: 'u-d', controller: true },
          ],
          labels: {},
        },
      ],
    });
  });

  test('listMetadata of a core cluster-scoped resource; empty list', async () => {
    const { kube } = testKube();
    api()
      .get('/api/v1/persistentvolumes')
      .reply(
        200,
        {
          kind: 'PartialObjectMetadataList',
          apiVersion: 'meta.k8s.io/v1',
          metadata: { resourceVersion: '9' },
          items: [],
        },
        JSON_HEADERS,
      );
    await expect(
      kube.listMetadata({ group: '', version: 'v1', resource: 'persistentvolumes' }, {}),
    ).resolves.toEqual({ items: [], resourceVersion: '9' });
  });

  test('listRaw keeps a query in the path and adds limit/continue; getRaw 404 → undefined', async () => {
    const { kube } = testKube();
    api()
      .get('/api/v1/namespaces/x/pods')
      .query({ fieldSelector: 'status.phase!=Succeeded', limit: '100', continue: 'c1' })
      .reply(
        200,
        {
          kind: 'PodList',
          apiVersion: 'v1',
          metadata: { continue: 'c2' },
          items: [{ metadata: { name: 'p' } }],
        },
        JSON_HEADERS,
      )
      .get('/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io')
      .reply(
        404,
        status(404, 'NotFound', 'apiservices.apiregistration.k8s.io "v1beta1.metrics.k8s.io" not found'),
        JSON_HEADERS,
      );
    await expect(
      kube.listRaw('/api/v1/namespaces/x/pods?fieldSelector=status.phase%21%3DSucceeded', {
        limit: 100,
        continue: 'c1',
      }),
    ).resolves.toEqual({ items: [{ metadata: { name: 'p' } }], continue: 'c2' });
    await expect(
      kube.getRaw('/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io'),
    ).resolves.toBeUndefined();
  });

  test('getRaw error names the resource with its group', async () => {
    const { kube } = testKube();
    api()
      .get('/apis/apiregistration.k8s.io/v1/apiservices')
      .reply(401, status(401, 'Unauthorized', 'Unauthorized'), JSON_HEADERS);
    await expect(kube.getRaw('/apis/apiregistration.k8s.io/v1/apiservices')).rejects.toMatchObject({
      code: 401,
      message: 'Unauthorized',
      resource: 'apiservices.apiregistration.k8s.io',
    });
  });
});

describe('credentials', () => {
  test('cached credentials rejected with 401 are made again once, then the request succeeds', async () => {
    const { kube } = testKube();
    const list = { kind: 'APIServiceList', apiVersion: 'apiregistration.k8s.io/v1', metadata: {}, items: [] };
    const path = '/apis/apiregistration.k8s.io/v1/apiservices';
    api().get(path).reply(200, list, JSON_HEADERS);
    api()
      .get(path)
      .reply(401, status(401, 'Unauthorized', 'Unauthorized'), JSON_HEADERS);
    api().get(path).reply(200, list, JSON_HEADERS);
    await kube.listRaw(path);
    await expect(kube.listRaw(path)).resolves.toEqual({ items: [] });
    expect(kube.cost().requests).toBe(3);
  });
});

describe('guarded writes', () => {
  const kialis = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };

  test('patchFinalizers sends a merge patch with uid and resourceVersion', async () => {
    const { kube } = testKube();
    let body: unknown;
    api()
      .patch('/apis/kiali.io/v1alpha1/namespaces/x/kialis/k', (b) => {
        body = b;
        return true;
      })
      .matchHeader('content-type', 'application/merge-patch+json')
      .reply(
        200,
        {
          kind: 'Kiali',
          apiVersion: 'kiali.io/v1alpha1',
          metadata: { name: 'k', uid: 'u-k', resourceVersion: '78' },
        },
        JSON_HEADERS,
      );
    await expect(
      kube.patchFinalizers(kialis, 'x', 'k', { uid: 'u-k', resourceVersion: '77' }, []),
    ).resolves.toMatchObject({ meta: { name: 'k', resourceVersion: '78', finalizers: [] } });
    expect(body).toEqual({ metadata: { uid: 'u-k', resourceVersion: '77', finalizers: [] } });
  });

  test('a write returns what its answer shows: the finalizers the server kept, their managers, or an error', async () => {
    const { kube } = testKube();
    const managedFields = [
      {
        manager: 'kiali-operator',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:metadata': { 'f:finalizers': { '.': {}, 'v:"kiali.io/finalizer"': {} } } },
      },
      {
        manager: 'namespace-teardown',
        operation: 'Update',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': {} },
      },
    ];
    const kept = {
      kind: 'Kiali',
      apiVersion: 'kiali.io/v1alpha1',
      metadata: {
        name: 'k',
        uid: 'u-k',
        resourceVersion: '77',
        finalizers: ['kiali.io/finalizer'],
        managedFields,
      },
    };
    api()
      .patch('/apis/kiali.io/v1alpha1/namespaces/x/kialis/k')
      .reply(200, kept, JSON_HEADERS)
      .patch('/apis/kiali.io/v1alpha1/namespaces/x/kialis/k')
      .reply(200, { kind: 'Status', status: 'Success' }, JSON_HEADERS);
    const answer = await kube.patchFinalizers(kialis, 'x', 'k', { uid: 'u-k', resourceVersion: '77' }, []);
    // Sent [], answered with the finalizer: the port says what the server answered, never what was sent.
    expect(answer).toMatchObject({
      meta: {
        finalizers: ['kiali.io/finalizer'],
        resourceVersion: '77',
        finalizerManagers: ['kiali-operator'],
      },
    });
    await expect(
      kube.patchFinalizers(kialis, 'x', 'k', { uid: 'u-k', resourceVersion: '77' }, []),
    ).rejects.toMatchObject({
      reason: 'UnreadableAnswer',
      message: expect.stringMatching(/what the write did is unknown/),
    });
  });

  test('patchFinalizers: 404 → gone, 409 → KubeError 409 (not retried)', async () => {
    const { kube } = testKube();
    const conflict =
      'Operation cannot be fulfilled on kialis.kiali.io "k": the object has been modified; please apply your changes to the latest version and try again';
    api()
      .patch('/apis/kiali.io/v1alpha1/namespaces/x/kialis/gone')
      .reply(404, status(404, 'NotFound', 'kialis.kiali.io "gone" not found'), JSON_HEADERS)
      .patch('/apis/kiali.io/v1alpha1/namespaces/x/kialis/k')
      .reply(409, status(409, 'Conflict', conflict), JSON_HEADERS);
    await expect(
      kube.patchFinalizers(kialis, 'x', 'gone', { uid: 'u', resourceVersion: '1' }, []),
    ).resolves.toBe('gone');
    await expect(
      kube.patchFinalizers(kialis, 'x', 'k', { uid: 'u', resourceVersion: '1' }, []),
    ).rejects.toMatchObject({
      code: 409,
      reason: 'Conflict',
      verb: 'patch',
      resource: 'kialis.kiali.io',
      message: conflict,
    });
    expect(kube.cost().requests).toBe(2);
  });

  test('finalizeNamespace GETs, checks the uid and PUTs the whole object with the guard RV', async () => {
    const { kube } = testKube();
    const current = terminatingNamespace('preview-42', '1300');
    let body: Record<string, unknown> | undefined;
    api()
      .get('/api/v1/namespaces/preview-42')
      .reply(200, current, JSON_HEADERS)
      .put('/api/v1/namespaces/preview-42/finalize', (b) => {
        body = b as Record<string, unknown>;
        return true;
      })
      .reply(200, { ...current, spec: { finalizers: [] } }, JSON_HEADERS);
    await expect(
      kube.finalizeNamespace('preview-42', { uid: current.metadata.uid, resourceVersion: '1234' }, []),
    ).resolves.toMatchObject({ specFinalizers: [], meta: { name: 'preview-42' } });
    expect(body).toEqual({
      ...current,
      metadata: { ...current.metadata, resourceVersion: '1234' },
      spec: { finalizers: [] },
    });
  });

  test('finalizeNamespace: uid changed → 409; missing → gone; stale RV → 409 from the server', async () => {
    const { kube } = testKube();
    const current = terminatingNamespace('n', '5');
    api()
      .get('/api/v1/namespaces/n')
      .reply(200, current, JSON_HEADERS)
      .get('/api/v1/namespaces/missing')
      .reply(404, status(404, 'NotFound', 'namespaces "missing" not found'), JSON_HEADERS)
      .get('/api/v1/namespaces/n')
      .reply(200, current, JSON_HEADERS)
      .put('/api/v1/namespaces/n/finalize')
      .reply(
        409,
        status(
          409,
          'Conflict',
          'Operation cannot be fulfilled on namespaces "n": the object has been modified; please apply your changes to the latest version and try again',
        ),
        JSON_HEADERS,
      );
    await expect(
      kube.finalizeNamespace('n', { uid: 'other', resourceVersion: '5' }, []),
    ).rejects.toMatchObject({
      code: 409,
      message: expect.stringContaining('uid changed'),
    });
    await expect(kube.finalizeNamespace('missing', { uid: 'u', resourceVersion: '1' }, [])).resolves.toBe(
      'gone',
    );
    await expect(
      kube.finalizeNamespace('n', { uid: current.metadata.uid, resourceVersion: '4' }, []),
    ).rejects.toMatchObject({
      code: 409,
      reason: 'Conflict',
      resource: 'namespaces/finalize',
      verb: 'update',
    });
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
