import { KubeConfig } from '@kubernetes/client-node';
import { createKube, type KubeClient } from '../../src/kube/client.js';
import { asDryRun, type Req } from '../../src/kube/request.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { dryRunAsServerReadsIt, stored } from '../helpers/cluster-state.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const PODS = { group: '', version: 'v1', resource: 'pods' };

describe('asDryRun', () => {
  const cases: { name: string; given: Req; query?: string; body?: unknown }[] = [
    { name: 'a GET is left as it is', given: { method: 'GET', path: '/api/v1/namespaces', verb: 'list' } },
    {
      name: 'a PATCH gets dryRun=All in its query, its body untouched',
      given: { method: 'PATCH', path: '/x', verb: 'patch', body: { metadata: { finalizers: [] } } },
      query: 'All',
      body: { metadata: { finalizers: [] } },
    },
    {
      name: 'a DELETE with DeleteOptions gets it in the body as well, which the server reads instead of the query',
      given: {
        method: 'DELETE',
        path: '/x',
        verb: 'delete',
        body: { kind: 'DeleteOptions', apiVersion: 'v1' },
      },
      query: 'All',
      body: { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] },
    },
    {
      name: 'a DELETE without a body: the query is what the server reads',
      given: { method: 'DELETE', path: '/x', verb: 'delete' },
      query: 'All',
    },
  ];
  test.each(cases)('$name', ({ given, query, body }) => {
    const sent = asDryRun(given);
    expect(sent.query?.dryRun).toBe(query);
    expect(sent.body).toEqual(body);
    expect(given.query?.dryRun).toBeUndefined();
  });
});

describe('an adapter built with dryRun sends every write as a dry run, over real HTTPS', () => {
  let cluster: FakeCluster;
  let kube: KubeClient;

  beforeEach(async () => {
    cluster = new FakeCluster();
    cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
    cluster.addNamespace('pr-1');
    cluster.addObject(WIDGETS, { namespace: 'pr-1', name: 'held', finalizers: ['acme.io/cleanup'] });
    cluster.addPod('pr-1', 'web');
    const { kubeconfig } = await cluster.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    kube = createKube(kc, { dryRun: true });
  });
  afterEach(async () => {
    await kube.close();
    await cluster.stop();
  });

  test('each write of the port: the server answers, nothing is stored, no resourceVersion moves', async () => {
    const before = JSON.stringify(stored(cluster));
    const held = cluster.get(WIDGETS, 'pr-1', 'held').metadata;
    const pod = cluster.get(PODS, 'pr-1', 'web').metadata;
    const ns = cluster.namespace('pr-1')!.metadata;
    const guard = { uid: held.uid, resourceVersion: held.resourceVersion };
    expect(kube.dryRun).toBe(true);
    await expect(kube.deleteObject(WIDGETS, 'pr-1', 'held', { uid: held.uid })).resolves.not.toBe('gone');
    await expect(kube.patchFinalizers(WIDGETS, 'pr-1', 'held', guard, [])).resolves.not.toBe('gone');
    await expect(kube.patchSpec(WIDGETS, 'pr-1', 'held', guard, { suspend: true })).resolves.not.toBe('gone');
    await expect(kube.deletePod('pr-1', 'web', pod.uid)).resolves.not.toBe('gone');
    const nsGuard = { uid: ns.uid, resourceVersion: ns.resourceVersion };
    await expect(kube.finalizeNamespace('pr-1', nsGuard, [])).resolves.not.toBe('gone');
    await expect(kube.deleteNamespace('pr-1', { uid: ns.uid })).resolves.not.toBe('gone');
    const writes = cluster.requests.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => r.method).sort()).toEqual([
      'DELETE',
      'DELETE',
      'DELETE',
      'PATCH',
      'PATCH',
      'PUT',
    ]);
    for (const w of writes) {
      expect(`${w.method} ${w.path} ${w.status} dry run: ${dryRunAsServerReadsIt(w)}`).toBe(
        `${w.method} ${w.path} ${w.status} dry run: true`,
      );
      expect(w.query).toContain('dryRun=All');
    }
    expect(JSON.stringify(stored(cluster))).toBe(before);
    expect(cluster.namespace('pr-1')!.status.phase).toBe('Active');
  });

  test('reads are sent as they are', async () => {
    await kube.getNamespace('pr-1');
    await kube.listMetadata(WIDGETS, { namespace: 'pr-1' });
    const reads = cluster.requests.filter((r) => r.method === 'GET');
    expect(reads.length).toBe(2);
    for (const r of reads) expect(r.query).not.toContain('dryRun');
  });
});
