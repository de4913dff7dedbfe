import { FakeCluster, waitFor, type KubeVersion } from '../fake-apiserver/index.js';
import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../src/kube/client.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { runTeardown } from '../../src/teardown/run-teardown.js';
import { resolveTargets } from '../../src/targets/resolve.js';
import { FAST, runEngine } from '../helpers/harness.js';
import { UNFENCED } from '../helpers/inputs.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const FINALIZER = 'acme.io/cleanup';

/** A cluster with the Widget CRD; `inside` namespaces hold an operator and `crs` widgets each, `bare` only a ConfigMap. */
function setUp(o: {
  inside: string[];
  delayMs?: number;
  bare?: string[];
  crs?: number;
  version?: KubeVersion;
  operator?: boolean;
}) {
  const cluster = new FakeCluster({ controller: FAST, ...(o.version ? { version: o.version } : {}) });
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  for (const ns of [...o.inside, ...(o.bare ?? [])]) {
    cluster.addNamespace(ns, { labels: { preview: 'yes' } });
    cluster.addObject({ group: '', version: 'v1', resource: 'configmaps' }, { namespace: ns, name: 'app' });
  }
  for (const ns of o.inside) {
    for (let i = 0; i < (o.crs ?? 3); i++)
      cluster.addObject(WIDGETS, { namespace: ns, name: `w${i}`, finalizers: [FINALIZER] });
    if (o.operator !== false)
      cluster.addOperator({ gvr: WIDGETS, finalizer: FINALIZER, namespace: ns, delayMs: o.delayMs ?? 50 });
  }
  return cluster;
}

