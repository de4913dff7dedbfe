/**
 * Same findings either way: every diagnosis scenario of the tests, over real HTTPS against the fake API server,
 * diagnosed from the targeted scan (when the conditions allow it) and from the full scan, must give identical
 * findings.
 */
import { diagnose, takeSnapshot } from '../../src/diagnosis/index.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import {
  FakeCluster,
  GVR,
  kialiStuck,
  kubesphereStuck,
  metricsApiDown,
  podOnDeadNode,
  pvcInUse,
  webhookBlocksDelete,
} from '../fake-apiserver/index.js';
import { FAST, connectKube, terminating } from '../helpers/harness.js';

const WIDGETS = { group: 'example.com', version: 'v1', resource: 'widgets' };
const DEPLOYMENTS = { group: 'apps', version: 'v1', resource: 'deployments' };

interface Row {
  name: string;
  given: () => { cluster: FakeCluster; namespace: string };
  ready: (ns: NamespaceState) => boolean;
  /** Whether the conditions are expected to allow the targeted scan. */
  targeted: boolean;
}

const hasCondition = (type: string) => (ns: NamespaceState) =>
  ns.conditions.some((c) => c.type === type && c.status === 'True');
const afterFirstPass = (ns: NamespaceState): boolean => ns.conditions.length === 5;

function withWidgets(): { cluster: FakeCluster; namespace: string } {
  const s = kialiStuck({ controller: FAST });
  s.cluster.addCRD({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets' });
  for (const name of ['w1', 'w2', 'w3'])
    s.cluster.addObject(WIDGETS, { namespace: s.namespace, name, finalizers: ['example.com/cleanup'] });
  s.cluster.addObject(GVR.configmaps, {
    namespace: s.namespace,
    name: 'held',
    finalizers: ['example.com/hold'],
  });
  return s;
}

const rows: Row[] = [
  {
    name: 'kiali CR stuck on its finalizer',
    given: () => kialiStuck({ controller: FAST }),
    ready: hasCondition('NamespaceFinalizersRemaining'),
    targeted: true,
  },
  {
    name: 'CRs of two groups and a ConfigMap held by finalizers',
    given: withWidgets,
    ready: hasCondition('NamespaceFinalizersRemaining'),
    targeted: true,
  },
  {
    name: 'kiali with its operator running in another namespace',
    given: () => {
      const s = kialiStuck({ controller: FAST });
      s.cluster.addNamespace('kiali-operator');
      s.cluster.addDeployment('kiali-operator', 'kiali-operator', {
        readyReplicas: 1,
        image: 'quay.io/kiali/kiali-operator:v2.1',
        serviceAccount: 'kiali-operator',
      });
      const serviceAccount = { namespace: 'kiali-operator', name: 'kiali-operator' };
      s.cluster.addGrant({ group: 'kiali.io', resource: 'kialis', serviceAccount });
      return s;
    },
    ready: hasCondition('NamespaceFinalizersRemaining'),
    targeted: true,
  },
  {
    name: 'kiali with its operator deleting in the same namespace (deadlock)',
    given: () => {
      const s = kialiStuck({ controller: FAST });
      s.cluster.addObject(DEPLOYMENTS, {
        namespace: s.namespace,
        name: 'kiali-operator',
        finalizers: ['example.com/hold'],
        spec: {
          replicas: 1,
          template: { spec: { containers: [{ name: 'op', image: 'quay.io/kiali/kiali-operator:v2.1' }] } },
        },
        status: { readyReplicas: 0 },
      });
      return s;
    },
    ready: hasCondition('NamespaceFinalizersRemaining'),
    targeted: true,
  },
  {
    name: 'kubesphere namespace metadata finalizer',
    given: () => kubesphereStuck({ controller: FAST }),
    ready: afterFirstPass,
    targeted: false,
  },
  {
    name: 'metrics APIService down',
    given: () => metricsApiDown({ controller: FAST }),
    ready: hasCondition('NamespaceDeletionDiscoveryFailure'),
    targeted: false,
  },
  {
    name: 'metrics APIService down and a Widget held by a finalizer',
    given: () => {
      const s = metricsApiDown({ controller: FAST });
      s.cluster.addCRD({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets' });
      s.cluster.addObject(WIDGETS, {
        namespace: s.namespace,
        name: 'w1',
        finalizers: ['example.com/cleanup'],
      });
      return s;
    },
    ready: hasCondition('NamespaceDeletionDiscoveryFailure'),
    targeted: false,
  },
  {
    name: 'pod on a NotReady node',
    given: () => podOnDeadNode({ controller: FAST }),
    ready: afterFirstPass,
    targeted: false,
  },
  {
    name: 'pvc-protection while a pod mounts the claim',
    given: () => pvcInUse({ controller: FAST }),
    ready: afterFirstPass,
    targeted: false,
  },
  {
    name: 'a Fail webhook refuses the deletes',
    given: () => webhookBlocksDelete({ controller: FAST }),
    ready: hasCondition('NamespaceDeletionContentFailure'),
    targeted: false,
  },
  {
    name: 'pods within their grace period and a ConfigMap',
    given: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('pr-1');
      cluster.addNode('node-1', true);
      cluster.addPod('pr-1', 'web-0', { nodeName: 'node-1', graceSeconds: 20 });
      cluster.addObject(GVR.configmaps, { namespace: 'pr-1', name: 'cfg' });
      return { cluster, namespace: 'pr-1' };
    },
    ready: afterFirstPass,
    targeted: false,
  },
];

describe('the targeted and the full scan give identical diagnoses', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  it.each(rows)('$name', async ({ given, ready, targeted }) => {
    const s = given();
    cluster = s.cluster;
    const kube = await connectKube(cluster);
    const ns = await terminating(kube, s.namespace, ready, 200);
    const now = Date.now();
    // The fake controller's first pass comes after FAST.queueDelayMs, not upstream's 5 s.
    const opts = { clock: () => now, controllerFirstPassMs: FAST.queueDelayMs };
    const auto = await takeSnapshot(kube, ns, opts);
    const full = await takeSnapshot(kube, ns, { ...opts, scan: 'full' });
    expect(auto.scan.mode).toBe(targeted ? 'targeted' : 'full');
    expect(full.scan).toMatchObject({ mode: 'full', reason: 'requested' });
    expect(diagnose(auto)).toEqual(diagnose(full));
    if (targeted) expect(auto.cost.requests).toBeLessThan(full.cost.requests);
    await kube.close();
  });
});
