import type { ApiResource, Condition, NamespaceState, ObjectMeta } from '../kube/port.js';

/** A leftover object in the terminating namespace, with the resource type it belongs to. */
export interface Leftover {
  resource: Pick<ApiResource, 'group' | 'version' | 'resource' | 'kind'>;
  meta: ObjectMeta;
  /**
   * Listed at `resource.version` because the preferred version cannot be read (a conversion webhook is down):
   * commands must name that version (`gadgets.v1beta1.example.com`).
   */
  pinned?: boolean;
}

/** An aggregated APIService as the diagnosis sees it. */
export interface ApiServiceState {
  name: string;
  group: string;
  version: string;
  /** undefined for a local APIService (served by kube-apiserver itself). */
  service?: { namespace: string; name: string; port?: number };
  available: { status: string; reason?: string; message?: string } | undefined;
  /** Whether the backing Service exists and how many ready endpoint addresses it has (undefined = not looked up). */
  backing?: { serviceExists: boolean; readyEndpoints: number };
}

/** An admission webhook that intercepts DELETE on some resources. */
export interface WebhookState {
  configuration: string;
  kind: 'ValidatingWebhookConfiguration' | 'MutatingWebhookConfiguration';
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  /** Resources it intercepts DELETE for, as `resource.group` (core: `resource`), `*` for all. */
  deleteResources: string[];
  service?: { namespace: string; name: string };
  url?: string;
  backing?: { serviceExists: boolean; readyEndpoints: number };
}

/** A pod in the namespace with what decides whether it can terminate. */
export interface PodState {
  name: string;
  uid: string;
  phase: string;
  nodeName?: string;
  deletionTimestamp?: string;
  terminationGracePeriodSeconds?: number;
  finalizers: string[];
  /** Names of PersistentVolumeClaims the pod mounts. */
  claims: string[];
}

/** A node's readiness, for pods that cannot terminate. */
export interface NodeState {
  name: string;
  exists: boolean;
  ready: string;
  /** lastTransitionTime of the Ready condition: since when `ready` has held. */
  readySince?: string;
}

/** A controller workload (Deployment/StatefulSet/DaemonSet) anywhere in the cluster. */
export interface WorkloadState {
  namespace: string;
  name: string;
  kind: string;
  readyReplicas: number;
  deleting: boolean;
  /** Image references and container args, used to match a finalizer's domain to its controller. */
  hints: string[];
  /** The ServiceAccount its pods run as (`default` when the template names none). */
  serviceAccount: string;
}

/** One rule of a Role or ClusterRole. */
export interface RbacRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

/** A Role or ClusterRole with its rules. */
export interface RoleState {
  kind: 'ClusterRole' | 'Role';
  namespace?: string;
  name: string;
  rules: RbacRule[];
}

/** A RoleBinding or ClusterRoleBinding: which role, to whom. */
export interface BindingState {
  kind: 'ClusterRoleBinding' | 'RoleBinding';
  namespace?: string;
  name: string;
  role: { kind: string; name: string };
  subjects: { kind: string; name: string; namespace?: string }[];
}

/** A coordination.k8s.io Lease: who holds it and when it was last renewed (leader election). */
export interface LeaseState {
  namespace: string;
  name: string;
  holder?: string;
  renewTime?: string;
  durationSeconds?: number;
}

/** A CRD whose conversion webhook failed a read of its objects: what the error named and what could be read. */
export interface ConversionState {
  /** `gadgets.conv.example.com`. */
  crd: string;
  group: string;
  resource: string;
  kind: string;
  /** The version the objects are stored at, as the error names it, and the version that was asked for. */
  storedAt: string;
  requested?: string;
  /** The API server's error, verbatim. */
  error: string;
  /** The CRD's versions and conversion settings, when it could be read. */
  definition?: {
    storageVersion?: string;
    served: string[];
    storedVersions: string[];
    strategy?: string;
    service?: { namespace: string; name: string; path?: string; port?: number };
    url?: string;
  };
  backing?: { serviceExists: boolean; readyEndpoints: number };
  /** How many objects a metadata list at `storedAt` found (they are in `leftovers`); undefined when not listed. */
  listed?: number;
}

/** What an earlier diagnosis of the same namespace saw: which objects held which finalizer, and when. */
export interface EarlierSight {
  takenAt: string;
  /** finalizer → UIDs of the objects holding it then. */
  holders: Record<string, string[]>;
}

/** A CustomResourceDefinition, to tie a CR finalizer to its group. */
export interface CrdState {
  name: string;
  group: string;
  plural: string;
  kind: string;
  /** Owner hints from the CRD's labels and annotations (Helm release, app.kubernetes.io/*), as `key=value`. */
  hints?: string[];
}

/** Which namespace scan ran and why: the types the conditions name, or every listable namespaced type. */
export interface ScanChoice {
  mode: 'targeted' | 'full';
  /**
   * `conditions-name-types` (targeted); for a full scan: `requested`, `conditions-absent`, `conditions-stale`,
   * `discovery-failed` or `fewer-than-counted`.
   */
  reason:
    | 'conditions-name-types'
    | 'requested'
    | 'conditions-absent'
    | 'conditions-stale'
    | 'discovery-failed'
    | 'fewer-than-counted';
  /** One sentence: what was listed, or what made the conditions unusable. */
  detail: string;
}

