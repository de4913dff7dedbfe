import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../src/kube/client.js';
import type { RunReport } from '../../src/model/run.js';
import { FakeCluster, GVR, type RequestRecord } from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';
import { renderSummary } from '../../src/report/markdown.js';

const LEAK = 'kiali.io/finalizer';
const META = 'finalizers.kubesphere.io/namespaces';
/** A controller's finalizer that its controller removes during the run: that namespace finishes by itself. */
const SELF = 'example.com/cleanup';

/**
 * Three namespaces already Terminating (a leaked object finalizer, a namespace metadata finalizer, one that
 * finishes by itself) beside Active namespaces holding the same objects and finalizers.
 */
async function cluster(names: { leak: string; meta: string; done: string; active: string[] }): Promise<{
  cluster: FakeCluster;
  kubeconfig: string;
  runFrom: number;
}> {
  const c = new FakeCluster({ controller: FAST });
  c.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
  const holding = (ns: string, finalizers: string[]): void => {
    c.addObject(GVR.kialis, { namespace: ns, name: 'kiali', finalizers });
  };
  c.addNamespace(names.leak, { labels: { team: 'a' } });
  holding(names.leak, [LEAK]);
  c.addNamespace(names.meta, { labels: { team: 'b' }, metadataFinalizers: [META] });
  c.addNamespace(names.done, { labels: { team: 'a' } });
  holding(names.done, [SELF]);
  for (const ns of names.active) {
    c.addNamespace(ns, { labels: { team: 'a' }, metadataFinalizers: [META] });
    holding(ns, [LEAK]);
  }
  const { kubeconfig } = await c.start();
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  for (const ns of [names.leak, names.meta, names.done]) await kube.deleteNamespace(ns);
  await kube.close();
  return { cluster: c, kubeconfig, runFrom: c.requests.length };
}

/** Let the "controller" of the third namespace finish its work once the run is watching it. */
async function finishLater(c: FakeCluster, ns: string): Promise<void> {
  while (c.openWatches === 0) await new Promise((r) => setTimeout(r, 20));
  c.removeFinalizer(GVR.kialis, ns, 'kiali', SELF);
}

const outcomes = (report: RunReport): Record<string, string> =>
  Object.fromEntries(report.targets.map((t) => [t.name, t.outcome]));
const writesOf = (requests: RequestRecord[]): string[] =>
  requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);
const touching = (requests: RequestRecord[], ns: string): RequestRecord[] =>
  requests.filter((r) => r.method !== 'GET' && r.path.includes(`/namespaces/${ns}`));

describe('scope: all-terminating over HTTPS', () => {
  let c: FakeCluster;
  afterEach(() => c?.stop());

  const variants = [
    { leak: 'pr-7', meta: 'ks-old', done: 'pr-9', active: ['pr-1', 'live'] },
    { leak: 'review-ab', meta: 'kubesphere-demo', done: 'z-last', active: ['a-first', 'review-cd', 'm'] },
  ];

  test.each(variants)(
    'the stuck ones are named, the third is gone, Active ones are never written to ($leak, $meta)',
    async (names) => {
      const made = await cluster(names);
      c = made.cluster;
      const [{ report, log }] = await Promise.all([
        runEngine(made.kubeconfig, { scope: 'all-terminating', timeout: '4s', 'fail-on': 'stuck' }),
        finishLater(c, names.done),
      ]);
      expect(outcomes(report)).toEqual({
        [names.leak]: 'stuck',
        [names.meta]: 'stuck',
        [names.done]: 'gone',
      });
      const leak = report.targets.find((t) => t.name === names.leak)!;
      expect(leak.findings.map((f) => f.id)).toContain('object-finalizers');
      expect(JSON.stringify(leak.findings)).toContain(LEAK);
      const meta = report.targets.find((t) => t.name === names.meta)!;
      expect(JSON.stringify(meta.findings)).toContain(META);
      expect(report.failures.join('\n')).toContain(
        `still present: ${[names.leak, names.meta].sort().join(', ')}`,
      );
      expect(report.settings.scope).toBe('all-terminating');
      expect(report.settings.delete).toBe(false);
      expect(renderSummary(report)).toContain('every namespace already Terminating');
      const run = c.requests.slice(made.runFrom);
      // Nothing was deleted or changed: the run only read.
      expect(writesOf(run)).toEqual([]);
      for (const ns of names.active) {
        expect(touching(run, ns)).toEqual([]);
        expect(c.namespace(ns)?.status?.phase).toBe('Active');
      }
      expect(log.join('\n')).not.toMatch(/deletion requested/);
    },
  );

  test('a selector narrows to the matching Terminating namespaces and deletes nothing it matches', async () => {
    const names = variants[0]!;
    const made = await cluster(names);
    c = made.cluster;
    const [{ report }] = await Promise.all([
      runEngine(made.kubeconfig, { scope: 'all-terminating', selector: 'team=a', timeout: '4s' }),
      finishLater(c, names.done),
    ]);
    // team=a also matches the Active ones: they are not targets, and stay untouched.
    expect(outcomes(report)).toEqual({ [names.leak]: 'stuck', [names.done]: 'gone' });
    const run = c.requests.slice(made.runFrom);
    expect(writesOf(run)).toEqual([]);
    expect(c.namespace(names.meta)?.metadata.deletionTimestamp).toBeDefined();
    for (const ns of names.active) expect(c.namespace(ns)?.status?.phase).toBe('Active');
  });

  test('with force on, only the allowed finalizers are removed, only in Terminating namespaces', async () => {
    const names = variants[1]!;
    const made = await cluster(names);
    c = made.cluster;
    const [{ report }] = await Promise.all([
      runEngine(made.kubeconfig, {
        scope: 'all-terminating',
        timeout: '6s',
        force: 'on',
        'force-after': '1s',
        'force-finalizers': 'kiali.io/*',
      }),
      finishLater(c, names.done),
    ]);
    expect(outcomes(report)).toEqual({ [names.leak]: 'forced', [names.meta]: 'stuck', [names.done]: 'gone' });
    const run = c.requests.slice(made.runFrom);
    expect(writesOf(run)).toEqual([
      `PATCH /apis/kiali.io/v1alpha1/namespaces/${names.leak}/kialis/kiali 200`,
    ]);
    // The Active namespaces hold the same allowed finalizer: it is still there.
    for (const ns of names.active) {
      expect(c.get(GVR.kialis, ns, 'kiali')?.metadata.finalizers).toEqual([LEAK]);
      expect(c.namespace(ns)?.metadata.finalizers).toEqual([META]);
    }
    expect(c.namespace(names.meta)?.metadata.finalizers).toEqual([META]);
  });
});
