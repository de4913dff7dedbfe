/**
 * Prevention across the whole teardown: an operator running in one target releases the finalizers of custom resources
 * in another. Every target's custom resources go first (while every controller runs), and the target hosting the
 * operator is deleted only after the targets it serves — in either order of the inputs.
 */
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const FINALIZER = 'acme.io/cleanup';

/** `pr-ops` runs the operator (serving every namespace); `pr-app` holds three widgets with its finalizer. */
function setUp(): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  for (const ns of ['pr-ops', 'pr-app']) cluster.addNamespace(ns, { labels: { preview: 'yes' } });
  for (const name of ['w0', 'w1', 'w2'])
    cluster.addObject(WIDGETS, { namespace: 'pr-app', name, finalizers: [FINALIZER] });
  cluster.addOperator({
    gvr: WIDGETS,
    finalizer: FINALIZER,
    namespace: 'pr-ops',
    scope: 'all',
    delayMs: 400,
  });
  return cluster;
}

describe('a target hosting the live controller of objects in another target', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test.each(['pr-ops pr-app', 'pr-app pr-ops'])(
    'namespaces "%s": the other target’s resources are cleaned up, the host goes last, nothing leaks',
    async (namespaces) => {
      cluster = setUp();
      const { kubeconfig } = await cluster.start();
      const { report, log } = await runEngine(kubeconfig, {
        namespaces,
        timeout: '20s',
        'fail-on': 'leaked',
      });
      expect(report.result).toBe('clean');
      expect(report.failures).toEqual([]);
      expect(cluster.operatorCleanups.sort()).toEqual(
        ['w0', 'w1', 'w2'].map((n) => `widget-operator: deleted bucket for pr-app/${n}`),
      );
      // Every custom resource DELETE before the first namespace DELETE; the host's DELETE last.
      const deletes = cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
      expect(deletes.slice(-2)).toEqual(['/api/v1/namespaces/pr-app', '/api/v1/namespaces/pr-ops']);
      const ops = report.targets.find((t) => t.name === 'pr-ops')!;
      expect(ops.customResources?.held).toMatchObject({ serves: ['pr-app'], ended: 'served-gone' });
      expect(ops.customResources!.held!.why).toMatch(
        /^Deployment pr-ops\/widget-operator releases acme.io\/cleanup on 3 object\(s\) in pr-app$/,
      );
      expect(log.join('\n')).toMatch(
        /pr-ops: deleted after pr-app: Deployment pr-ops\/widget-operator releases/,
      );
    },
  );

  test('the served target hangs on something else: the host is kept only until its share of the timeout, said so', async () => {
    cluster = setUp();
    // A leaked finalizer of no controller keeps pr-app from ever going.
    cluster.addObject(
      { group: '', version: 'v1', resource: 'configmaps' },
      {
        namespace: 'pr-app',
        name: 'pinned',
        finalizers: ['example.com/nobody'],
      },
    );
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-ops pr-app',
      timeout: '6s',
      'custom-resources-timeout': '2s',
      'fail-on': 'never',
    });
    const ops = report.targets.find((t) => t.name === 'pr-ops')!;
    expect(ops.customResources?.held).toMatchObject({ serves: ['pr-app'], ended: 'share-ended' });
    expect(ops.outcome).toBe('gone');
    expect(report.targets.find((t) => t.name === 'pr-app')!.outcome).toBe('stuck');
    // Its widgets were cleaned up all the same: they went first, while the operator ran.
    expect(cluster.operatorCleanups).toHaveLength(3);
  });
});
