import nock from 'nock';
import { api, JSON_HEADERS, testKube } from './fixtures.js';

const AGG_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';
const AGG_HEADERS = {
  'Content-Type': 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  Vary: 'Accept',
  'Cache-Control': 'public',
  ETag: '"4e1c9a0b7d"',
};

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

const kind = (group: string, version: string, k: string) => ({ group, version, kind: k });

/** Aggregated /api as kube-apiserver 1.33 serves it (core group: empty name, creationTimestamp null). */
const aggregatedCore = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { creationTimestamp: null },
      versions: [
        {
          version: 'v1',
          resources: [
            {
              resource: 'namespaces',
              responseKind: kind('', 'v1', 'Namespace'),
              scope: 'Cluster',
              singularResource: 'namespace',
              verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
              shortNames: ['ns'],
              subresources: [
                { subresource: 'finalize', responseKind: kind('', 'v1', 'Namespace'), verbs: ['update'] },
                {
                  subresource: 'status',
                  responseKind: kind('', 'v1', 'Namespace'),
                  verbs: ['get', 'patch', 'update'],
                },
              ],
            },
            {
              resource: 'pods',
              responseKind: kind('', 'v1', 'Pod'),
              scope: 'Namespaced',
              singularResource: 'pod',
              verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
            },
          ],
          freshness: 'Current',
        },
      ],
    },
  ],
};

const aggregatedGroups = {
  kind: 'APIGroupDiscoveryList',
  apiVersion: 'apidiscovery.k8s.io/v2',
  metadata: {},
  items: [
    {
      metadata: { name: 'autoscaling', creationTimestamp: null },
      versions: [
        {
          version: 'v2',
          resources: [
            {
              resource: 'horizontalpodautoscalers',
              responseKind: kind('autoscaling', 'v2', 'HorizontalPodAutoscaler'),
              scope: 'Namespaced',
              verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
            },
          ],
          freshness: 'Current',
        },
        {
          version: 'v1',
          resources: [
            {
              resource: 'horizontalpodautoscalers',
              responseKind: kind('autoscaling', 'v1', 'HorizontalPodAutoscaler'),
              scope: 'Namespaced',
              verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
            },
          ],
          freshness: 'Current',
        },
      ],
    },
    {
      metadata: { name: 'metrics.k8s.io', creationTimestamp: null },
      versions: [{ version: 'v1beta1', freshness: 'Stale' }],
    },
    {
      metadata: { name: 'kiali.io', creationTimestamp: null },
      versions: [
        {
          version: 'v1alpha1',
          resources: [
            {
              resource: 'kialis',
              responseKind: kind('kiali.io', 'v1alpha1', 'Kiali'),
              scope: 'Namespaced',
              verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
            },
          ],
          freshness: 'Current',
        },
      ],
    },
  ],
};

