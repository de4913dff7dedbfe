/** Snapshot builders with the shapes of the field reports (kiali CR, kubesphere namespace, metrics APIService). */
import type { ApiResource, Condition, NamespaceState, ObjectMeta } from '../../src/model/cluster.js';
import { accessPlans } from '../../src/diagnosis/actors/access-plan.js';
import type {
  AccessSight,
  ApiServiceState,
  ControlPlaneState,
  NodeState,
  PodState,
  Snapshot,
  WebhookState,
  WorkloadState,
} from '../../src/diagnosis/types.js';
import type { Finding, Leftover } from '../../src/model/findings.js';
import { HEALTHY_CONDITIONS } from '../fake-apiserver/index.js';

/** When every test snapshot is taken. */
export const TAKEN_AT = '2026-11-20T10:00:00.000Z';
/** Seconds before TAKEN_AT, as an ISO timestamp. */
export const ago = (seconds: number): string => new Date(Date.parse(TAKEN_AT) - seconds * 1000).toISOString();

/** The exact condition texts from the reference sheet and the field reports. */
export const TEXT = {
  discoveryLegacy:
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
  discoveryStale:
    'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
  kialiRemaining: 'Some resources are remaining: kialis.kiali.io has 1 resource instances',
  kialiFinalizers:
    'Some content in the namespace has finalizers remaining: kiali.io/finalizer in 1 resource instances',
  podsRemaining: 'Some resources are remaining: pods. has 2 resource instances',
  apiServiceGone: 'service/prometheus-adapter in "monitoring" is not present',
} as const;

/** The five conditions in controller order, OK unless overridden with `[reason, message]` (status True). */
export function conditions(failing: Record<string, [string, string]> = {}): Condition[] {
  return Object.entries(HEALTHY_CONDITIONS).map(([type, ok]) => {
    const bad = failing[type];
    const [reason, message] = bad ?? ok;
    return { type, status: bad ? 'True' : 'False', reason, message, lastTransitionTime: ago(600) };
  });
}

/** A terminating namespace (deleted 10 minutes ago) with `spec.finalizers: [kubernetes]`. */
export function namespace(over: Partial<NamespaceState> = {}): NamespaceState {
  return {
    name: 'preview-42',
    uid: 'ns-uid-1',
    resourceVersion: '100',
    creationTimestamp: ago(3600),
    deletionTimestamp: ago(600),
    phase: 'Terminating',
    labels: {},
    metadataFinalizers: [],
    specFinalizers: ['kubernetes'],
    conditions: conditions(),
    ...over,
  };
}

/** Object metadata with sensible defaults. */
export function meta(over: Partial<ObjectMeta> & { name: string }): ObjectMeta {
  return {
    uid: `uid-${over.name}`,
    resourceVersion: '7',
    finalizers: [],
    ownerReferences: [],
    labels: {},
    ...over,
  };
}

/** A resource type as discovery reports it. */
export function type(
  group: string,
  version: string,
  resource: string,
  kind: string,
  over: Partial<ApiResource> = {},
): ApiResource {
  return {
    group,
    version,
    resource,
    kind,
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    ...over,
  };
}

export const KIALIS = type('kiali.io', 'v1alpha1', 'kialis', 'Kiali');
export const PODS = type('', 'v1', 'pods', 'Pod');
export const CONFIGMAPS = type('', 'v1', 'configmaps', 'ConfigMap');
export const PVCS = type('', 'v1', 'persistentvolumeclaims', 'PersistentVolumeClaim');
export const SERVICES = type('', 'v1', 'services', 'Service');

/** A leftover object of the given type in namespace `ns`. */
export function leftover(
  t: ApiResource,
  over: Partial<ObjectMeta> & { name: string },
  ns = 'preview-42',
): Leftover {
  return {
    resource: { group: t.group, version: t.version, resource: t.resource, kind: t.kind },
    meta: meta({ namespace: ns, ...over }),
  };
}

/** The kiali CR of field report 004, deleted 10 minutes ago. */
export function kialiCr(ns = 'preview-42', over: Partial<ObjectMeta> = {}): Leftover {
  return leftover(
    KIALIS,
    {
      name: 'kiali',
      uid: 'kiali-uid',
      finalizers: ['kiali.io/finalizer'],
      deletionTimestamp: ago(600),
      ...over,
    },
    ns,
  );
}

/** The APIService of field report 004: `v1beta1.metrics.k8s.io monitoring/prometheus-adapter False (ServiceNotFound)`. */
export function metricsApiService(over: Partial<ApiServiceState> = {}): ApiServiceState {
  return {
    name: 'v1beta1.metrics.k8s.io',
    group: 'metrics.k8s.io',
    version: 'v1beta1',
    service: { namespace: 'monitoring', name: 'prometheus-adapter', port: 443 },
    available: { status: 'False', reason: 'ServiceNotFound', message: TEXT.apiServiceGone },
    backing: { serviceExists: false, readyEndpoints: 0 },
    ...over,
  };
}