const writes = (cluster: FakeCluster) =>
  cluster.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('custom-resources-first against pods-first deletion (fake 1.34)', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('an operator inside the namespace finishes its cleanup: clean, no PATCH, no /finalize', async () => {
    cluster = setUp({ inside: ['pr-1'], delayMs: 400 });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '20s' });
    expect(report.result).toBe('clean');
    expect(cluster.operatorCleanups.sort()).toEqual([
      'widget-operator: deleted bucket for pr-1/w0',
      'widget-operator: deleted bucket for pr-1/w1',
      'widget-operator: deleted bucket for pr-1/w2',
    ]);
    expect(writes(cluster).filter((w) => /^PATCH|\/finalize/.test(w))).toEqual([]);
    // The custom resources went first, each with a UID precondition and Background propagation, then the namespace.
    const deletes = cluster.requests.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.path)).toEqual([
      ...['w0', 'w1', 'w2'].map((n) => `/apis/widgets.acme.io/v1/namespaces/pr-1/widgets/${n}`).sort(),
      '/api/v1/namespaces/pr-1',
    ]);
    for (const d of deletes.slice(0, 3))
      expect(d.body).toMatchObject({
        propagationPolicy: 'Background',
        preconditions: { uid: expect.any(String) },
      });
    // The wait used a metadata-only watch on the type in the namespace.
    expect(
      cluster.requests.some(
        (r) => r.path === '/apis/widgets.acme.io/v1/namespaces/pr-1/widgets' && /watch=1/.test(r.query),
      ),
    ).toBe(true);
    const t = report.targets[0]!;
    expect(t.customResources).toMatchObject({
      mode: 'done',
      types: [{ type: 'widgets.widgets.acme.io', found: 3, gone: 3, left: {} }],
    });
    expect(t.customResources!.types[0]!.finalizerMs!.max).toBeGreaterThanOrEqual(
      t.customResources!.types[0]!.finalizerMs!.median,
    );
    expect(t.preMortem!.predictions).toEqual([
      expect.objectContaining({
        kind: 'in-namespace-controller',
        hang: false,
        settled: expect.objectContaining({ result: 'avoided' }),
      }),
    ]);
  });

  test('`teardown-order: namespace` (one DELETE, as kubectl) hangs: the operator is stopped first', async () => {
    cluster = setUp({ inside: ['pr-1'] });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-1',
      timeout: '4s',
      'teardown-order': 'namespace',
    });
    expect(report.result).toBe('stuck');
    expect(cluster.operatorCleanups).toEqual([]);
    expect(cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/pr-1',
    ]);
    const t = report.targets[0]!;
    expect(t.customResources).toBeUndefined();
    const p = t.preMortem!.predictions[0]!;
    expect(p).toMatchObject({ kind: 'in-namespace-controller', hang: true, subject: FINALIZER });
    expect(p.summary).toMatch(/deletes pods first .* a deadlock/);
    expect(p.settled).toEqual({ result: 'came-true', words: 'came true: stuck on it' });
  });

  test('no operator: nothing is waited for, and the outcome is the same as with `namespace` order', async () => {
    const outcomes: Record<string, string> = {};
    for (const order of ['custom-resources-first', 'namespace']) {
      cluster = setUp({ inside: ['pr-1'], operator: false });
      const { kubeconfig } = await cluster.start();
      const { report } = await runEngine(kubeconfig, {
        namespaces: 'pr-1',
        timeout: '3s',
        'teardown-order': order,
      });
      outcomes[order] = report.targets[0]!.outcome;
      const p = report.targets[0]!.preMortem!.predictions;
      expect(p.map((x) => [x.kind, x.hang, x.settled?.result])).toEqual([['leak', true, 'came-true']]);
      if (order === 'custom-resources-first') {
        const phase = report.targets[0]!.customResources!;
        expect(phase.objects.every((o) => !o.waited && o.left?.reason === 'controller-absent')).toBe(true);
        expect(phase.types[0]!.left).toEqual({ 'controller-absent': 3 });
        // Not waited for: no watch of the type was started.
        expect(cluster.requests.some((r) => r.path.endsWith('/widgets') && /watch=1/.test(r.query))).toBe(
          false,
        );
        expect(phase.tookMs).toBeLessThan(2_000);
      }
      await cluster.stop();
    }
    expect(outcomes).toEqual({ 'custom-resources-first': 'stuck', namespace: 'stuck' });
    cluster = new FakeCluster();
  });

  test('20 namespaces, 5 with an operator inside: all clean, every cleanup done, nothing outside deleted', async () => {
    const inside = ['pr-3', 'pr-7', 'pr-11', 'pr-15', 'pr-19'];
    const bare = Array.from({ length: 20 }, (_, i) => `pr-${i + 1}`).filter((n) => !inside.includes(n));
    cluster = setUp({ inside, bare, crs: 4 });
    // A namespace that is not a target, with widgets of its own: never touched.
    cluster.addNamespace('keep');
    cluster.addObject(WIDGETS, { namespace: 'keep', name: 'mine', finalizers: [FINALIZER] });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { selector: 'preview=yes', timeout: '30s' });
    expect(report.result).toBe('clean');
    expect(report.targets).toHaveLength(20);
    expect(cluster.operatorCleanups).toHaveLength(20);
    for (const ns of inside)
      expect(cluster.operatorCleanups.filter((c) => c.includes(` ${ns}/`))).toHaveLength(4);
    for (const t of report.targets) {
      if (inside.includes(t.name)) expect(t.customResources!.types[0]).toMatchObject({ found: 4, gone: 4 });
      else expect(t.customResources).toMatchObject({ mode: 'skipped', note: 'no custom resources' });
    }
    const targets = new Set([...inside, ...bare]);
    for (const r of cluster.requests.filter((x) => x.method === 'DELETE')) {
      const ns = /\/namespaces\/([^/]+)/.exec(r.path)![1]!;
      expect(targets.has(ns)).toBe(true);
    }
    expect(cluster.get(WIDGETS, 'keep', 'mine')).toBeDefined();
    expect(writes(cluster).filter((w) => /^PATCH|\/finalize/.test(w))).toEqual([]);
  });

  test('more than 50 namespaces to delete: no pre-mortem, no phase, a warning that says so; each deleted at once', async () => {
    const bare = Array.from({ length: 53 }, (_, i) => `pr-${i + 1}`);
    cluster = setUp({ inside: [], bare });
    const { kubeconfig } = await cluster.start();
    const { report, log } = await runEngine(kubeconfig, { selector: 'preview=yes', timeout: '30s' });
    expect(report.result).toBe('clean');
    expect(log.filter((l) => l.startsWith('warning: 53 namespaces to delete, more than 50'))).toHaveLength(1);
    for (const t of report.targets) {
      expect(t.preMortem).toBeUndefined();
      expect(t.customResources).toMatchObject({
        mode: 'skipped',
        note: expect.stringMatching(/^53 namespaces/),
      });
    }
    // No scan before the DELETEs: the only reads of a namespace's content are the diagnosis's, and none was needed.
    expect(cluster.requests.filter((r) => /\/namespaces\/pr-\d+\/configmaps/.test(r.path))).toEqual([]);
  });
});