test('aggregated discovery: two requests, preferred versions, subresources skipped, Stale GV reported as failed', async () => {
  const { kube } = testKube();
  const scope = api()
    .get('/api')
    .matchHeader('accept', AGG_ACCEPT)
    .reply(200, aggregatedCore, AGG_HEADERS)
    .get('/apis')
    .matchHeader('accept', AGG_ACCEPT)
    .reply(200, aggregatedGroups, AGG_HEADERS);
  const d = await kube.discover();
  scope.done();
  expect(d.mode).toBe('aggregated');
  expect(d.failed).toEqual([
    { groupVersion: 'metrics.k8s.io/v1beta1', error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1' },
  ]);
  expect(d.resources).toEqual([
    {
      group: '',
      version: 'v1',
      resource: 'namespaces',
      kind: 'Namespace',
      namespaced: false,
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    },
    expect.objectContaining({ group: '', version: 'v1', resource: 'pods', kind: 'Pod', namespaced: true }),
    expect.objectContaining({ group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' }),
    expect.objectContaining({
      group: 'kiali.io',
      version: 'v1alpha1',
      resource: 'kialis',
      kind: 'Kiali',
      namespaced: true,
    }),
  ]);
  expect(kube.cost().requests).toBe(2);
});

test('aggregated discovery without the core group: one request, /api never asked for', async () => {
  const { kube } = testKube();
  const scope = api()
    .get('/apis')
    .matchHeader('accept', AGG_ACCEPT)
    .reply(200, aggregatedGroups, AGG_HEADERS);
  const d = await kube.discover({ core: false });
  scope.done();
  expect(d.mode).toBe('aggregated');
  expect(d.resources.some((r) => r.group === '')).toBe(false);
  expect(d.resources).toContainEqual(expect.objectContaining({ group: 'kiali.io', resource: 'kialis' }));
  expect(kube.cost().requests).toBe(1);
});

test('legacy fallback: /api/v1 + each /apis/g/v; a 503 GV fails without stopping the rest', async () => {
  const { kube } = testKube();
  api()
    .get('/api')
    .reply(
      200,
      {
        kind: 'APIVersions',
        versions: ['v1'],
        serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '172.18.0.2:6443' }],
      },
      JSON_HEADERS,
    )
    .get('/apis')
    .reply(
      200,
      {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: 'apps',
            versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
            preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
          },
          {
            name: 'metrics.k8s.io',
            versions: [{ groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' }],
            preferredVersion: { groupVersion: 'metrics.k8s.io/v1beta1', version: 'v1beta1' },
          },
          {
            name: 'autoscaling',
            versions: [
              { groupVersion: 'autoscaling/v1', version: 'v1' },
              { groupVersion: 'autoscaling/v2', version: 'v2' },
            ],
            preferredVersion: { groupVersion: 'autoscaling/v2', version: 'v2' },
          },
        ],
      },
      JSON_HEADERS,
    )
    .get('/api/v1')
    .reply(
      200,
      {
        kind: 'APIResourceList',
        groupVersion: 'v1',
        resources: [
          {
            name: 'namespaces',
            singularName: 'namespace',
            namespaced: false,
            kind: 'Namespace',
            verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
            shortNames: ['ns'],
          },
          {
            name: 'namespaces/finalize',
            singularName: '',
            namespaced: false,
            kind: 'Namespace',
            verbs: ['update'],
          },
          {
            name: 'pods',
            singularName: 'pod',
            namespaced: true,
            kind: 'Pod',
            verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          },
          { name: 'pods/log', singularName: '', namespaced: true, kind: 'Pod', verbs: ['get'] },
        ],
      },
      JSON_HEADERS,
    )
    .get('/apis/apps/v1')
    .reply(
      200,
      {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'apps/v1',
        resources: [
          {
            name: 'deployments',
            singularName: 'deployment',
            namespaced: true,
            kind: 'Deployment',
            verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
          },
        ],
      },
      JSON_HEADERS,
    )
    .get('/apis/autoscaling/v2')
    .reply(
      200,
      {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'autoscaling/v2',
        resources: [
          {
            name: 'horizontalpodautoscalers',
            namespaced: true,
            kind: 'HorizontalPodAutoscaler',
            verbs: ['list', 'delete'],
          },
        ],
      },
      JSON_HEADERS,
    )
    .get('/apis/autoscaling/v1')
    .reply(
      200,
      {
        kind: 'APIResourceList',
        apiVersion: 'v1',
        groupVersion: 'autoscaling/v1',
        resources: [
          {
            name: 'horizontalpodautoscalers',
            namespaced: true,
            kind: 'HorizontalPodAutoscaler',
            verbs: ['list', 'delete'],
          },
        ],
      },
      JSON_HEADERS,
    )
    .get('/apis/metrics.k8s.io/v1beta1')
    .times(3)
    .reply(503, 'service unavailable\n', {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });

  const d = await kube.discover();
  expect(d.mode).toBe('legacy');
  expect(d.failed).toEqual([
    { groupVersion: 'metrics.k8s.io/v1beta1', error: 'the server is currently unable to handle the request' },
  ]);
  expect(d.resources.map((r) => `${r.group}/${r.version}/${r.resource}`)).toEqual([
    '/v1/namespaces',
    '/v1/pods',
    'apps/v1/deployments',
    'autoscaling/v2/horizontalpodautoscalers',
  ]);
  expect(d.resources[0]).toEqual({
    group: '',
    version: 'v1',
    resource: 'namespaces',
    kind: 'Namespace',
    namespaced: false,
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  });
  // 2 probes, /api/v1, apps, 2 autoscaling, 3 tries of metrics
  expect(kube.cost().requests).toBe(9);
});

test("legacy discovery for named groups only: /apis and those groups' versions, nothing else", async () => {
  const { kube } = testKube();
  const group = (name: string, versions: string[]) => ({
    name,
    versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
    preferredVersion: { groupVersion: `${name}/${versions[0]}`, version: versions[0] },
  });
  const resources = (groupVersion: string, name: string, kind: string) => ({
    kind: 'APIResourceList',
    groupVersion,
    resources: [{ name, singularName: '', namespaced: true, kind, verbs: ['get', 'list'] }],
  });
  // No other request is answered: discovery of apps or metrics.k8s.io would show up in `failed`.
  const scope = api()
    .get('/apis')
    .reply(
      200,
      {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          group('apps', ['v1']),
          group('metrics.k8s.io', ['v1beta1']),
          group('kiali.io', ['v1', 'v1alpha1']),
        ],
      },
      JSON_HEADERS,
    )
    .get('/apis/kiali.io/v1')
    .reply(200, resources('kiali.io/v1', 'kialis', 'Kiali'), JSON_HEADERS)
    .get('/apis/kiali.io/v1alpha1')
    .reply(200, resources('kiali.io/v1alpha1', 'kialis', 'Kiali'), JSON_HEADERS);
  const d = await kube.discover({ core: false, groups: ['kiali.io'] });
  scope.done();
  expect(d).toMatchObject({ mode: 'legacy', failed: [], onlyGroups: ['kiali.io'] });
  expect(d.resources).toEqual([
    expect.objectContaining({ group: 'kiali.io', version: 'v1', resource: 'kialis' }),
  ]);
  expect(kube.cost().requests).toBe(3);
});

test('discovery throws when /apis itself fails', async () => {
  const { kube } = testKube({ retry: { attempts: 1, baseMs: 1 } });
  api().get('/api').reply(200, aggregatedCore, AGG_HEADERS).get('/apis').reply(
    403,
    {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'forbidden: User "system:anonymous" cannot get path "/apis"',
      reason: 'Forbidden',
      details: {},
      code: 403,
    },
    JSON_HEADERS,
  );
  await expect(kube.discover()).rejects.toMatchObject({
    code: 403,
    message: expect.stringContaining('cannot get path "/apis"'),
  });
});
