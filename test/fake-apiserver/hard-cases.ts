/**
 * Setups of blockers real clusters throw at a teardown beyond the first catalogue: a policy engine that refuses on
 * purpose, a conversion webhook that is gone, one leaked finalizer across many namespaces or thousands of objects, and
 * a controller that only RBAC ties to its objects. Each returns an unstarted FakeCluster plus the names involved.
 */
import { type FakeClusterOptions, FakeCluster } from './cluster.js';
import { GVR, PREVIEW_LABEL } from './scenarios.js';
import type { Gvr } from './types.js';

const labels = { [PREVIEW_LABEL.key]: PREVIEW_LABEL.value };

export const WIDGETS: Gvr = { group: 'example.com', version: 'v1', resource: 'widgets' };
const LEASES: Gvr = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };
const RBAC = (resource: string): Gvr => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource });

/** Kyverno's answer as it words a denial (the body of `status.message` in its AdmissionReview response). */
export const KYVERNO_DENIAL =
  "\n\nresource ConfigMap/{ns}/db-credentials was blocked due to the following policies \n\nprotect-credentials:\n  block-delete: 'validation error: ConfigMaps labelled retain=true must not be deleted; ask #platform to release them. rule block-delete failed at path /metadata/labels/retain/'\n";

/**
 * Kyverno is up (its Service has ready endpoints) and denies on purpose the deletion of ConfigMaps labelled
 * retain=true; preview-1 holds one.
 */
export function policyDenies(opts?: FakeClusterOptions): {
  cluster: FakeCluster;
  namespace: string;
  webhook: string;
} {
  const cluster = new FakeCluster(opts);
  const namespace = 'preview-1';
  cluster.addNamespace(namespace, { labels });
  cluster.addObject(GVR.configmaps, { namespace, name: 'db-credentials', labels: { retain: 'true' } });
  cluster.addObject(GVR.configmaps, { namespace, name: 'app-config' });
  const webhook = 'validate.kyverno.svc-fail';
  const service = { namespace: 'kyverno', name: 'kyverno-svc' };
  cluster.addNamespace('kyverno');
  cluster.addService(service.namespace, service.name, 2);
  cluster.addWebhook({
    kind: 'Validating',
    name: webhook,
    failurePolicy: 'Fail',
    resources: ['*'],
    operations: ['DELETE'],
    service,
    down: false,
  });
  cluster.denyWebhook(
    webhook,
    { message: KYVERNO_DENIAL.replace('{ns}', namespace) },
    (obj) => obj?.metadata.labels?.retain === 'true',
  );
  return { cluster, namespace, webhook };
}

/**
 * The CRD gadgets.conv.example.com serves v1beta1 (storage) and v1 through a conversion webhook whose Service
 * conv-system/conv-webhook is gone (its operator uninstalled); preview-1 holds `count` gadgets stored at v1beta1.
 */
export function conversionGone(opts?: FakeClusterOptions & { count?: number; finalizers?: string[] }): {
  cluster: FakeCluster;
  namespace: string;
  crd: string;
  objects: string[];
} {
  const cluster = new FakeCluster(opts);
  const namespace = 'preview-1';
  cluster.addNamespace(namespace, { labels });
  cluster.addCRD({
    group: 'conv.example.com',
    version: 'v1beta1',
    kind: 'Gadget',
    plural: 'gadgets',
    versions: [{ name: 'v1beta1', storage: true }, { name: 'v1' }],
    conversion: { service: { namespace: 'conv-system', name: 'conv-webhook', path: '/convert' } },
  });
  const objects = Array.from({ length: opts?.count ?? 2 }, (_, i) => `gadget-${i + 1}`);
  for (const name of objects) {
    cluster.addObject(
      { group: 'conv.example.com', version: 'v1beta1', resource: 'gadgets' },
      { namespace, name, ...(opts?.finalizers ? { finalizers: opts.finalizers } : {}) },
    );
  }
  return { cluster, namespace, crd: 'gadgets.conv.example.com', objects };
}

