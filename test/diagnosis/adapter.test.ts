import { diagnose, takeSnapshot } from '../../src/diagnosis/index.js';
import type { Finding } from '../../src/model/findings.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { FakeCluster, GVR, kialiStuck, metricsApiDown } from '../fake-apiserver/index.js';
import { FAST, connectKube, terminating } from '../helpers/harness.js';

const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };

const hasCondition = (type: string) => (ns: NamespaceState) =>
  ns.conditions.some((c) => c.type === type && c.status === 'True');
const ids = (fs: Finding[]): string[] => [...new Set(fs.map((f) => f.id))].sort();

describe('diagnosis scenarios over real HTTPS', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('partial discovery: a dead APIService and a leftover CR in another group are both found', async () => {
    const s = metricsApiDown({ controller: FAST });
    cluster = s.cluster;
    cluster.addCRD({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets' });
    cluster.addObject(WIDGETS, { namespace: s.namespace, name: 'w1', finalizers: ['example.com/cleanup'] });
    const kube = await connectKube(cluster);
    const ns = await terminating(kube, s.namespace, hasCondition('NamespaceDeletionDiscoveryFailure'));
    const snapshot = await takeSnapshot(kube, ns);
    expect(snapshot.discovery.failed).toEqual([
      {
        groupVersion: 'metrics.k8s.io/v1beta1',
        error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1',
      },
    ]);
    const findings = diagnose(snapshot);
    expect(findings.find((f) => f.id === 'apiservice-unavailable')!.evidence[0]!.object).toBe(
      'apiservice/v1beta1.metrics.k8s.io',
    );
    const widget = findings.find((f) => f.id === 'object-finalizers')!;
    expect(widget.evidence[0]!.object).toBe('widgets.example.com/w1');
    expect(widget.evidence[0]!.value).toContain('example.com/cleanup');
  });

  test('a finalizer whose controller runs in another namespace is waiting, not leaked', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.addNamespace('kiali-operator');
    cluster.addDeployment('kiali-operator', 'kiali-operator', {
      readyReplicas: 1,
      image: 'quay.io/kiali/kiali-operator:v2.1',
      serviceAccount: 'kiali-operator',
    });
    const serviceAccount = { namespace: 'kiali-operator', name: 'kiali-operator' };
    cluster.addGrant({ group: 'kiali.io', resource: 'kialis', serviceAccount });
    const kube = await connectKube(cluster);
    const ns = await terminating(kube, s.namespace, hasCondition('NamespaceFinalizersRemaining'));
    const owner = diagnose(await takeSnapshot(kube, ns)).find((f) => f.id === 'finalizer-owner-gone')!;
    expect(owner.leaked).toBe(false);
    expect(owner.owner).toMatchObject({ present: true });
    expect(owner.evidence.map((e) => e.value).join('\n')).toContain('kiali-operator');
  });

  test('a controller that lived in the namespace being deleted is reported as a deadlock', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    // The operator's Deployment is itself held by a finalizer, so it is still there, deleting.
    cluster.addObject(
      { group: 'apps', version: 'v1', resource: 'deployments' },
      {
        namespace: s.namespace,
        name: 'kiali-operator',
        finalizers: ['example.com/hold'],
        spec: {
          replicas: 1,
          template: {
            spec: {
              serviceAccountName: 'kiali-operator',
              containers: [{ name: 'op', image: 'quay.io/kiali/kiali-operator:v2.1' }],
            },
          },
        },
        status: { readyReplicas: 0 },
      },
    );
    // Its ClusterRole outlives the namespace: what still ties the account there to the objects.
    const serviceAccount = { namespace: s.namespace, name: 'kiali-operator' };
    cluster.addGrant({ group: 'kiali.io', resource: 'kialis', serviceAccount });
    const kube = await connectKube(cluster);
    const ns = await terminating(kube, s.namespace, hasCondition('NamespaceFinalizersRemaining'));
    const owner = diagnose(await takeSnapshot(kube, ns)).find(
      (f) => f.id === 'finalizer-owner-gone' && f.summary.includes('kiali.io/finalizer'),
    )!;
    expect(owner.leaked).toBe(true);
    expect(owner.summary).toMatch(/deadlock/i);
  });

  test('a foreign spec.finalizers entry is reported apart, with the /finalize remedy', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
    const kube = await connectKube(cluster);
    const fresh = (await kube.getNamespace('pr-1'))!;
    await kube.finalizeNamespace('pr-1', fresh, ['kubernetes', 'example.com/storage-cleanup']);
    const ns = await terminating(kube, 'pr-1', (n) => !n.specFinalizers.includes('kubernetes'));
    expect(ns.specFinalizers).toEqual(['example.com/storage-cleanup']);
    const findings = diagnose(await takeSnapshot(kube, ns));
    const spec = findings.find((f) => f.id === 'spec-finalizers')!;
    expect(spec.evidence[0]).toMatchObject({ object: 'namespace/pr-1', field: 'spec.finalizers' });
    expect(spec.remedy.commands.join('\n')).toContain(
      'kubectl replace --raw /api/v1/namespaces/pr-1/finalize -f -',
    );
    expect(findings.find((f) => f.id === 'namespace-metadata-finalizers')).toBeUndefined();
  });

  test('pods within their grace period: still progressing, with an estimate, not a leak', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
    cluster.addNode('node-1', true);
    cluster.addPod('pr-1', 'web-0', { nodeName: 'node-1', graceSeconds: 20 });
    cluster.addObject(GVR.configmaps, { namespace: 'pr-1', name: 'cfg' });
    const kube = await connectKube(cluster);
    const ns = await terminating(kube, 'pr-1', (n) => n.conditions.length === 5);
    const findings = diagnose(await takeSnapshot(kube, ns));
    expect(ids(findings)).toContain('still-progressing');
    const progressing = findings.find((f) => f.id === 'still-progressing')!;
    expect(progressing).toMatchObject({ severity: 'notice', leaked: false });
    expect(progressing.summary).toMatch(/\d+\s*s/);
    expect(findings.some((f) => f.leaked)).toBe(false);
  });
});
