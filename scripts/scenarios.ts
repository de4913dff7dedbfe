/** Real runs of the engine against the embedded fake cluster, for the README pictures and size figures. */
import {
  FAST,
  FakeCluster,
  PREVIEW_OWNER_SELECTOR as SELECTOR,
  addDeadMetricsApi,
  addDownWebhook,
  addPodOnDeadNode,
  addKialiCR,
  addKialiCRD,
  addPreview,
  conversionGone,
  leakedAcross,
  manyLeaked,
  ownedByRbac,
  policyDenies,
  previewOwner,
} from '../test/fake-apiserver/index.js';
import { runEngine } from '../test/helpers/harness.js';
import type { RunReport } from '../src/model/run.js';

/** Preview namespaces `preview-pr-<pr>`, each holding a Kiali CR whose finalizer leaked. */
function stuckOnKiali(prs: number[]): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  addKialiCRD(cluster);
  for (const pr of prs) {
    cluster.addNamespace(`preview-pr-${pr}`, { labels: previewOwner(pr) });
    addKialiCR(cluster, `preview-pr-${pr}`);
  }
  return cluster;
}

/** Pod `db-0` of preview-pr-123 on node-dead-1, which is NotReady. */
function podOnDeadNode(): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addNamespace('preview-pr-123', { labels: previewOwner(123) });
  addPodOnDeadNode(cluster, 'preview-pr-123', 'db-0', 'node-dead-1');
  return cluster;
}

/** preview-pr-123 with a Kiali CR nothing will release, preview-pr-124 plain, preview-pr-125 kept by a webhook. */
function planWorld(): FakeCluster {
  const cluster = stuckOnKiali([123]);
  addPreview(cluster, 124, 'search');
  const kept = addPreview(cluster, 125, 'search');
  const webhook = 'keep-namespaces.policy.example.com';
  cluster.addWebhook({
    kind: 'Validating',
    name: webhook,
    failurePolicy: 'Fail',
    resources: ['namespaces'],
    operations: ['DELETE'],
    service: { namespace: 'policy', name: 'keep-namespaces' },
    down: false,
  });
  cluster.addService('policy', 'keep-namespaces', 1);
  cluster.denyWebhook(
    webhook,
    { code: 403, reason: 'Forbidden', message: 'namespace is on legal hold until 2026-12-31' },
    (obj) => obj?.metadata.name === kept,
  );
  return cluster;
}

export interface Scenario {
  name: string;
  title: string;
  build: () => FakeCluster;
  inputs: Record<string, string>;
}

