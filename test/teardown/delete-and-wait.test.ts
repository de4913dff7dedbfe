import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../src/kube/client.js';
import { FakeCluster, waitFor } from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';

const KIALI = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };
const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };

function withKialiCrd(cluster: FakeCluster): void {
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
}

function holdWithFinalizer(cluster: FakeCluster, ns: string): void {
  cluster.addObject(KIALI, {
    metadata: { namespace: ns, name: 'kiali', finalizers: ['kiali.io/finalizer'] },
  });
}

describe('delete and wait over real HTTPS', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;

  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    withKialiCrd(cluster);
  });
  afterEach(() => cluster.stop());

  async function begin(): Promise<void> {
    ({ kubeconfig } = await cluster.start());
  }

  test('several namespaces are deleted at once and reported gone', async () => {
    for (const n of ['pr-1', 'pr-2', 'pr-3']) {
      cluster.addNamespace(n);
      cluster.addObject(CONFIGMAPS, { metadata: { namespace: n, name: 'app' }, data: { k: 'v' } });
    }
    await begin();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1,pr-2 pr-3', timeout: '20s' });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1', 'gone'],
      ['pr-2', 'gone'],
      ['pr-3', 'gone'],
    ]);
    expect(report.result).toBe('clean');
    expect(report.failures).toEqual([]);
    for (const t of report.targets) {
      expect(t.transitions.map((x) => x.phase)).toEqual(['Active', 'Terminating']);
      expect(t.durationMs).toBeGreaterThanOrEqual(0);
      expect(t.goneAt).toBeDefined();
    }
    const deletes = cluster.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.path).sort()).toEqual([
      '/api/v1/namespaces/pr-1',
      '/api/v1/namespaces/pr-2',
      '/api/v1/namespaces/pr-3',
    ]);
    expect(['pr-1', 'pr-2', 'pr-3'].map((n) => cluster.namespace(n))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });

  test('a namespace still Terminating at the timeout is stuck, with the controller conditions, and fails fail-on stuck', async () => {
    cluster.addNamespace('pr-1');
    cluster.addNamespace('pr-2');
    holdWithFinalizer(cluster, 'pr-2');
    await begin();
    const { report, log } = await runEngine(
      kubeconfig,
      { namespaces: 'pr-1 pr-2', timeout: '3s', 'fail-on': 'stuck' },
      { settle: { cluster } },
    );
    const stuck = report.targets.find((t) => t.name === 'pr-2')!;
    expect(stuck.outcome).toBe('stuck');
    // Terminating from the DELETE at least to the timeout (the run's clock stood still until then), at most to the end.
    const requested = Date.parse(stuck.requestedAt!);
    expect(stuck.terminatingForMs).toBeGreaterThanOrEqual(Date.parse(report.startedAt) + 3_000 - requested);
    expect(stuck.terminatingForMs).toBeLessThanOrEqual(Date.parse(report.finishedAt) - requested);
    expect(stuck.conditions.find((c) => c.type === 'NamespaceFinalizersRemaining')).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: kiali.io/finalizer in 1 resource instances',
    });
    expect(report.targets.find((t) => t.name === 'pr-1')!.outcome).toBe('gone');
    // Diagnosed 3 s after the deletion: too early to trust the controller's conditions alone.
    expect(stuck.scan).toMatchObject({ mode: 'full', reason: 'conditions-stale' });
    expect(stuck.scan?.detail).toMatch(/before the namespace controller's first pass/);
    expect(report.result).toBe('stuck');
    expect(report.failures).toEqual(['1 namespace(s) still present: pr-2']);
    // The progress line says what is still Terminating and for how long.
    expect(log.join('\n')).toMatch(
      /waiting: 1 of 2 gone · 1 Terminating · \d+(ms|s) — still Terminating: pr-2 \(\d+(ms|s)\)/,
    );
  });

  test('force-after 0s forces as soon as the wait sees the namespace Terminating, not at the timeout', async () => {
    cluster.addNamespace('pr-1');
    holdWithFinalizer(cluster, 'pr-1');
    await begin();
    // The check at 0 s comes before the wait has read the DELETE's effect. The run's clock stands still until the
    // cluster has settled and the run has read the namespace Terminating, then moves 2 s and stands still again:
    // its 20 s timeout never comes, so only forcing during the wait can end the run.
    const { report, log } = await runEngine(
      kubeconfig,
      {
        namespaces: 'pr-1',
        timeout: '20s',
        force: 'on',
        'force-after': '0s',
        'force-finalizers': 'kiali.io/finalizer',
      },
      { settle: { cluster, holdAtMs: 2_000 } },
    );
    const [t] = report.targets;
    expect(t).toMatchObject({ name: 'pr-1', outcome: 'forced', durationMs: 2_000 });
    expect(t?.force?.passes?.map((p) => p.decision)).toEqual(['force']);
    expect(t?.force?.audit.some((a) => a.writes > 0)).toBe(true);
    expect(log.filter((l) => l.includes('force on: '))).toEqual(['pr-1: force on: force, 1 step(s)']);
    expect(log).toContainEqual(
      expect.stringContaining('pr-1: diagnosed (diagnosed before forcing, Terminating for'),
    );
    expect(cluster.namespace('pr-1')).toBeUndefined();
  }, 60_000);

  test('a namespace Terminating for longer than the controller takes is diagnosed from the types its conditions name', async () => {
    cluster.addNamespace('pr-2');
    holdWithFinalizer(cluster, 'pr-2');
    await begin();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    await createKube(kc).deleteNamespace('pr-2');
    await new Promise((r) => setTimeout(r, 5_200));
    cluster.requests.splice(0);
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-2', timeout: '1s', 'fail-on': 'never' });
    const [stuck] = report.targets;
    expect(stuck?.scan).toEqual({
      mode: 'targeted',
      reason: 'conditions-name-types',
      detail: 'listed kialis.kiali.io (1)',
    });
    expect(stuck?.findings.map((f) => f.id)).toContain('object-finalizers');
    const lists = cluster.requests.filter(
      (r) =>
        r.path.startsWith('/api') &&
        r.path.includes('/namespaces/pr-2/') &&
        (r.accept ?? '').includes('PartialObjectMetadataList'),
    );
    // Each diagnosis (when slow, and at the timeout) scans the one named type and nothing else in the namespace (its
    // RoleBindings are read too, in full, as evidence of who may own the finalizer).
    expect(lists.length).toBeGreaterThan(0);
    expect(new Set(lists.map((r) => r.path))).toEqual(
      new Set(['/apis/kiali.io/v1alpha1/namespaces/pr-2/kialis']),
    );
  });

  test('fail-on never passes even when a namespace is stuck', async () => {
    cluster.addNamespace('pr-2');
    holdWithFinalizer(cluster, 'pr-2');
    await begin();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-2', timeout: '1s', 'fail-on': 'never' });
    expect(report.result).toBe('stuck');
    expect(report.failures).toEqual([]);
  });

  test('delete: false only watches: a namespace someone else deletes is gone, an untouched one is reported active', async () => {
    cluster.addNamespace('pr-1');
    cluster.addNamespace('pr-2');
    await begin();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const other = createKube(kc);
    setTimeout(() => void other.deleteNamespace('pr-1'), 300);
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-1 pr-2',
      delete: 'false',
      timeout: '3s',
    });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1', 'gone'],
      ['pr-2', 'active'],
    ]);
    expect(cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/pr-1',
    ]);
    expect(cluster.namespace('pr-2')?.status?.phase).toBe('Active');
    expect(report.failures).toEqual(['1 namespace(s) still present: pr-2']);
  });

  test('a selector picks the labelled namespaces only; a protected match is refused and untouched', async () => {
    cluster.addNamespace('preview-a', { labels: { 'preview.example.com/pr': '123' } });
    cluster.addNamespace('preview-b', { labels: { 'preview.example.com/pr': '123' } });
    cluster.addNamespace('preview-c', { labels: { 'preview.example.com/pr': '124' } });
    cluster.addNamespace('shared-db', { labels: { 'preview.example.com/pr': '123' } });
    await begin();
    const { report } = await runEngine(kubeconfig, {
      selector: 'preview.example.com/pr=123',
      'protected-namespaces': 'shared-*',
      timeout: '20s',
    });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['preview-a', 'gone'],
      ['preview-b', 'gone'],
      ['shared-db', 'refused'],
    ]);
    expect(cluster.namespace('preview-c')).toBeDefined();
    expect(cluster.namespace('shared-db')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(report.failures).toEqual(['protected namespace(s) matched the selector: shared-db']);
  });

  test('a namespace that does not exist counts as already gone', async () => {
    await begin();
    const { report } = await runEngine(kubeconfig, { namespaces: 'never-was', timeout: '5s' });
    expect(report.targets).toMatchObject([{ name: 'never-was', outcome: 'already-gone' }]);
    expect(report.result).toBe('clean');
    expect(cluster.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  test('with many targets one watch serves the waits, no namespace is read again one by one, and a name recreated meanwhile is still reported', async () => {
    const names = Array.from({ length: 70 }, (_, i) => `preview-${100 + i}`);
    for (const n of names) cluster.addNamespace(n);
    await begin();
    const oldUid = cluster.namespace('preview-137')!.metadata.uid;
    const recreate = setInterval(() => {
      if (cluster.namespace('preview-137') === undefined) {
        cluster.addNamespace('preview-137');
        clearInterval(recreate);
      }
    }, 2);
    const { report } = await runEngine(kubeconfig, { namespaces: names.join(','), timeout: '20s' });
    clearInterval(recreate);
    const fresh = cluster.namespace('preview-137')!;
    expect(fresh.metadata.uid).not.toBe(oldUid);
    expect(fresh.metadata.deletionTimestamp).toBeUndefined();
    const outcomes = new Map(report.targets.map((t) => [t.name, t.outcome]));
    expect(outcomes.get('preview-137')).toBe('recreated');
    expect(report.targets.find((t) => t.name === 'preview-137')).toMatchObject({
      uid: oldUid,
      recreatedUid: fresh.metadata.uid,
    });
    expect([...outcomes.values()].filter((o) => o === 'gone')).toHaveLength(69);
    // One GET per target to resolve it; the waits and the end are served by the watch and lists of all namespaces.
    const gets = cluster.requests.filter(
      (r) => r.method === 'GET' && /^\/api\/v1\/namespaces\/[^/]+$/.test(r.path),
    );
    expect(gets.length).toBeLessThan(names.length + 5);
    expect(
      cluster.requests.filter((r) => r.method === 'GET' && r.path === '/api/v1/namespaces').length,
    ).toBeGreaterThan(0);
    expect(
      cluster.requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/namespaces/preview-137'),
    ).toHaveLength(1);
  });

  test('a namespace recreated under the same name during the wait is reported as such and never deleted', async () => {
    cluster.addNamespace('pr-1');
    holdWithFinalizer(cluster, 'pr-1');
    await begin();
    const oldUid = cluster.namespace('pr-1')!.metadata.uid;
    setTimeout(() => cluster.removeFinalizer(KIALI, 'pr-1', 'kiali', 'kiali.io/finalizer'), 500);
    const recreate = setInterval(() => {
      if (cluster.namespace('pr-1') === undefined) {
        cluster.addNamespace('pr-1');
        clearInterval(recreate);
      }
    }, 5);
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '10s' });
    clearInterval(recreate);
    const fresh = cluster.namespace('pr-1')!;
    expect(fresh.metadata.uid).not.toBe(oldUid);
    expect(fresh.metadata.deletionTimestamp).toBeUndefined();
    expect(report.targets[0]).toMatchObject({
      outcome: 'recreated',
      uid: oldUid,
      recreatedUid: fresh.metadata.uid,
    });
    // One DELETE of the namespace (and, before it, of its custom resource): the new namespace is never deleted.
    expect(
      cluster.requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/namespaces/pr-1'),
    ).toHaveLength(1);
  });

  /** The engine's watches of namespaces so far (the custom-resources phase watches other types). */
  const namespaceWatches = (): number =>
    cluster.requests.filter((r) => r.path === '/api/v1/namespaces' && /watch=(1|true)/.test(r.query)).length;

  // The waits below end on the watch's event alone: neither their one-hour timeout nor their one-minute poll can
  // end them within the test's time. Each fault comes once the watch it is meant for is open, not after a delay.
  test('the wait survives the server ending watches at their timeoutSeconds', async () => {
    cluster.addNamespace('pr-1');
    holdWithFinalizer(cluster, 'pr-1');
    await begin();
    const run = runEngine(
      kubeconfig,
      { namespaces: 'pr-1', timeout: '1h' },
      { pollMs: 60_000, kube: { watchTimeoutSeconds: 1 } },
    );
    await waitFor(() => namespaceWatches() >= 3, 60_000);
    cluster.removeFinalizer(KIALI, 'pr-1', 'kiali', 'kiali.io/finalizer');
    const { report } = await run;
    expect(report.targets[0]!.outcome).toBe('gone');
    expect(report.targets[0]!.watchRestarts).toEqual({ expired: 0, reset: 0 });
    const watches = cluster.requests.filter((r) => /watch=(1|true)/.test(r.query));
    expect(watches.every((r) => /timeoutSeconds=1(&|$)/.test(r.query))).toBe(true);
  });

  test('the wait survives a watch connection reset and a 410 Expired mid-wait', async () => {
    cluster.addNamespace('pr-1');
    holdWithFinalizer(cluster, 'pr-1');
    await begin();
    const run = runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '1h' }, { pollMs: 60_000 });
    await waitFor(
      () => namespaceWatches() >= 1 && cluster.namespace('pr-1')?.metadata.deletionTimestamp,
      60_000,
    );
    cluster.resetWatches();
    await waitFor(() => namespaceWatches() >= 2, 60_000);
    cluster.expireWatches();
    await waitFor(() => namespaceWatches() >= 3, 60_000);
    cluster.removeFinalizer(KIALI, 'pr-1', 'kiali', 'kiali.io/finalizer');
    const { report } = await run;
    expect(report.targets[0]!.outcome).toBe('gone');
    expect(report.targets[0]!.watchRestarts).toEqual({ expired: 1, reset: 1 });
  });
});
