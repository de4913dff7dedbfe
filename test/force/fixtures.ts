/** Namespaces and findings shaped like the field reports: kiali CR, kubesphere, dead metrics APIService, PVC. */
import type { Finding, ForceTarget } from '../../src/model/findings.js';
import type { AuditFields, ForcePolicy, StepOutcome } from '../../src/model/force.js';
import type { NamespaceState, ObjectMeta } from '../../src/model/cluster.js';

export const DELETED_AT = '2026-11-22T10:00:00.000Z';
export const T0 = Date.parse(DELETED_AT);
export const MINUTE = 60_000;

/** A namespace Terminating since DELETED_AT, with `kubernetes` in spec.finalizers. */
export function terminating(over: Partial<NamespaceState> = {}): NamespaceState {
  return {
    name: 'preview-42',
    uid: 'uid-ns',
    resourceVersion: '10',
    creationTimestamp: '2026-11-22T09:00:00Z',
    deletionTimestamp: DELETED_AT,
    phase: 'Terminating',
    labels: { 'kubernetes.io/metadata.name': over.name ?? 'preview-42' },
    metadataFinalizers: [],
    specFinalizers: ['kubernetes'],
    conditions: [],
    ...over,
  };
}

export const policy = (over: Partial<ForcePolicy> = {}): ForcePolicy => ({
  mode: 'on',
  afterMs: 10 * MINUTE,
  finalizerPatterns: [],
  finalizeNamespace: false,
  deletePods: 'off',
  ...over,
});

function finding(id: string, summary: string, targets: ForceTarget[], over: Partial<Finding> = {}): Finding {
  return {
    id,
    severity: 'error',
    cause: id,
    summary,
    evidence: [],
    remedy: { commands: [] },
    leaked: false,
    targets,
    ...over,
  };
}

export const KIALIS = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis', kind: 'Kiali' };
export const PVCS = {
  group: '',
  version: 'v1',
  resource: 'persistentvolumeclaims',
  kind: 'PersistentVolumeClaim',
};

/** A leftover Kiali CR holding kiali.io/finalizer, its operator uninstalled. */
export function kialiFinding(finalizers = ['kiali.io/finalizer']): Finding {
  const target: ForceTarget = {
    kind: 'object-finalizers',
    resource: KIALIS,
    name: 'kiali',
    uid: 'uid-kiali',
    resourceVersion: '7',
    deleting: true,
    finalizers,
    waiting: [],
  };
  return finding(
    'finalizer-owner-missing',
    'kialis.kiali.io/kiali holds kiali.io/finalizer; kiali-operator is not running',
    [target],
    {
      owner: { controller: 'kiali-operator', present: false },
      leaked: true,
    },
  );
}

/** The kubesphere namespace finalizer left behind after kubesphere was uninstalled. */
export function kubesphereFinding(): Finding {
  return finding(
    'namespace-metadata-finalizer',
    'namespace metadata.finalizers holds finalizers.kubesphere.io/namespaces; ks-controller-manager is not running',
    [{ kind: 'namespace-metadata-finalizers', finalizers: ['finalizers.kubesphere.io/namespaces'] }],
    { owner: { controller: 'ks-controller-manager', present: false }, leaked: true },
  );
}

export const DISCOVERY_FAILED = {
  type: 'NamespaceDeletionDiscoveryFailure',
  status: 'True',
  reason: 'DiscoveryFailed',
  message:
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
};

/** APIService v1beta1.metrics.k8s.io is False (ServiceNotFound): the controller can never finalize. */
export function deadApiServiceFinding(): Finding {
  return finding(
    'apiservice-unavailable',
    'APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)',
    [
      {
        kind: 'namespace-finalize',
        reason:
          'discovery fails for metrics.k8s.io/v1beta1 (APIService v1beta1.metrics.k8s.io: ServiceNotFound)',
      },
    ],
  );
}

/** A claim still mounted by a pod: pvc-protection is legitimately waiting. */
export function pvcFinding(): Finding {
  const target: ForceTarget = {
    kind: 'object-finalizers',
    resource: PVCS,
    name: 'data',
    uid: 'uid-pvc',
    resourceVersion: '7',
    deleting: true,
    finalizers: ['kubernetes.io/pvc-protection'],
    waiting: ['kubernetes.io/pvc-protection'],
  };
  return finding('pvc-in-use', 'persistentvolumeclaims/data is still used by pod web-0', [target], {
    severity: 'notice',
  });
}

/** Object metadata as a metadata-only GET returns it, deleting since DELETED_AT. */
export function meta(
  name: string,
  uid: string,
  finalizers: string[],
  over: Partial<ObjectMeta> = {},
): ObjectMeta {
  return {
    name,
    namespace: 'preview-42',
    uid,
    resourceVersion: '7',
    deletionTimestamp: DELETED_AT,
    deletionGracePeriodSeconds: 0,
    finalizers,
    ownerReferences: [],
    labels: {},
    ...over,
  };
}

/** Pod `web-0` Terminating on `node-1`, which is NotReady (or gone) since `since`. */
export function lostPodFinding(o: { since?: string; gone?: boolean; uid?: string } = {}): Finding {
  const target: ForceTarget = {
    kind: 'pod-on-lost-node',
    name: 'web-0',
    uid: o.uid ?? 'uid-web-0',
    node: 'node-1',
    nodeExists: !o.gone,
    ready: 'Unknown',
    ...(o.gone ? {} : { readySince: o.since ?? DELETED_AT }),
  };
  return finding('pods-not-terminating', 'pod web-0 is not terminating: its node node-1 is NotReady', [
    target,
  ]);
}

/** A Fail-policy webhook whose service is down but which no error names: a guess (confidence 0.5). */
export function suspectWebhookFinding(): Finding {
  return finding(
    'content-delete-refused',
    'suspect: webhook deny.example.com intercepts DELETE with failurePolicy Fail and its service is down',
    [{ kind: 'namespace-finalize', reason: 'webhook deny.example.com may refuse deletes', confidence: 0.5 }],
    { severity: 'warning', confidence: 0.5 },
  );
}

/** The audit of removing kiali.io/finalizer from the kiali CR as `kiali.io/*` allows, whatever its namespace. */
export const KIALI_REMOVED: Omit<AuditFields, 'at' | 'namespace' | 'step'> & StepOutcome = {
  object: 'kialis.kiali.io/kiali',
  field: 'metadata.finalizers',
  before: ['kiali.io/finalizer'],
  after: [],
  allowed: [
    {
      finalizer: 'kiali.io/finalizer',
      allowedBy: { input: 'force-finalizers', pattern: 'kiali.io/*' },
    },
  ],
  result: 'removed',
  writes: 1,
};