/** The scenarios, each a cluster and the action inputs a workflow would pass. */
export const SCENARIOS: Scenario[] = [
  {
    name: 'one-stuck',
    title: 'One namespace stuck on a leaked finalizer',
    build: () => stuckOnKiali([123]),
    inputs: { selector: SELECTOR, timeout: '3s' },
  },
  {
    name: 'forty',
    title: '40 namespaces, 10 stuck on the same leaked finalizer',
    build: () => {
      const cluster = new FakeCluster({ controller: FAST });
      addKialiCRD(cluster);
      for (let i = 1; i <= 40; i++) {
        const ns = addPreview(cluster, 100 + i, i % 2 ? 'checkout' : 'search');
        if (i % 4 === 0) addKialiCR(cluster, ns);
      }
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '10s' },
  },
  {
    name: 'forced',
    title: 'Forced: the leaked finalizer removed by policy, then /finalize with a dead APIService',
    build: () => {
      const cluster = stuckOnKiali([123]);
      addPreview(cluster, 124, 'search');
      addDeadMetricsApi(cluster);
      return cluster;
    },
    inputs: {
      selector: SELECTOR,
      timeout: '8s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/*',
      'force-finalize-namespace': 'true',
    },
  },
  {
    name: 'dry-run',
    title: 'Dry-run: what forcing would do',
    build: () => stuckOnKiali([123]),
    inputs: {
      selector: SELECTOR,
      timeout: '4s',
      force: 'dry-run',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/*',
    },
  },
  {
    name: 'plan',
    title: 'Plan mode: a leak predicted, a webhook that would refuse a DELETE, nothing changed',
    build: planWorld,
    inputs: {
      selector: SELECTOR,
      timeout: '10s',
      'dry-run': 'true',
      force: 'on',
      'force-finalizers': 'kiali.io/*',
    },
  },
  {
    name: 'dead-node',
    title: 'A pod on a dead node',
    build: podOnDeadNode,
    inputs: { selector: SELECTOR, timeout: '4s' },
  },
  {
    name: 'dead-node-forced',
    title: 'A pod on a dead node, deleted under force-delete-pods: lost-nodes',
    build: podOnDeadNode,
    inputs: {
      selector: SELECTOR,
      timeout: '8s',
      force: 'on',
      'force-after': '1s',
      'force-delete-pods': 'lost-nodes',
    },
  },
  {
    name: 'apiservice',
    title: 'A dead APIService blocks every namespace deletion',
    build: () => {
      const cluster = new FakeCluster({ controller: FAST });
      addPreview(cluster, 123);
      addDeadMetricsApi(cluster);
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '4s' },
  },
  {
    name: 'webhook',
    title: 'A webhook whose service is down refuses deletes',
    build: () => {
      const cluster = new FakeCluster({ controller: FAST });
      addPreview(cluster, 123);
      addDownWebhook(cluster, 'deny-delete.example.com', ['configmaps'], {
        namespace: 'webhook-system',
        name: 'deny-delete',
      });
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '4s' },
  },
  {
    name: 'policy-denies',
    title: 'A policy engine that is up denies a delete on purpose',
    build: () => policyDenies({ controller: FAST }).cluster,
    inputs: { namespaces: 'preview-1', timeout: '4s' },
  },
  {
    name: 'conversion',
    title: 'A CRD whose conversion webhook is gone',
    build: () => conversionGone({ controller: FAST, count: 3 }).cluster,
    inputs: { namespaces: 'preview-1', timeout: '4s' },
  },
  {
    name: 'ten-one-cause',
    title: 'Ten namespaces, one leaked finalizer, each object its own name',
    build: () => leakedAcross(10, { controller: FAST }).cluster,
    inputs: { selector: 'app.kubernetes.io/part-of=preview', timeout: '4s' },
  },
  {
    name: 'thousands-dry-run',
    title: '2,000 objects with one leaked finalizer, forcing in dry-run',
    build: () => manyLeaked(2000, { controller: FAST }).cluster,
    inputs: {
      namespaces: 'preview-1',
      timeout: '8s',
      force: 'dry-run',
      'force-after': '1s',
      'force-finalizers': 'example.com/*',
    },
  },
  {
    name: 'rbac-owner',
    title: 'A running controller that only RBAC ties to its objects',
    build: () => ownedByRbac({ controller: FAST }).cluster,
    inputs: { namespaces: 'preview-1', timeout: '4s' },
  },
  {
    name: 'put-back',
    title: 'Forcing answered without its effect: a mutating webhook puts the finalizer back',
    build: () => {
      const cluster = stuckOnKiali([123]);
      cluster.addNamespace('kiali-operator');
      cluster.addService('kiali-operator', 'kiali-webhook', 1);
      cluster.addWebhook({
        kind: 'Mutating',
        name: 'finalizers.kiali.io',
        failurePolicy: 'Fail',
        resources: ['kialis'],
        operations: ['UPDATE'],
        apiGroups: ['kiali.io'],
        service: { namespace: 'kiali-operator', name: 'kiali-webhook' },
        down: false,
      });
      cluster.putBackFinalizer('finalizers.kiali.io', 'kiali.io/finalizer');
      return cluster;
    },
    inputs: {
      selector: SELECTOR,
      timeout: '14s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/*',
    },
  },
];

/** Run one scenario for real and return its report (the cluster is stopped afterwards). */
export async function runScenario(s: Scenario): Promise<RunReport> {
  const cluster = s.build();
  const { kubeconfig } = await cluster.start();
  try {
    return (await runEngine(kubeconfig, { ...s.inputs, kubeconfig }, { pollMs: 500 })).report;
  } finally {
    await cluster.stop();
  }
}
