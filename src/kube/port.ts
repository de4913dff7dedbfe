/**
 * The Kube port: the only cluster calls the engine needs. Domain code depends on this interface; the adapter
 * built by `createKube` (src/kube/client.ts, with client-node confined to src/kube/) implements it.
 */
import type { NamespaceState, ObjectMeta, ApiResource, Cost } from '../model/cluster.js';

/** Result of discovery: what could be listed, plus the group-versions that failed (partial discovery). */
export interface Discovery {
  resources: ApiResource[];
  /** Failed group-versions with the error text, e.g. `{ groupVersion: 'metrics.k8s.io/v1beta1', error: 'stale GroupVersion discovery: metrics.k8s.io/v1beta1' }`. */
  failed: { groupVersion: string; error: string }[];
  /** `aggregated` (apidiscovery.k8s.io/v2) or `legacy` (one request per group-version). */
  mode: 'aggregated' | 'legacy';
  /** Legacy discovery asked for these API groups only (`discover({ groups })`): other groups are not in it. */
  onlyGroups?: string[];
}

/** One page of a metadata-only list. */
export interface MetaPage {
  items: ObjectMeta[];
  continue?: string;
  /** The list's resourceVersion, from which a watch sees every later change. */
  resourceVersion?: string;
}

/** A watch event on a single namespace. */
export type NamespaceEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; namespace: NamespaceState }
  | { type: 'BOOKMARK'; resourceVersion: string }
  | { type: 'ERROR'; code: number; reason?: string; message: string };

/** A watch event on the objects of one resource type in one namespace (metadata only). */
export type ObjectEvent =
  | { type: 'ADDED' | 'MODIFIED' | 'DELETED'; object: ObjectMeta }
  | { type: 'BOOKMARK'; resourceVersion: string }
  | { type: 'ERROR'; code: number; reason?: string; message: string };

/** Handle on a running watch. `done` resolves when the server or the network ends the stream. */
export interface WatchHandle {
  stop(): void;
  done: Promise<{ error?: Error }>;
}

/**
 * What the answer to a write shows of the object written: the server's own word on what it stored, never a later
 * read. A write is done only when this shows it.
 */
export interface WriteAnswer {
  /** Its metadata as answered: finalizers, resourceVersion, labels, deletionTimestamp, managers of the finalizers. */
  meta: ObjectMeta;
  /** `spec.finalizers` as answered (a Namespace's; empty for other kinds). */
  specFinalizers: string[];
  /** Who `metadata.managedFields` says manages `spec.finalizers` (a Namespace's), sorted. */
  specFinalizerManagers: string[];
  /** The whole object as answered, for what a caller reads beyond this (a GitOps owner's suspension). */
  object: Record<string, unknown>;
}

/**
 * What a DELETE's answer shows: `removed` when the object went in that request (a Status `Success`, or the object
 * with nothing left to hold it); else the object as answered, still there — being deleted, held by its finalizers
 * (`spec.finalizers` for a namespace) or a grace period.
 */
export type DeleteAnswer = { removed: true; answer?: WriteAnswer } | { removed: false; answer: WriteAnswer };

/** A cluster API failure with the HTTP code and the decoded Status, when there was one. */
export class KubeError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly reason?: string,
    readonly verb?: string,
    readonly resource?: string,
  ) {
    super(message);
    this.name = 'KubeError';
  }
}

/**
 * A write refused before it was sent because this run did not read and verify its target for it: `gone` and
 * `recreated` say the namespace read at the start no longer holds the name, `unverified` anything else.
 */
export class UnverifiedWrite extends KubeError {
  constructor(
    message: string,
    readonly because: 'gone' | 'recreated' | 'unverified',
    verb: string,
    resource: string,
  ) {
    super(message, 0, 'Unverified', verb, resource);
    this.name = 'UnverifiedWrite';
  }
}

/**
 * One question to the API server's authorizer (a SubjectAccessReview): may `user`, a member of `groups`, do `verb` on
 * `resource` of `group` (in `namespace`, when given)?
 */
export interface AccessQuestion {
  user: string;
  groups: readonly string[];
  verb: string;
  group: string;
  resource: string;
  /** `finalize` of `namespaces/finalize`. */
  subresource?: string;
  namespace?: string;
}

/** The authorizer's answer, as `status` of the SubjectAccessReview says it. */
export interface AccessAnswer {
  allowed: boolean;
  /** An explicit no (a webhook that denies); `allowed: false` alone means no authorizer said yes. */
  denied: boolean;
  /** Why, in the authorizer's words (RBAC names the binding and the role); absent when it gave none. */
  reason?: string;
  /** An authorizer that failed while deciding. */
  evaluationError?: string;
}

/** Read access for the diagnosis snapshot; every method is a GET but `reviewAccess`, a POST that stores nothing. */
export interface KubeReader {
  /** What the adapter has spent so far, when it counts (the real adapter does; fakes need not). */
  cost?(): Cost;
  getNamespace(name: string): Promise<NamespaceState | undefined>;
  listNamespaces(labelSelector: string): Promise<NamespaceState[]>;
  /**
   * Every namespace in pages, each handed to `onPage` as it arrives (memory stays one page); resolves to the
   * resourceVersion the list was read at, to watch from.
   */
  listAllNamespaces(onPage: (items: NamespaceState[]) => void): Promise<string>;
  /**
   * Aggregated discovery with fallback to legacy; never throws for one broken group. `core: false` leaves out the
   * core group (`/api`) for callers that need only named API groups; `groups` limits legacy discovery (one request
   * per group-version) to those API groups — aggregated discovery has every group in one answer anyway.
   */
  discover(opts?: { core?: boolean; groups?: readonly string[] }): Promise<Discovery>;
  /** Metadata-only list, one page. `namespace` undefined = cluster-scoped or all namespaces. */
  listMetadata(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    opts: { namespace?: string; limit?: number; continue?: string; labelSelector?: string },
  ): Promise<MetaPage>;
  /** Full objects (raw JSON) for the few kinds whose bodies the diagnosis needs: pods, nodes, apiservices... */
  listRaw(
    path: string,
    opts?: { limit?: number; continue?: string },
  ): Promise<{ items: unknown[]; continue?: string }>;
  getRaw(path: string): Promise<unknown | undefined>;
  /**
   * Asks the authorizer (POST of a SubjectAccessReview, which creates nothing): the server as the authority on rights
   * that RBAC objects may not show (a webhook authorizer). Absent on a reader that cannot ask.
   */
  reviewAccess?(question: AccessQuestion): Promise<AccessAnswer>;
}