/** A running workload. */
export function workload(over: Partial<WorkloadState> & { name: string; namespace: string }): WorkloadState {
  return {
    kind: 'Deployment',
    readyReplicas: 1,
    deleting: false,
    hints: [],
    serviceAccount: 'default',
    ...over,
  };
}

/** RBAC that lets ServiceAccount `sa` update objects of `t` and their finalizers, as an operator's ClusterRole does. */
export function grant(
  t: { group: string; resource: string },
  sa: { namespace: string; name: string },
  role = `${sa.name}-role`,
): Snapshot['rbac'] {
  return {
    roles: [
      {
        kind: 'ClusterRole',
        name: role,
        rules: [
          {
            apiGroups: [t.group],
            resources: [t.resource, `${t.resource}/finalizers`],
            verbs: ['get', 'list', 'watch', 'update', 'patch'],
          },
        ],
      },
    ],
    bindings: [
      {
        kind: 'ClusterRoleBinding',
        name: role,
        role: { kind: 'ClusterRole', name: role },
        subjects: [{ kind: 'ServiceAccount', name: sa.name, namespace: sa.namespace }],
      },
    ],
  };
}

/** kube-system as read: kube-controller-manager's Lease renewed `ago` seconds before the snapshot (absent: none). */
export function controlPlane(
  ago: number | 'absent' = 2,
  pods?: ControlPlaneState['pods'],
): ControlPlaneState {
  const leases =
    ago === 'absent'
      ? []
      : [
          {
            namespace: 'kube-system',
            name: 'kube-controller-manager',
            holder: 'master-1_6d1c',
            renewTime: new Date(Date.parse(TAKEN_AT) - ago * 1000).toISOString(),
            durationSeconds: 15,
          },
        ];
  return { leases, ...(pods ? { pods } : {}) };
}

/** A pod in the namespace. */
export function pod(over: Partial<PodState> & { name: string }): PodState {
  return { uid: `uid-${over.name}`, phase: 'Running', finalizers: [], claims: [], ...over };
}

/** A node. */
export function node(name: string, ready = 'True', exists = true, readySince?: string): NodeState {
  return { name, exists, ready, ...(readySince ? { readySince } : {}) };
}

/** A webhook intercepting DELETE of everything. */
export function webhook(over: Partial<WebhookState> & { name: string }): WebhookState {
  return {
    configuration: 'policy-hooks',
    kind: 'ValidatingWebhookConfiguration',
    failurePolicy: 'Fail',
    deleteResources: ['*'],
    service: { namespace: 'policy', name: 'policy-webhook' },
    backing: { serviceExists: true, readyEndpoints: 0 },
    // Alone in its configuration.
    index: 0,
    siblings: [],
    ...over,
  };
}

/**
 * The API server's answers where RBAC shows no live grant, as the fake server gives them with no rights outside RBAC:
 * every ServiceAccount the plan asks about (those RBAC does not name) may do nothing. Nothing is asked when the
 * workloads could not be read, as in a real snapshot.
 */
export function serverAgrees(s: Snapshot): AccessSight[] {
  if (s.readErrors.some((e) => e.what.startsWith('workloads'))) return [];
  return accessPlans(s).map((p) => ({
    group: p.group,
    resource: p.resource,
    namespace: p.namespace,
    notAsked: p.notAsked,
    answers: p.accounts.map((serviceAccount) => ({ serviceAccount })),
  }));
}

/**
 * An empty snapshot of `namespace()`, with fields overridden; unless `access` is given, the API server was asked
 * where RBAC showed no live grant, and allowed nobody more (`serverAgrees`).
 */
export function snapshot(over: Partial<Snapshot> = {}): Snapshot {
  const s = snapshotOf(over);
  if (over.access !== undefined) return s;
  const access = serverAgrees(s);
  return access.length ? { ...s, access } : s;
}

function snapshotOf(over: Partial<Snapshot>): Snapshot {
  return {
    takenAt: TAKEN_AT,
    namespace: namespace(),
    discovery: { failed: [], mode: 'aggregated', listedTypes: 40 },
    scan: { mode: 'full', reason: 'conditions-absent', detail: 'no NamespaceContentRemaining condition' },
    leftovers: [],
    apiServices: [],
    webhooks: [],
    pods: [],
    nodes: [],
    workloads: [],
    crds: [],
    rbac: { roles: [], bindings: [] },
    leases: [],
    conversions: [],
    readErrors: [],
    cost: { requests: 0, bytes: 0 },
    ...over,
  };
}

/** One named row of a rule table: the snapshot given, the findings expected. */
export interface RuleRow {
  name: string;
  given: Snapshot;
  expect: Partial<Finding>[];
}