/** Everything one diagnosis reads, gathered once, read-only. Rules are pure functions over this. */
export interface Snapshot {
  /** When the snapshot was taken (ISO 8601); rules compute ages against it. */
  takenAt: string;
  namespace: NamespaceState;
  discovery: {
    failed: { groupVersion: string; error: string }[];
    mode: 'aggregated' | 'legacy';
    listedTypes: number;
  };
  /** Which scan produced `leftovers`, and why. */
  scan: ScanChoice;
  leftovers: Leftover[];
  apiServices: ApiServiceState[];
  webhooks: WebhookState[];
  pods: PodState[];
  nodes: NodeState[];
  workloads: WorkloadState[];
  crds: CrdState[];
  /** Roles and bindings, read when a finalizer's controller must be found: who may update the objects. */
  rbac: { roles: RoleState[]; bindings: BindingState[] };
  /** Leader-election Leases, read with the RBAC. */
  leases: LeaseState[];
  /** Types whose objects could not be read because their CRD's conversion webhook failed. */
  conversions: ConversionState[];
  /** The previous diagnosis of this namespace in this run, if any: finalizers released since are progress. */
  earlier?: EarlierSight;
  /** Errors met while reading (RBAC, timeouts) — the diagnosis goes on without that part. */
  readErrors: { what: string; error: string }[];
  /** Request and byte counts spent building the snapshot. */
  cost: { requests: number; bytes: number };
}

export type Severity = 'error' | 'warning' | 'notice';

/** One piece of evidence: what was seen, where. */
export interface Evidence {
  /** e.g. `kialis.kiali.io/kiali`, `namespace/x`, `apiservice/v1beta1.metrics.k8s.io`. */
  object: string;
  /** Field or source, e.g. `metadata.finalizers`, `status.conditions[NamespaceContentRemaining]`. */
  field: string;
  value: string;
}

/**
 * What to do about a finding. `commands` come first and are safe to paste: the fix when nothing live is skipped by
 * it, otherwise only look-ups. A command that would skip a live controller's cleanup or switch off a cluster-wide
 * control is never among them: it goes to `lastResort`, with the risk it takes.
 */
export interface Remedy {
  commands: string[];
  /**
   * The command that unblocks anyway, shown apart and marked; `risk` says what it skips or switches off. `bulk` as
   * for the remedy.
   */
  lastResort?: { commands: string[]; bulk?: string[]; risk: string };
  /**
   * The fix for every object of this cause in one namespace, without object names (a list piped into a patch), so
   * one loop fixes the same cause across namespaces and thousands of objects.
   */
  bulk?: string[];
  policy?: string;
  note?: string;
}

/** A diagnosis result naming the culprit, the evidence, the owner and the remedy. */
export interface Finding {
  id: string;
  severity: Severity;
  summary: string;
  /**
   * What the cause is, without namespace or object names (e.g. `finalizer:example.com/cleanup|widgets.example.com|absent`):
   * findings with the same cause are one block, however many namespaces and objects they span.
   */
  cause: string;
  /** How many objects the finding is about, when it groups objects (the evidence lists only a few). */
  objects?: number;
  /** The summary without namespace or object names, for one block that stands for several namespaces. */
  causeSummary?: string;
  evidence: Evidence[];
  owner?: { controller: string; present: boolean | 'unknown'; detail?: string };
  /** 0..1 where the finding is a heuristic; absent when it is a direct observation. */
  confidence?: number;
  remedy: Remedy;
  /** True when a finalizer leaked: its owner is gone. Drives `fail-on: leaked`. */
  leaked: boolean;
  /** True when the finding only repeats the namespace controller's words without naming a culprit. */
  generic?: boolean;
  /** Objects this finding is about, for the force planner. */
  targets?: ForceTarget[];
}

/** Something the force planner could change to unblock the namespace. */
export type ForceTarget =
  | {
      kind: 'object-finalizers';
      resource: Pick<ApiResource, 'group' | 'version' | 'resource' | 'kind'>;
      name: string;
      uid: string;
      /** As the scan listed it: a write guarded by it needs no fresh read (a 409 means read again). */
      resourceVersion: string;
      /** Whether the object was marked for deletion when listed. */
      deleting: boolean;
      finalizers: string[];
      /** Finalizers that are legitimately waiting (e.g. pvc-protection with a pod still using the claim). */
      waiting: string[];
    }
  | { kind: 'namespace-metadata-finalizers'; finalizers: string[] }
  | {
      kind: 'namespace-finalize';
      reason: string;
      /** 0..1 when this reason is itself a guess (e.g. a suspect webhook); absent when it was observed. */
      confidence?: number;
      /** What /finalize would leave in storage that the scan could not list (a type it could not read). */
      leaves?: string[];
    }
  | {
      /** A control that is up refuses on purpose (an admission policy): /finalize must not go around it. */
      kind: 'denied-on-purpose';
      by: string;
    }
  | {
      kind: 'pod-on-lost-node';
      name: string;
      uid: string;
      node: string;
      /** False when the node is gone from the API. */
      nodeExists: boolean;
      /** The node's Ready status (`Unknown` when gone) and since when it holds, if known. */
      ready: string;
      readySince?: string;
    };

/** Parsed view of the five namespace conditions; unparsed text is kept, never dropped. */
export interface ParsedConditions {
  discoveryFailure?: { failing: string[]; raw: string };
  groupVersionParsingFailure?: { raw: string };
  contentFailure?: { errors: string[]; raw: string };
  contentRemaining?: { counts: { resource: string; group: string; count: number }[]; raw: string };
  finalizersRemaining?: { counts: { finalizer: string; count: number }[]; raw: string };
  unparsed: Condition[];
}
