/** Discovery, APIService status, metadata-only lists, Table and pagination (§6, §7, §9; checklist 23-26). */
import { type StartedCluster, FakeCluster, GVR, metricsApiDown } from './index.js';
import { type Loose, raw, waitFor } from './testkit.js';
import { clients } from './clients.js';

const AGG = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const META_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';

let cluster: FakeCluster;
let s: StartedCluster;

beforeAll(async () => {
  cluster = metricsApiDown({ controller: { queueDelayMs: 600_000 } }).cluster;
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
  s = await cluster.start();
});
afterAll(() => cluster.stop());

test('23: legacy discovery documents', async () => {
  const api = await raw(s, 'GET', '/api');
  expect(api.text).toBe(
    `{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"${new URL(s.url).host}"}]}\n`,
  );
  const v1 = (await raw(s, 'GET', '/api/v1')).json;
  expect(v1.apiVersion).toBeUndefined();
  const byName = (n: string): Loose => v1.resources.find((r: Loose) => r.name === n);
  expect(byName('namespaces')).toEqual({
    name: 'namespaces',
    singularName: 'namespace',
    namespaced: false,
    kind: 'Namespace',
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    // As the real 1.20 server sends it (checked by test/real/fidelity.test.ts).
    storageVersionHash: 'Q3oi5N2YM8M=',
  });
  expect(byName('namespaces/finalize')).toEqual({
    name: 'namespaces/finalize',
    singularName: '',
    namespaced: false,
    kind: 'Namespace',
    verbs: ['update'],
  });
  for (const r of v1.resources) expect([...r.verbs].sort()).toEqual(r.verbs);
  const apis = (await raw(s, 'GET', '/apis')).json;
  const groups = apis.groups.map((g: Loose) => g.name);
  expect(groups).toEqual(expect.arrayContaining(['apps', 'kiali.io', 'metrics.k8s.io']));
  const kiali = (await raw(s, 'GET', '/apis/kiali.io/v1alpha1')).json;
  expect(kiali.apiVersion).toBe('v1');
  expect(kiali.resources[0]).toEqual({
    name: 'kialis',
    singularName: 'kiali',
    namespaced: true,
    kind: 'Kiali',
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    storageVersionHash: 'NQ1CFN2sm58=',
  });
  expect((await raw(s, 'GET', '/apis/apps')).json.preferredVersion).toEqual({
    groupVersion: 'apps/v1',
    version: 'v1',
  });
});