function addWidgets(cluster: FakeCluster): void {
  cluster.addCRD({ group: 'example.com', version: 'v1', kind: 'Widget', plural: 'widgets' });
}

/**
 * `n` namespaces preview-1..n, each holding one widget with its own name (`widget-<ns>`) and the finalizer
 * example.com/cleanup, whose controller is uninstalled: one cause in every namespace.
 */
export function leakedAcross(
  n: number,
  opts?: FakeClusterOptions,
): { cluster: FakeCluster; namespaces: string[] } {
  const cluster = new FakeCluster(opts);
  addWidgets(cluster);
  const namespaces = Array.from({ length: n }, (_, i) => `preview-${i + 1}`);
  for (const ns of namespaces) {
    cluster.addNamespace(ns, { labels });
    cluster.addObject(WIDGETS, {
      namespace: ns,
      name: `widget-${ns}-${(ns.length * 7919) % 1000}`,
      finalizers: ['example.com/cleanup'],
    });
  }
  return { cluster, namespaces };
}

/** preview-1 holds `count` widgets (held-0001…) with the finalizer example.com/cleanup, whose controller is gone. */
export function manyLeaked(
  count: number,
  opts?: FakeClusterOptions,
): { cluster: FakeCluster; namespace: string } {
  const cluster = new FakeCluster(opts);
  addWidgets(cluster);
  const namespace = 'preview-1';
  cluster.addNamespace(namespace, { labels });
  for (let i = 1; i <= count; i++) {
    cluster.addObject(WIDGETS, {
      namespace,
      name: `held-${String(i).padStart(4, '0')}`,
      finalizers: ['example.com/cleanup'],
    });
  }
  return { cluster, namespace };
}

/**
 * preview-1 holds gizmos.widgets.dev objects with acme.io/teardown; the controller is Deployment platform/zeta-manager
 * (image registry.local/z), which shares no name with either, and holds a fresh leader Lease. Only RBAC ties it: a
 * ClusterRole granting update on gizmos/finalizers, bound to its ServiceAccount. A decoy operator runs too.
 */
export function ownedByRbac(opts?: FakeClusterOptions & { ready?: number }): {
  cluster: FakeCluster;
  namespace: string;
  controller: string;
} {
  const cluster = new FakeCluster(opts);
  cluster.addCRD({ group: 'widgets.dev', version: 'v2', kind: 'Gizmo', plural: 'gizmos' });
  const namespace = 'preview-1';
  cluster.addNamespace(namespace, { labels });
  const gizmos = { group: 'widgets.dev', version: 'v2', resource: 'gizmos' };
  for (const name of ['alpha', 'beta'])
    cluster.addObject(gizmos, { namespace, name, finalizers: ['acme.io/teardown'] });
  cluster.addNamespace('platform');
  cluster.addDeployment('platform', 'zeta-manager', {
    image: 'registry.local/z:1',
    readyReplicas: opts?.ready ?? 1,
    serviceAccount: 'zeta',
  });
  cluster.addNamespace('kiali');
  cluster.addDeployment('kiali', 'kiali-operator', { image: 'quay.io/kiali/kiali-operator:v2' });
  cluster.addObject(RBAC('clusterroles'), {
    name: 'zeta-role',
    rules: [
      {
        apiGroups: ['widgets.dev'],
        resources: ['gizmos', 'gizmos/finalizers'],
        verbs: ['get', 'list', 'watch', 'update', 'patch'],
      },
    ],
  });
  cluster.addObject(RBAC('clusterrolebindings'), {
    name: 'zeta',
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'zeta-role' },
    subjects: [{ kind: 'ServiceAccount', name: 'zeta', namespace: 'platform' }],
  });
  cluster.addObject(LEASES, {
    namespace: 'platform',
    name: 'zeta-leader',
    spec: {
      holderIdentity: 'zeta-manager-6d4f9c7b8-x2kqz_0c1d',
      leaseDurationSeconds: 15,
      renewTime: new Date().toISOString(),
    },
  });
  return { cluster, namespace, controller: 'Deployment platform/zeta-manager' };
}
