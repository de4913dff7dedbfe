/** One-line test setups: each returns an unstarted FakeCluster plus the names involved. Data only. */
import { type FakeClusterOptions, FakeCluster } from './cluster.js';
import type { Gvr } from './types.js';

/** GVRs of the types the scenarios use. */
export const GVR = {
  namespaces: { group: '', version: 'v1', resource: 'namespaces' },
  configmaps: { group: '', version: 'v1', resource: 'configmaps' },
  pods: { group: '', version: 'v1', resource: 'pods' },
  nodes: { group: '', version: 'v1', resource: 'nodes' },
  persistentvolumeclaims: { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
  apiservices: { group: 'apiregistration.k8s.io', version: 'v1', resource: 'apiservices' },
  validatingwebhookconfigurations: {
    group: 'admissionregistration.k8s.io',
    version: 'v1',
    resource: 'validatingwebhookconfigurations',
  },
  kialis: { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' },
} as const satisfies Record<string, Gvr>;

/** The label every scenario namespace that is meant to be torn down carries. */
export const PREVIEW_LABEL = { key: 'app.kubernetes.io/part-of', value: 'preview' };
const previewLabels = { [PREVIEW_LABEL.key]: PREVIEW_LABEL.value };

function configMap(cluster: FakeCluster, namespace: string, name = 'app-config'): void {
  cluster.addObject(GVR.configmaps, { namespace, name, data: { 'app.properties': 'color=blue\n' } });
}

/** A cluster with namespace `preview-1`, labelled to be torn down. */
function preview1(opts?: FakeClusterOptions): { cluster: FakeCluster; namespace: string } {
  const cluster = new FakeCluster(opts);
  const namespace = 'preview-1';
  cluster.addNamespace(namespace, { labels: previewLabels });
  return { cluster, namespace };
}

/** A Fail-policy validating webhook on DELETE of `resources` whose service is down: every such delete is refused. */
export function addDownWebhook(
  cluster: FakeCluster,
  name: string,
  resources: string[],
  service: { namespace: string; name: string },
): void {
  cluster.addWebhook({
    kind: 'Validating',
    name,
    failurePolicy: 'Fail',
    resources,
    operations: ['DELETE'],
    service,
    down: true,
  });
}

/** Pod `pod` in `namespace` on `node`, which is NotReady: once deleted it stays Terminating forever. */
export function addPodOnDeadNode(
  cluster: FakeCluster,
  namespace: string,
  pod: string,
  node: string,
  graceSeconds = 30,
): void {
  cluster.addNode(node, false);
  cluster.addPod(namespace, pod, { nodeName: node, graceSeconds });
}

/** `n` namespaces `preview-1..n` labelled app.kubernetes.io/part-of=preview, each with one ConfigMap. */
export function cleanNamespaces(
  n: number,
  opts?: FakeClusterOptions,
): { cluster: FakeCluster; namespaces: string[]; selector: string } {
  const cluster = new FakeCluster(opts);
  const namespaces = Array.from({ length: n }, (_, i) => `preview-${i + 1}`);
  for (const ns of namespaces) {
    cluster.addNamespace(ns, { labels: previewLabels });
    configMap(cluster, ns);
  }
  return { cluster, namespaces, selector: `${PREVIEW_LABEL.key}=${PREVIEW_LABEL.value}` };
}

/** The labels of a pull request's preview namespace (environment, pull request, team): what tells its owner. */
export function previewOwner(pr: number, team = 'checkout'): Record<string, string> {
  return { 'preview.example.com/env': 'preview', 'preview.example.com/pr': String(pr), team };
}

/** `preview.example.com/env=preview`: selects every namespace `addPreview` makes. */
export const PREVIEW_OWNER_SELECTOR = 'preview.example.com/env=preview';

/** Namespace `preview-pr-<pr>` with the owner labels of pull request `pr`, holding one ConfigMap. */
export function addPreview(cluster: FakeCluster, pr: number, team = 'checkout'): string {
  const namespace = `preview-pr-${pr}`;
  cluster.addNamespace(namespace, { labels: previewOwner(pr, team) });
  cluster.addObject(GVR.configmaps, { namespace, name: 'settings', data: { a: 'b' } });
  return namespace;
}

/** The Kiali CRD (once per cluster). */
export function addKialiCRD(cluster: FakeCluster): void {
  cluster.addCRD({
    group: 'kiali.io',
    version: 'v1alpha1',
    kind: 'Kiali',
    plural: 'kialis',
    namespaced: true,
  });
}

/** CR `kiali` holding `kiali.io/finalizer` in `namespace`; no kiali operator runs. */
export function addKialiCR(cluster: FakeCluster, namespace: string, spec?: Record<string, unknown>): void {
  cluster.addObject(GVR.kialis, {
    namespace,
    name: 'kiali',
    finalizers: ['kiali.io/finalizer'],
    ...(spec ? { spec } : {}),
  });
}

/** APIService v1beta1.metrics.k8s.io served by kube-system/metrics-server, which does not exist. */
export function addDeadMetricsApi(cluster: FakeCluster): void {
  cluster.addAPIService({
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
    available: false,
  });
}

/** istio-system holds Kiali CR `kiali` with `kiali.io/finalizer`; no kiali operator runs. */
export function kialiStuck(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  gvr: typeof GVR.kialis;
  object: string;
  finalizer: string;
} {
  const cluster = new FakeCluster(opts);
  const namespace = 'istio-system';
  cluster.addNamespace(namespace, { labels: previewLabels });
  addKialiCRD(cluster);
  addKialiCR(cluster, namespace, { auth: { strategy: 'anonymous' }, deployment: { namespace } });
  return { cluster, namespace, gvr: GVR.kialis, object: 'kiali', finalizer: 'kiali.io/finalizer' };
}

/** kubesphere-system carries metadata.finalizers ["finalizers.kubesphere.io/namespaces"]; no KubeSphere runs. */
export function kubesphereStuck(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  finalizer: string;
} {
  const cluster = new FakeCluster(opts);
  const namespace = 'kubesphere-system';
  const finalizer = 'finalizers.kubesphere.io/namespaces';
  cluster.addNamespace(namespace, {
    labels: { ...previewLabels, 'kubesphere.io/workspace': 'system-workspace' },
    metadataFinalizers: [finalizer],
  });
  configMap(cluster, namespace, 'ks-console-config');
  return { cluster, namespace, finalizer };
}

/** APIService v1beta1.metrics.k8s.io points at kube-system/metrics-server, which does not exist. */
export function metricsApiDown(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  apiService: string;
  groupVersion: string;
} {
  const { cluster, namespace } = preview1(opts);
  configMap(cluster, namespace);
  addDeadMetricsApi(cluster);
  return { cluster, namespace, apiService: 'v1beta1.metrics.k8s.io', groupVersion: 'metrics.k8s.io/v1beta1' };
}

/** Pod `web-0` runs on `node-1`, which is NotReady: once deleted it stays Terminating forever. */
export function podOnDeadNode(opts?: FakeClusterOptions & { graceSeconds?: number }): {
  cluster: FakeCluster;
  namespace: string;
  pod: string;
  node: string;
} {
  const { cluster, namespace } = preview1(opts);
  addPodOnDeadNode(cluster, namespace, 'web-0', 'node-1', opts?.graceSeconds);
  return { cluster, namespace, pod: 'web-0', node: 'node-1' };
}

/** PVC `data` (kubernetes.io/pvc-protection) is mounted by pod `db-0` on Ready `node-1`, which takes long to stop. */
export function pvcInUse(opts?: FakeClusterOptions & { graceSeconds?: number }): {
  cluster: FakeCluster;
  namespace: string;
  pvc: string;
  pod: string;
  node: string;
} {
  const { cluster, namespace } = preview1(opts);
  cluster.addNode('node-1', true);
  cluster.addObject(GVR.persistentvolumeclaims, {
    namespace,
    name: 'data',
    spec: {
      accessModes: ['ReadWriteOnce'],
      resources: { requests: { storage: '1Gi' } },
      storageClassName: 'standard',
    },
  });
  cluster.addPod(namespace, 'db-0', {
    nodeName: 'node-1',
    claims: ['data'],
    graceSeconds: opts?.graceSeconds ?? 3600,
  });
  return { cluster, namespace, pvc: 'data', pod: 'db-0', node: 'node-1' };
}

/** A Fail-policy validating webhook on configmap DELETE whose service is down; preview-1 holds a ConfigMap. */
export function webhookBlocksDelete(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  webhook: string;
  configMap: string;
  service: { namespace: string; name: string };
} {
  const { cluster, namespace } = preview1(opts);
  const service = { namespace: 'webhook-system', name: 'deny-delete' };
  configMap(cluster, namespace);
  addDownWebhook(cluster, 'deny-delete.example.com', ['configmaps'], service);
  return { cluster, namespace, webhook: 'deny-delete.example.com', configMap: 'app-config', service };
}

/**
 * Kiali CR `kiali` (kiali.io/finalizer) in preview-1, and a Fail-policy validating webhook on kialis DELETE whose
 * service is down: the namespace controller's delete is refused, so the CR is never marked for deletion.
 */
export function webhookBlocksCR(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  webhook: string;
} {
  const { cluster, namespace } = preview1(opts);
  addKialiCRD(cluster);
  addKialiCR(cluster, namespace);
  const webhook = 'kiali-guard.example.com';
  addDownWebhook(cluster, webhook, ['kialis'], { namespace: 'kiali-operator', name: 'kiali-guard' });
  return { cluster, namespace, webhook };
}

/**
 * Pod `db-0` mounts PVC `data` (kubernetes.io/pvc-protection) on `node-1`, which stopped reporting `lostMinutes`
 * ago (default 10): with pods-first deletion the pod stays Terminating and the claim is never deleted.
 */
export function claimOnLostNode(
  opts?: FakeClusterOptions & { lostMinutes?: number },
): ReturnType<typeof pvcInUse> {
  const s = pvcInUse({ ...opts, graceSeconds: 30 });
  s.cluster.addNode(s.node, false, { since: new Date(Date.now() - (opts?.lostMinutes ?? 10) * 60_000) });
  return s;
}