test('24: aggregated discovery: content type, ETag, Vary, 304, a down APIService is Stale', async () => {
  const accept = `${AGG},application/json`;
  const r = await raw(s, 'GET', '/apis', { headers: { Accept: accept } });
  expect(r.status).toBe(200);
  expect(r.headers['content-type']).toBe(AGG);
  expect(r.headers.etag).toMatch(/^"[0-9A-F]{128}"$/);
  expect(r.headers.vary).toBe('Accept');
  expect(r.headers['cache-control']).toBe('public');
  const items = r.json.items as Loose[];
  expect(items.find((i) => i.metadata.name === 'metrics.k8s.io')?.versions).toEqual([
    { version: 'v1beta1', freshness: 'Stale' },
  ]);
  const kiali = items.find((i) => i.metadata.name === 'kiali.io')?.versions[0];
  expect(kiali.freshness).toBe('Current');
  expect(kiali.resources[0]).toMatchObject({
    resource: 'kialis',
    scope: 'Namespaced',
    responseKind: { group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali' },
  });
  const again = await raw(s, 'GET', '/apis', {
    headers: { Accept: accept, 'If-None-Match': String(r.headers.etag) },
  });
  expect(again.status).toBe(304);
  expect(again.text).toBe('');
  const core = await raw(s, 'GET', '/api', { headers: { Accept: accept } });
  const ns = core.json.items[0].versions[0].resources.find((x: Loose) => x.resource === 'namespaces');
  expect(core.json.items[0].metadata).toEqual({});
  expect(ns.subresources).toContainEqual({
    subresource: 'finalize',
    responseKind: { group: '', version: 'v1', kind: 'Namespace' },
    verbs: ['update'],
  });
  expect(ns.verbs).not.toContain('deletecollection');
  expect((await raw(s, 'GET', '/apis')).json.kind).toBe('APIGroupList');
});

test('24: up to 1.33 aggregated items carry creationTimestamp null', async () => {
  const old = new FakeCluster({ version: '1.33' });
  const o = await old.start();
  try {
    const r = await raw(o, 'GET', '/apis', { headers: { Accept: AGG } });
    expect(r.json.items[0].metadata).toEqual({
      name: 'admissionregistration.k8s.io',
      creationTimestamp: null,
    });
  } finally {
    await old.stop();
  }
});

test('25: anything under a down APIService group-version is 503 text/plain', async () => {
  for (const path of ['/apis/metrics.k8s.io/v1beta1', '/apis/metrics.k8s.io/v1beta1/namespaces/x/pods']) {
    const r = await raw(s, 'GET', path);
    expect(r.status).toBe(503);
    expect(r.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.text).toBe('service unavailable\n');
  }
});

test('APIService conditions follow the aggregator messages', async () => {
  const { core } = clients(s);
  const svc = cluster.get(GVR.apiservices, undefined, 'v1beta1.metrics.k8s.io');
  const avail = svc.status.conditions.find((c: Loose) => c.type === 'Available');
  expect(avail).toMatchObject({
    status: 'False',
    reason: 'ServiceNotFound',
    message: 'service/metrics-server in "kube-system" is not present',
  });
  expect(cluster.get(GVR.apiservices, undefined, 'v1alpha1.kiali.io').status.conditions[0]).toMatchObject({
    status: 'True',
    reason: 'Local',
    message: 'Local APIServices are always available',
  });
  cluster.addService('kube-system', 'metrics-server', 0);
  const missing = await waitFor(() => {
    const c = cluster.get(GVR.apiservices, undefined, 'v1beta1.metrics.k8s.io').status.conditions[0];
    return c.reason === 'MissingEndpoints' ? c : undefined;
  });
  expect(missing.message).toBe(
    'endpointslices for service/metrics-server in "kube-system" have no addresses with port name "https"',
  );
  expect(missing.lastTransitionTime).toBe(avail.lastTransitionTime);
  expect((await core.listNamespace()).items.length).toBeGreaterThan(0);
  const up = new FakeCluster({ version: '1.33' });
  up.addAPIService({
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { namespace: 'kube-system', name: 'metrics-server' },
    available: true,
  });
  expect(up.get(GVR.apiservices, undefined, 'v1beta1.metrics.k8s.io').status.conditions[0]).toMatchObject({
    status: 'True',
    reason: 'Passed',
    message: 'all checks passed',
  });
  up.addAPIService({
    group: 'custom.metrics.k8s.io',
    version: 'v1beta2',
    service: { namespace: 'monitoring', name: 'adapter' },
    available: { reason: 'FailedDiscoveryCheck', message: 'boom' },
  });
  expect(
    up.get(GVR.apiservices, undefined, 'v1beta2.custom.metrics.k8s.io').status.conditions[0],
  ).toMatchObject({ status: 'False', reason: 'FailedDiscoveryCheck', message: 'boom' });
});

test('26: metadata-only lists carry kind/apiVersion per item and items:[] when empty', async () => {
  cluster.addNamespace('meta1');
  cluster.addObject(GVR.kialis, { namespace: 'meta1', name: 'k', finalizers: ['kiali.io/finalizer'] });
  const r = await raw(s, 'GET', '/apis/kiali.io/v1alpha1/namespaces/meta1/kialis', {
    headers: { Accept: META_LIST },
  });
  expect(r.headers['content-type']).toBe('application/json');
  expect(r.json.kind).toBe('PartialObjectMetadataList');
  expect(r.json.apiVersion).toBe('meta.k8s.io/v1');
  expect(r.json.items).toHaveLength(1);
  expect(r.json.items[0].kind).toBe('PartialObjectMetadata');
  expect(r.json.items[0].apiVersion).toBe('meta.k8s.io/v1');
  expect(r.json.items[0].metadata).toMatchObject({
    name: 'k',
    namespace: 'meta1',
    finalizers: ['kiali.io/finalizer'],
  });
  expect(r.json.items[0].spec).toBeUndefined();
  const empty = await raw(s, 'GET', '/api/v1/namespaces/meta1/configmaps', {
    headers: { Accept: META_LIST },
  });
  expect(empty.text).toBe(
    `{"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{"resourceVersion":"${empty.json.metadata.resourceVersion}"},"items":[]}\n`,
  );
  const one = await raw(s, 'GET', '/api/v1/namespaces/meta1', { headers: { Accept: META_LIST } });
  expect(one.status).toBe(406);
  expect(one.json.message).toBe(
    'you requested PartialObjectMetadataList, but the requested object is not a list (*core.Namespace)',
  );
  const single = await raw(s, 'GET', '/api/v1/namespaces/meta1', {
    headers: { Accept: 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1' },
  });
  expect(single.json.kind).toBe('PartialObjectMetadata');
  expect((await raw(s, 'GET', '/api/v1/namespaces', { headers: { Accept: 'application/xml' } })).status).toBe(
    406,
  );
});

test('Table output and pagination with limit/continue', async () => {
  for (let i = 0; i < 5; i++) cluster.addNamespace(`page-${i}`, { labels: { paged: 'yes' } });
  const t = await raw(s, 'GET', '/api/v1/namespaces?labelSelector=paged%3Dyes', {
    headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' },
  });
  expect(t.json.kind).toBe('Table');
  expect(t.json.columnDefinitions.map((c: Loose) => c.name)).toEqual(['Name', 'Status', 'Age']);
  expect(t.json.rows[0].cells.slice(0, 2)).toEqual(['page-0', 'Active']);
  expect(t.json.rows[0].object.kind).toBe('PartialObjectMetadata');
  const p1 = (await raw(s, 'GET', '/api/v1/namespaces?limit=2&labelSelector=paged%3Dyes')).json;
  expect(p1.items.map((i: Loose) => i.metadata.name)).toEqual(['page-0', 'page-1']);
  expect(p1.metadata.continue).toBeTruthy();
  const p2 = (
    await raw(
      s,
      'GET',
      `/api/v1/namespaces?limit=2&labelSelector=paged%3Dyes&continue=${p1.metadata.continue}`,
    )
  ).json;
  expect(p2.items.map((i: Loose) => i.metadata.name)).toEqual(['page-2', 'page-3']);
  expect(p2.metadata.resourceVersion).toBe(p1.metadata.resourceVersion);
  const p3 = (
    await raw(
      s,
      'GET',
      `/api/v1/namespaces?limit=2&labelSelector=paged%3Dyes&continue=${p2.metadata.continue}`,
    )
  ).json;
  expect(p3.items.map((i: Loose) => i.metadata.name)).toEqual(['page-4']);
  expect(p3.metadata.continue).toBeUndefined();
  const unfiltered = (await raw(s, 'GET', '/api/v1/namespaces?limit=1')).json;
  expect(unfiltered.metadata.remainingItemCount).toBeGreaterThan(0);
  expect((await raw(s, 'GET', '/api/v1/namespaces?limit=1&continue=zzz')).status).toBe(400);
});

test('/version, /openapi and unknown paths', async () => {
  expect((await raw(s, 'GET', '/version')).json).toMatchObject({
    major: '1',
    minor: '34',
    gitVersion: 'v1.34.1',
  });
  const openapi = await raw(s, 'GET', '/openapi/v2');
  expect(openapi.status).toBe(404);
  expect(openapi.json.message).toBe('the server could not find the requested resource');
  expect((await raw(s, 'GET', '/api/v1/widgets')).status).toBe(404);
  expect((await raw(s, 'GET', '/apis/nope.io/v1')).status).toBe(404);
});
