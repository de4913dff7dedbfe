/**
 * The snapshot and the rules through the real adapter, over real HTTPS, against the fake API server: each field
 * scenario is deleted, the fake namespace controller writes its conditions, and the diagnosis must name the culprit.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { diagnose, takeSnapshot } from '../../src/diagnosis/index.js';
import type { Finding } from '../../src/model/findings.js';
import { createKube, type KubeClient } from '../../src/kube/client.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import {
  FakeCluster,
  kialiStuck,
  kubesphereStuck,
  metricsApiDown,
  podOnDeadNode,
  pvcInUse,
  webhookBlocksDelete,
} from '../fake-apiserver/index.js';

const FAST = { queueDelayMs: 20, finalizerRecheckMs: 60, errorBackoffMaxMs: 200 };

interface Row {
  name: string;
  given: () => { cluster: FakeCluster; namespace: string };
  /** When the namespace is far enough along to diagnose. */
  ready: (ns: NamespaceState) => boolean;
  expect: (findings: Finding[]) => void;
}

const hasCondition = (type: string) => (ns: NamespaceState) =>
  ns.conditions.some((c) => c.type === type && c.status === 'True');
const afterFirstPass = (ns: NamespaceState): boolean => ns.conditions.length > 0;
const find = (fs: Finding[], id: string): Finding[] => fs.filter((f) => f.id === id);

const rows: Row[] = [
  {
    name: 'kiali CR with kiali.io/finalizer, no operator: leaked',
    given: () => kialiStuck({ controller: FAST }),
    ready: hasCondition('NamespaceFinalizersRemaining'),
    expect: (fs) => {
      expect(find(fs, 'object-finalizers').map((f) => f.evidence[0]?.object)).toEqual([
        'kialis.kiali.io/kiali',
      ]);
      expect(find(fs, 'finalizer-owner-gone')).toMatchObject([{ severity: 'error', leaked: true }]);
    },
  },
  {
    name: 'kubesphere metadata finalizer, no KubeSphere: leaked',
    given: () => kubesphereStuck({ controller: FAST }),
    ready: afterFirstPass,
    expect: (fs) => {
      const [f] = find(fs, 'namespace-metadata-finalizers');
      expect(f).toMatchObject({ leaked: true });
      expect(f?.summary).toContain('finalizers.kubesphere.io/namespaces');
    },
  },
  {
    name: 'metrics APIService down: named, with its missing service',
    given: () => metricsApiDown({ controller: FAST }),
    ready: hasCondition('NamespaceDeletionDiscoveryFailure'),
    expect: (fs) => {
      const [f] = find(fs, 'apiservice-unavailable');
      expect(f?.summary).toContain('APIService v1beta1.metrics.k8s.io is unavailable');
      expect(f?.summary).toContain('kube-system/metrics-server');
      expect(f?.remedy.commands).toContain('kubectl delete apiservice v1beta1.metrics.k8s.io');
    },
  },
  {
    name: 'pod on a NotReady node',
    given: () => podOnDeadNode({ controller: FAST }),
    ready: afterFirstPass,
    expect: (fs) => {
      const [f] = find(fs, 'pods-not-terminating').filter((x) => x.severity === 'error');
      expect(f?.summary).toContain('pod web-0');
      expect(f?.summary).toContain('node-1');
    },
  },
  {
    name: 'pvc-protection while the pod still mounts the claim: waiting, not leaked',
    given: () => pvcInUse({ controller: FAST }),
    ready: afterFirstPass,
    expect: (fs) => {
      const pvc = find(fs, 'finalizer-owner-gone').filter((f) => f.summary.includes('pvc-protection'));
      expect(pvc).toMatchObject([{ severity: 'notice', leaked: false }]);
    },
  },
  {
    name: 'a Fail webhook whose service is down refuses the deletes',
    given: () => webhookBlocksDelete({ controller: FAST }),
    ready: hasCondition('NamespaceDeletionContentFailure'),
    expect: (fs) => {
      const named = find(fs, 'content-delete-refused').filter((f) =>
        f.summary.includes('deny-delete.example.com'),
      );
      expect(named.length).toBeGreaterThan(0);
    },
  },
];

async function until(
  kube: KubeClient,
  name: string,
  ready: (ns: NamespaceState) => boolean,
): Promise<NamespaceState> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ns = await kube.getNamespace(name);
    if (ns && ready(ns)) return ns;
    if (Date.now() > deadline)
      throw new Error(`namespace ${name} never got ready: ${JSON.stringify(ns?.conditions)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('diagnosis over real HTTPS against the fake API server', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  it.each(rows)('$name', async ({ given, ready, expect: check }) => {
    const scenario = given();
    cluster = scenario.cluster;
    const { kubeconfig } = await cluster.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const kube = createKube(kc);
    await kube.deleteNamespace(scenario.namespace);
    const ns = await until(kube, scenario.namespace, ready);

    const before = cluster.requests.length;
    const snapshot = await takeSnapshot(kube, ns);
    const during = cluster.requests.slice(before);
    expect(during.every((r) => r.method === 'GET')).toBe(true);
    expect(snapshot.cost.requests).toBeGreaterThan(0);
    expect(snapshot.readErrors).toEqual([]);
    check(diagnose(snapshot));
  });
});
