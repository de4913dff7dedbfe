/** Real runs of the engine against the embedded fake cluster, for the README pictures and size figures. */
import {
  FakeCluster,
  GVR,
  conversionGone,
  leakedAcross,
  manyLeaked,
  ownedByRbac,
  policyDenies,
} from '../test/fake-apiserver/index.js';
import { runEngine } from '../test/helpers/harness.js';
import type { RunReport } from '../src/model/run.js';

const FAST = { queueDelayMs: 20, finalizerRecheckMs: 60, errorBackoffMaxMs: 200 };
const SELECTOR = 'preview.example.com/env=preview';

/** Labels a preview namespace carries: what tells its owner. */
function owner(pr: number, team = 'checkout'): Record<string, string> {
  return { 'preview.example.com/env': 'preview', 'preview.example.com/pr': String(pr), team };
}

function addKiali(cluster: FakeCluster, namespace: string): void {
  cluster.addObject(GVR.kialis, { namespace, name: 'kiali', finalizers: ['kiali.io/finalizer'] });
}

/** A preview namespace holding one ConfigMap. */
function addPreview(cluster: FakeCluster, pr: number, team = 'checkout'): void {
  const namespace = `preview-pr-${pr}`;
  cluster.addNamespace(namespace, { labels: owner(pr, team) });
  cluster.addObject(GVR.configmaps, { namespace, name: 'settings', data: {} });
}

/** metrics.k8s.io served by a Service that does not exist: discovery fails cluster-wide. */
function addDeadMetricsApi(cluster: FakeCluster): void {
  cluster.addAPIService({
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
    available: false,
  });
}

function kialiCluster(): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
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
    build: () => {
      const cluster = kialiCluster();
      cluster.addNamespace('preview-pr-123', { labels: owner(123) });
      addKiali(cluster, 'preview-pr-123');
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '3s' },
  },
  {
    name: 'forty',
    title: '40 namespaces, 10 stuck on the same leaked finalizer',
    build: () => {
      const cluster = kialiCluster();
      for (let i = 1; i <= 40; i++) {
        const ns = `preview-pr-${100 + i}`;
        cluster.addNamespace(ns, { labels: owner(100 + i, i % 2 ? 'checkout' : 'search') });
        cluster.addObject(GVR.configmaps, { namespace: ns, name: 'settings', data: { a: 'b' } });
        if (i % 4 === 0) addKiali(cluster, ns);
      }
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '10s' },
  },
  {
    name: 'forced',
    title: 'Forced: the leaked finalizer removed by policy, then /finalize with a dead APIService',
    build: () => {
      const cluster = kialiCluster();
      cluster.addNamespace('preview-pr-123', { labels: owner(123) });
      addKiali(cluster, 'preview-pr-123');
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
    build: () => {
      const cluster = kialiCluster();
      cluster.addNamespace('preview-pr-123', { labels: owner(123) });
      addKiali(cluster, 'preview-pr-123');
      return cluster;
    },
    inputs: {
      selector: SELECTOR,
      timeout: '4s',
      force: 'dry-run',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/*',
    },
  },
  {
    name: 'dead-node',
    title: 'A pod on a dead node',
    build: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('preview-pr-123', { labels: owner(123) });
      cluster.addNode('node-dead-1', false);
      cluster.addPod('preview-pr-123', 'db-0', { nodeName: 'node-dead-1', graceSeconds: 30 });
      return cluster;
    },
    inputs: { selector: SELECTOR, timeout: '4s' },
  },
  {
    name: 'dead-node-forced',
    title: 'A pod on a dead node, deleted under force-delete-pods: lost-nodes',
    build: () => {
      const cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('preview-pr-123', { labels: owner(123) });
      cluster.addNode('node-dead-1', false);
      cluster.addPod('preview-pr-123', 'db-0', { nodeName: 'node-dead-1', graceSeconds: 30 });
      return cluster;
    },
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
      cluster.addWebhook({
        kind: 'Validating',
        name: 'deny-delete.example.com',
        failurePolicy: 'Fail',
        resources: ['configmaps'],
        operations: ['DELETE'],
        service: { namespace: 'webhook-system', name: 'deny-delete' },
        down: true,
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