/** The full port: reads, the namespace lifecycle, and the guarded writes used by forcing. */
export interface Kube extends KubeReader {
  /** True when every write is sent as a dry run (`dryRun=All`): the server answers, nothing is stored. */
  readonly dryRun?: boolean;
  /**
   * DELETE the namespace with Background propagation and a UID precondition when given: what the answer shows (the
   * namespace being deleted, held by its finalizers), or 'gone' when it is missing.
   */
  deleteNamespace(name: string, opts?: { uid?: string }): Promise<DeleteAnswer | 'gone'>;
  /** Watch one namespace by `metadata.name` field selector from `resourceVersion`. */
  watchNamespace(
    name: string,
    resourceVersion: string,
    onEvent: (e: NamespaceEvent) => void,
  ): Promise<WatchHandle>;
  /** Watch every namespace from `resourceVersion` ('' = from now, with the current state replayed as ADDED). */
  watchAllNamespaces(resourceVersion: string, onEvent: (e: NamespaceEvent) => void): Promise<WatchHandle>;
  /**
   * Replace an object's `metadata.finalizers` with a JSON merge patch guarded by uid and resourceVersion
   * preconditions: the object as answered (its finalizers may not be the ones sent: a mutating webhook may have put
   * some back), or 'gone' when the object no longer exists.
   */
  patchFinalizers(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string | undefined,
    name: string,
    guard: { uid: string; resourceVersion: string },
    finalizers: string[],
  ): Promise<WriteAnswer | 'gone'>;
  /**
   * DELETE one namespaced object with Background propagation and a UID precondition, and a resourceVersion one when
   * given (the object's controller and finalizers then run as usual): what the answer shows, or 'gone' when it is
   * missing.
   */
  deleteObject(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string,
    name: string,
    guard: { uid: string; resourceVersion?: string },
  ): Promise<DeleteAnswer | 'gone'>;
  /**
   * Merge `spec` into one namespaced object's spec with a JSON merge patch guarded by uid and resourceVersion (a
   * `null` removes a field): the object as answered. Only a GitOps owner's suspension uses it. Missing = 'gone'.
   */
  patchSpec(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string,
    name: string,
    guard: { uid: string; resourceVersion: string },
    spec: Record<string, unknown>,
  ): Promise<WriteAnswer | 'gone'>;
  /** Watch the objects of one type in one namespace, metadata only, from `resourceVersion`. */
  watchObjects(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string,
    resourceVersion: string,
    onEvent: (e: ObjectEvent) => void,
  ): Promise<WatchHandle>;
  /** DELETE a pod with `gracePeriodSeconds: 0` and a UID precondition: what the answer shows. Missing = 'gone'. */
  deletePod(namespace: string, name: string, uid: string): Promise<DeleteAnswer | 'gone'>;
  /**
   * PUT /api/v1/namespaces/NAME/finalize with the given spec.finalizers, guarded by uid + resourceVersion: the
   * namespace as answered (its spec.finalizers may not be the ones sent), or 'gone'.
   */
  finalizeNamespace(
    name: string,
    guard: { uid: string; resourceVersion: string },
    specFinalizers: string[],
  ): Promise<WriteAnswer | 'gone'>;
}

/** The port's writes: the methods a wrapper guarding writes replaces. */
type KubeWrite =
  'deleteNamespace' | 'patchFinalizers' | 'patchSpec' | 'deleteObject' | 'deletePod' | 'finalizeNamespace';

/** The reads and watches of `kube`, passed through as they are, for a wrapper that guards only the writes. */
export function readsOf(kube: Kube): Omit<Kube, KubeWrite | 'cost'> {
  return {
    // A wrapper's writes reach the same adapter: whether they are dry runs is its to say.
    ...(kube.dryRun ? { dryRun: true } : {}),
    getNamespace: (name) => kube.getNamespace(name),
    listNamespaces: (selector) => kube.listNamespaces(selector),
    listAllNamespaces: (onPage) => kube.listAllNamespaces(onPage),
    discover: (opts) => kube.discover(opts),
    listMetadata: (res, opts) => kube.listMetadata(res, opts),
    listRaw: (path, opts) => kube.listRaw(path, opts),
    getRaw: (path) => kube.getRaw(path),
    ...(kube.reviewAccess ? { reviewAccess: (q: AccessQuestion) => kube.reviewAccess!(q) } : {}),
    watchNamespace: (name, rv, onEvent) => kube.watchNamespace(name, rv, onEvent),
    watchObjects: (res, namespace, rv, onEvent) => kube.watchObjects(res, namespace, rv, onEvent),
    watchAllNamespaces: (rv, onEvent) => kube.watchAllNamespaces(rv, onEvent),
  };
}
