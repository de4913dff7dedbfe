/** What one diagnosis reads, gathered once and read-only: the snapshot the rules run over. */
import type { Leftover, ScanChoice } from '../model/findings.js';
import type { NamespaceState } from '../model/cluster.js';

/** The Service behind a webhook or an API: whether it exists, its ready endpoint addresses, whether its namespace goes. */
export interface Backing {
  serviceExists: boolean;
  readyEndpoints: number;
  /**
   * The deletionTimestamp of the Service's namespace, read only where the backend is down: that namespace is being
   * deleted (its provider uninstalled), so the backend is not coming back.
   */
  namespaceDeleting?: string;
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
  backing?: Backing;
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
  backing?: Backing;
  /** Its place in the configuration's `webhooks` list: what a patch that removes only it names. */
  index: number;
  /** The configuration's other webhooks (those that intercept no DELETE too), each with where it is served. */
  siblings: { name: string; served: string }[];
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
  /** Its containers' names: a managedFields manager is often the controller's container (or binary) name. */
  containers?: string[];
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

/** What the API server's authorizer answered about one ServiceAccount (SubjectAccessReview). */
export interface AccessAnswerState {
  serviceAccount: { namespace: string; name: string };
  /** The first verb it was allowed (`update`, else `patch`); absent when both were refused. */
  verb?: 'update' | 'patch';
  /** The authorizer's own words (RBAC names the binding and role), when it gave any. */
  reason?: string;
  /** Also allowed to update every resource of every group: its rights do not single out this type. */
  everything?: boolean;
  /** The question could not be asked (a 403 on create, a timeout): the error. */
  error?: string;
}

/**
 * The server asked, where the RBAC this run read showed no live grant: who may update one type holding a finalizer,
 * in the target namespace, for the ServiceAccount of every workload RBAC did not already name.
 */
export interface AccessSight {
  group: string;
  resource: string;
  namespace: string;
  answers: AccessAnswerState[];
  /** ServiceAccounts workloads run as that were not asked (over the bound of one diagnosis). */
  notAsked: number;
  /** Why the server could not be asked at all (a reader that cannot, the first question refused). */
  error?: string;
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
  backing?: Backing;
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
  /** The CRD's own deletionTimestamp: the type itself is going away, and every object of it with it. */
  deleting?: string;
}

/** A pod of a control-plane component (kubeadm's static pods carry `component=<name>`). */
export interface ComponentPod {
  namespace: string;
  name: string;
  component: string;
  ready: boolean;
  /** Its `--cloud-provider` flag, when its command names one (`''` when it names none). */
  cloudProvider: string;
}

/** What this run read about Kubernetes' own controllers: their leader-election Leases and, when needed, pods. */
export interface ControlPlaneState {
  /** Leases in kube-system (kube-controller-manager, cloud-controller-manager), as read. */
  leases: LeaseState[];
  /** Pods labelled `component=kube-controller-manager` or `component=cloud-controller-manager`; undefined = not read. */
  pods?: ComponentPod[];
}

/** A GitOps owner object (Flux Kustomization or HelmRelease, Argo CD Application or ApplicationSet). */
export interface GitOpsOwner {
  kind: 'Kustomization' | 'HelmRelease' | 'Application' | 'ApplicationSet';
  /** `kustomizations.kustomize.toolkit.fluxcd.io`: for the RBAC that ties its controller to it. */
  group: string;
  resource: string;
  namespace: string;
  name: string;
  /** Namespaces it puts objects in, each with the field that says so (`spec.targetNamespace`, `status.inventory`). */
  targets: { namespace: string; field: string }[];
  /** Whether it would create the namespace itself if it were gone (it is in its inventory, or CreateNamespace). */
  createsNamespace: string[];
  /** Why it will not apply again (`spec.suspend: true`, no automated sync), when it will not. */
  paused?: string;
  deleting?: string;
  /** When its controller last reconciled it, as its status says (Argo CD `status.reconciledAt`). */
  reconciledAt?: string;
  /** The newest other time its controller wrote into its status (a condition's transition, a finished operation). */
  activity?: { field: string; at: string };
  /** Its Ready (Flux) or sync (Argo CD) condition, in one line. */
  ready?: string;
  /** The ApplicationSet that generates it, from its ownerReferences. */
  generatedBy?: string;
  /** Its identity as read, for a write guarded by it (suspending or deleting it before the namespace). */
  uid?: string;
  resourceVersion?: string;
  apiVersion?: string;
  /** `metadata.finalizers`: Flux's and Argo CD's resources finalizer decide whether deleting it removes what it applied. */
  finalizers?: string[];
  /** Flux Kustomization `spec.prune`: whether deleting it removes the objects of its inventory. */
  prune?: boolean;
  /** How many objects it applied: the Kustomization's inventory, the Application's `status.resources`. */
  objects?: number;
  /** Why the namespaces it applies into cannot all be read (`it has no status.inventory`), when they cannot. */
  reachUnread?: string;
  /**
   * The cluster-scoped objects it applied (its Namespace objects, a CRD, a ClusterRole), which deleting it may remove
   * with it: Flux inventory entries without a namespace, Argo CD `status.resources` without one. Undefined when what
   * it applied is not read (a HelmRelease: its rendered manifest is kept in a Helm storage Secret).
   */
  clusterObjects?: { group: string; kind: string; name: string }[];
  /** Flux Kustomization `spec.deletionPolicy` (`MirrorPrune`, `Delete`, `WaitForTermination`, `Orphan`), when set. */
  deletionPolicy?: string;
}

/** A ValidatingAdmissionPolicyBinding that could not evaluate, with what it needs that is missing. */
export interface PolicyBindingState {
  binding: string;
  policy: string;
  /** `spec.paramRef`, as read. */
  paramRef?: { name?: string; namespace?: string; selector?: string; parameterNotFoundAction?: string };
  /** The policy's `spec.paramKind`, as read (`v1 ConfigMap`). */
  paramKind?: string;
  /** Whether the parameter object the binding names exists: undefined when not looked up. */
  paramFound?: boolean;
  /** The binding (or its policy) could not be read: the error. */
  unread?: string;
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
  /** The authorizer's answers, for types where RBAC showed no live grant; undefined = none was asked. */
  access?: AccessSight[];
  /** Kubernetes' own controllers, read when a built-in finalizer is held; undefined = not read. */
  controlPlane?: ControlPlaneState;
  /** By Service name: the cloud load balancer (status.loadBalancer) of each Service the load-balancer finalizer holds. */
  loadBalancers?: Record<string, string[]>;
  /** GitOps owner objects of the cluster, when read (at the end of a run, for every target). */
  gitops?: GitOpsOwner[];
  /** ValidatingAdmissionPolicyBindings whose policy could not evaluate (named by a refused delete). */
  policyBindings?: PolicyBindingState[];
  /** Types whose objects could not be read because their CRD's conversion webhook failed. */
  conversions: ConversionState[];
  /** The previous diagnosis of this namespace in this run, if any: finalizers released since are progress. */
  earlier?: EarlierSight;
  /** Errors met while reading (RBAC, timeouts) — the diagnosis goes on without that part. */
  readErrors: { what: string; error: string }[];
  /** Request and byte counts spent building the snapshot. */
  cost: { requests: number; bytes: number };
}