describe('contrast and neighbours', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('1.29 (no pods-first): no certain deadlock is predicted; custom-resources-first still ends clean', async () => {
    cluster = setUp({ inside: ['pr-1'], version: '1.29' });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '20s' });
    expect(report.result).toBe('clean');
    expect(cluster.operatorCleanups).toHaveLength(3);
    expect(report.targets[0]!.preMortem!.predictions[0]).toMatchObject({
      kind: 'in-namespace-controller',
      hang: false,
    });
  });

  test('1.29 with `namespace` order: the prediction is not certain (no notice), and the operator is not waited for', async () => {
    cluster = setUp({ inside: ['pr-1'], version: '1.29' });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-1',
      timeout: '4s',
      'teardown-order': 'namespace',
    });
    const p = report.targets[0]!.preMortem!.predictions[0]!;
    expect(p).toMatchObject({ kind: 'in-namespace-controller', hang: false });
    expect(p.summary).toMatch(/does not delete pods first/);
    // In this model the namespace controller deletes the pod and the widgets in one pass, and the operator stops
    // with its pod: the namespace hangs all the same.
    expect(report.targets[0]!.outcome).toBe('stuck');
  });

  test('an operator in a shared namespace is waited for, and is never touched', async () => {
    cluster = setUp({ inside: ['pr-1'], operator: false });
    cluster.addNamespace('operators');
    cluster.addOperator({
      gvr: WIDGETS,
      finalizer: FINALIZER,
      namespace: 'operators',
      scope: 'all',
      delayMs: 200,
    });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '20s' });
    expect(report.result).toBe('clean');
    expect(report.targets[0]!.preMortem!.predictions).toEqual([]);
    expect(
      report.targets[0]!.customResources!.objects.every(
        (o) =>
          o.waited &&
          /Deployment operators\/widget-operator is alive \(Deployment operators\/widget-operator: 1 ready replica\(s\); ClusterRole widget-operator-manager may update widgets/.test(
            o.why,
          ),
      ),
    ).toBe(true);
    expect(
      cluster.get({ group: '', version: 'v1', resource: 'pods' }, 'operators', 'widget-operator'),
    ).toBeDefined();
  });

  test('force: dry-run deletes nothing early and lists what would go first', async () => {
    cluster = setUp({ inside: ['pr-1'] });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-1',
      timeout: '3s',
      force: 'dry-run',
      'fail-on': 'never',
    });
    expect(cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/pr-1',
    ]);
    const phase = report.targets[0]!.customResources!;
    expect(phase.mode).toBe('dry-run');
    expect(phase.objects.map((o) => [o.object, o.left?.detail])).toEqual(
      ['w0', 'w1', 'w2'].map((n) => [
        `widgets.widgets.acme.io/${n}`,
        'would be deleted first, and waited for',
      ]),
    );
  });

  test('delete: false runs neither the pre-mortem nor the phase', async () => {
    cluster = setUp({ inside: ['pr-1'] });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-1',
      timeout: '1s',
      delete: 'false',
      'fail-on': 'never',
    });
    expect(report.targets[0]).toMatchObject({ outcome: 'active' });
    expect(report.targets[0]!.preMortem).toBeUndefined();
    expect(report.targets[0]!.customResources).toBeUndefined();
    expect(cluster.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('a refused DELETE of a custom resource is reported, and the namespace DELETE still follows', async () => {
    cluster = setUp({ inside: ['pr-1'] });
    cluster.denyRBAC({ verb: 'delete', resource: 'widgets', group: WIDGETS.group });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: 'pr-1', timeout: '3s', 'fail-on': 'never' });
    const phase = report.targets[0]!.customResources!;
    expect(phase.objects.map((o) => o.left?.reason)).toEqual([
      'delete-refused',
      'delete-refused',
      'delete-refused',
    ]);
    expect(phase.objects[0]!.left!.detail).toMatch(/forbidden/);
    expect(cluster.requests.some((r) => r.method === 'DELETE' && r.path === '/api/v1/namespaces/pr-1')).toBe(
      true,
    );
  });

  test('a protected namespace the selector matches never gets the phase', async () => {
    cluster = setUp({ inside: ['pr-1'] });
    cluster.addNamespace('platform', { labels: { preview: 'yes' } });
    cluster.addObject(WIDGETS, { namespace: 'platform', name: 'held', finalizers: [FINALIZER] });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      selector: 'preview=yes',
      timeout: '20s',
      'protected-namespaces': 'platform',
      'fail-on': 'never',
    });
    expect(report.targets.find((t) => t.name === 'platform')).toMatchObject({ outcome: 'refused' });
    expect(cluster.requests.filter((r) => r.method === 'DELETE' && r.path.includes('/platform'))).toEqual([]);
    expect(cluster.get(WIDGETS, 'platform', 'held')!.metadata.deletionTimestamp).toBeUndefined();
  });

  test('cancelled during the wait: no namespace DELETE is sent, and the report says what was left', async () => {
    cluster = setUp({ inside: ['pr-1'], delayMs: 10_000 });
    const { kubeconfig } = await cluster.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const cancel = new AbortController();
    const kube = createKube(kc);
    const given: Record<string, string> = { ...UNFENCED, namespaces: 'pr-1', timeout: '20s' };
    const settings = readSettings((n) => given[n] ?? '');
    const running = runTeardown(
      settings,
      { kube, logger: new RecordingLogger(), clock: systemClock, signal: cancel.signal, progressMs: 500 },
      {},
      await resolveTargets(settings, kube),
    );
    // Cancelled while the phase waits: once its three DELETEs are sent, however long a busy machine took.
    const deletes = (): number =>
      cluster.requests.filter((r) => r.method === 'DELETE' && r.path.includes('/widgets/')).length;
    await waitFor(() => deletes() === 3, 60_000);
    cancel.abort();
    const report = await running;
    await kube.close();
    expect(report.cancelled).toBe(true);
    expect(report.targets[0]).toMatchObject({
      outcome: 'active',
      note: 'the run was cancelled before the delete request',
    });
    expect(report.targets[0]!.customResources!.objects.map((o) => o.left?.reason)).toEqual([
      'cancelled',
      'cancelled',
      'cancelled',
    ]);
    expect(
      cluster.requests.filter((r) => r.method === 'DELETE' && r.path === '/api/v1/namespaces/pr-1'),
    ).toEqual([]);
    expect(cluster.namespace('pr-1')!.metadata.deletionTimestamp).toBeUndefined();
  });
});
