/**
 * What the shipped roles leave out costs what the README says: a finalizer on a ConfigMap (no role may patch one)
 * ends as a failed step of the force audit with the API server's 403, and the step the role allows still runs.
 */
import { FakeCluster, FAST, GVR, kialiStuck } from '../fake-apiserver/index.js';
import { runEngine } from '../helpers/harness.js';

describe('forcing with the force role, where it may not patch', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('the ConfigMap’s step fails with the 403; the custom resource’s finalizer is removed', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.addObject(GVR.configmaps, {
      namespace: s.namespace,
      name: 'held',
      finalizers: ['kiali.io/hold'],
    });
    cluster.denyRBAC({ verb: 'patch', resource: 'configmaps', group: '' });
    const { kubeconfig } = await cluster.start();
    // The clock stands still until the fake cluster has settled, then jumps to the timeout: forcing comes then.
    const { report } = await runEngine(
      kubeconfig,
      {
        namespaces: s.namespace,
        timeout: '20s',
        force: 'on',
        'force-after': '1s',
        'force-finalizers': 'kiali.io/*',
        'fail-on': 'never',
      },
      { settle: { cluster } },
    );
    const audit = report.targets[0]!.force!.audit;
    const line = (object: string): string | undefined => {
      const a = audit.find((x) => x.object === object);
      return a && (a.result === 'failed' ? `failed: ${a.error}` : a.result);
    };
    expect(line('kialis.kiali.io/kiali')).toBe('removed');
    expect(line('configmaps/held')).toBe(
      'failed: configmaps "held" is forbidden: User "system:serviceaccount:ci:namespace-teardown" cannot patch resource "configmaps" in API group "" in the namespace "istio-system"',
    );
    expect(cluster.get(GVR.configmaps, s.namespace, 'held')!.metadata.finalizers).toEqual(['kiali.io/hold']);
  });
});
