import { takeSnapshot } from '../../src/diagnosis/snapshot/take.js';
import { KubeError } from '../../src/kube/port.js';
import { RecordingReader } from './fake-reader.js';
import { conditions, meta, namespace, type } from './fixtures.js';
import {
  APISERVICES,
  NS,
  clock,
  discovery,
  localApiService,
  metricsApiService,
  snap,
} from './snapshot-helpers.js';

describe('takeSnapshot: discovery and the namespace scan', () => {
  it('is read-only: only KubeReader list/get/discover calls, never getNamespace or a write', async () => {
    const { kube } = await snap({
      objects: { 'kiali.io/kialis': [meta({ name: 'kiali', finalizers: ['kiali.io/finalizer'] })] },
    });
    const methods = new Set(kube.calls.map((c) => c.method));
    expect([...methods].sort()).toEqual(['discover', 'listMetadata', 'listRaw']);
  });

  it('reads discovery, then the metadata scan, then the cluster reads that depend on it; the APIService list runs beside the scan', async () => {
    const held = meta({ name: 'kiali', namespace: NS, finalizers: ['kiali.io/finalizer'] });
    const { kube } = await snap({ objects: { 'kiali.io/kialis': [held] } });
    // The namespace scan's LISTs; the one metadata list of every CRD is a cluster read that depends on it.
    const isCrds = (c: { args: unknown[] }): boolean =>
      (c.args[0] as { resource?: string }).resource === 'customresourcedefinitions';
    const order = kube.calls.map((c) => (c.method === 'listMetadata' && isCrds(c) ? 'crds' : c.method));
    const raw = (c: { method: string }): boolean => c.method === 'listRaw' || c.method === 'getRaw';
    expect(order.indexOf('discover')).toBeLessThan(order.indexOf('listMetadata'));
    // Not waiting for the scan: asked for before the first LIST.
    const apiServices = kube.calls.findIndex((c) => raw(c) && c.args[0] === APISERVICES);
    expect(apiServices).toBeLessThan(order.indexOf('listMetadata'));
    // What the scan decides (CRDs of finalized types, pods, workloads) is read after its last LIST.
    const dependent = kube.calls.findIndex(
      (c) => (raw(c) && c.args[0] !== APISERVICES) || (c.method === 'listMetadata' && isCrds(c)),
    );
    expect(order.lastIndexOf('listMetadata')).toBeLessThan(dependent);
  });

  it('scans namespaced listable types only, one version each, skipping events and subresources', async () => {
    const { kube, s } = await snap({});
    const listed = kube.of('listMetadata').map((c) => c.args[0]);
    expect(listed).toEqual([
      { group: '', version: 'v1', resource: 'configmaps' },
      { group: '', version: 'v1', resource: 'pods' },
      { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' },
    ]);
    expect(s.discovery.listedTypes).toBe(3);
    for (const c of kube.of('listMetadata')) expect(c.args[1]).toMatchObject({ namespace: NS, limit: 500 });
  });

  it('in a full scan, lists the types the conditions name first, and events when named', async () => {
    const ns = namespace({
      conditions: conditions({
        NamespaceContentRemaining: [
          'SomeResourcesRemain',
          'Some resources are remaining: events. has 1 resource instances, kialis.kiali.io has 1 resource instances',
        ],
      }),
    });
    const { kube } = await snap({}, ns, { concurrency: 1, scan: 'full' });
    const listed = kube
      .of('listMetadata')
      .map((c) => (c.args[0] as { resource: string; group: string }).resource);
    expect(listed.slice(0, 2).sort()).toEqual(['events', 'kialis']);
    expect(listed).toHaveLength(4);
  });

  it('metadata lists are paginated with limit and continue until the end', async () => {
    const many = Array.from({ length: 1203 }, (_, i) => meta({ name: `cm-${i}` }));
    const { kube, s } = await snap({ objects: { '/configmaps': many } }, namespace(), { pageSize: 500 });
    const pages = kube
      .of('listMetadata')
      .filter((c) => (c.args[0] as { resource: string }).resource === 'configmaps');
    expect(pages.map((c) => c.args[1])).toEqual([
      { namespace: NS, limit: 500 },
      { namespace: NS, limit: 500, continue: '500' },
      { namespace: NS, limit: 500, continue: '1000' },
    ]);
    expect(s.leftovers.filter((l) => l.resource.resource === 'configmaps')).toHaveLength(1203);
    expect(s.leftovers[0]).toEqual({
      resource: { group: '', version: 'v1', resource: 'configmaps', kind: 'ConfigMap' },
      meta: many[0],
    });
  });

  it('respects the concurrency bound (and does use it)', async () => {
    const types = Array.from({ length: 30 }, (_, i) =>
      type(`g${i}.example.com`, 'v1', `things${i}`, `Thing${i}`),
    );
    const kube = new RecordingReader({
      discovery: { resources: types, failed: [], mode: 'aggregated' },
      delayMs: 3,
    });
    await takeSnapshot(kube, namespace(), { concurrency: 3, clock });
    expect(kube.maxInFlight).toBe(3);
    const kube8 = new RecordingReader({
      discovery: { resources: types, failed: [], mode: 'aggregated' },
      delayMs: 3,
    });
    await takeSnapshot(kube8, namespace(), { clock });
    expect(kube8.maxInFlight).toBe(8);
  });

  it('partial discovery: the failed group-version is recorded and the scan continues', async () => {
    const failed = [
      {
        groupVersion: 'metrics.k8s.io/v1beta1',
        error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1',
      },
    ];
    const { s } = await snap({
      discovery: discovery({ failed }),
      objects: { 'kiali.io/kialis': [meta({ name: 'kiali', finalizers: ['kiali.io/finalizer'] })] },
      lists: { [APISERVICES]: [metricsApiService, localApiService] },
    });
    expect(s.discovery.failed).toEqual(failed);
    expect(s.leftovers.map((l) => l.meta.name)).toEqual(['kiali']);
    expect(s.apiServices.map((a) => [a.name, a.available?.reason, a.backing])).toEqual([
      ['v1.apps', 'Local', undefined],
      ['v1beta1.metrics.k8s.io', 'ServiceNotFound', { serviceExists: false, readyEndpoints: 0 }],
    ]);
  });

  it('a failing discover() is a read error; the snapshot still comes back', async () => {
    const { s } = await snap({ errors: { discover: new Error('connection refused') } });
    expect(s.readErrors).toContainEqual({ what: 'discovery', error: 'connection refused' });
    expect(s.leftovers).toEqual([]);
    expect(s.discovery.listedTypes).toBe(0);
  });

  it('403, 503 and timeouts become read errors and the rest goes on', async () => {
    const { s } = await snap({
      objects: { '/pods': [], '/configmaps': [meta({ name: 'cm' })] },
      errors: {
        'kiali.io/kialis': new KubeError(
          'kialis.kiali.io is forbidden: User "ci" cannot list resource "kialis"',
          403,
          'Forbidden',
        ),
        [APISERVICES]: new KubeError(
          'the server is currently unable to handle the request',
          503,
          'ServiceUnavailable',
        ),
        '/pods': new Error('timeout after 10000 ms'),
      },
    });
    expect(s.readErrors).toEqual([
      {
        what: 'apiservices',
        error: '503 ServiceUnavailable: the server is currently unable to handle the request',
      },
      {
        what: 'list kialis.kiali.io',
        error: '403 Forbidden: kialis.kiali.io is forbidden: User "ci" cannot list resource "kialis"',
      },
      { what: 'list pods', error: 'timeout after 10000 ms' },
    ]);
    expect(s.leftovers.map((l) => l.meta.name)).toEqual(['cm']);
  });

  it('a repeated continue token stops paging with a read error instead of looping', async () => {
    const kube = new RecordingReader({ discovery: discovery() });
    kube.listMetadata = async (res, opts) => {
      kube.calls.push({ method: 'listMetadata', args: [res, opts] });
      return { items: [meta({ name: `x${kube.calls.length}` })], continue: 'same' };
    };
    const s = await takeSnapshot(kube, namespace(), { clock, concurrency: 1 });
    expect(s.readErrors.filter((e) => e.error.includes('repeated continue token'))).toHaveLength(3);
  });
});
