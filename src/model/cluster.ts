/** The cluster as the run sees it: namespaces, their conditions, object metadata, resource types, request cost. */

/** A namespace status condition as the namespace controller writes it. */
export interface Condition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** The parts of a Namespace the engine reads. */
export interface NamespaceState {
  name: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  phase: string;
  labels: Record<string, string>;
  /** `metadata.annotations`, when it has any: a preview's own ttl or expiry. */
  annotations?: Record<string, string>;
  /** `metadata.finalizers`: removed by PATCH of the namespace. */
  metadataFinalizers: string[];
  /** `spec.finalizers`: removed only through the `/finalize` subresource. */
  specFinalizers: string[];
  conditions: Condition[];
}

/** An owner reference as stored on an object. */
export interface OwnerRef {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** Object metadata as returned by a metadata-only (PartialObjectMetadata) list. */
export interface ObjectMeta {
  name: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  finalizers: string[];
  ownerReferences: OwnerRef[];
  labels: Record<string, string>;
  /**
   * The field managers (`metadata.managedFields[].manager`) that own entries of `metadata.finalizers`: who set them.
   * Absent when the server keeps no managedFields (or none owns a finalizer).
   */
  finalizerManagers?: string[];
  /**
   * The annotations that tell who installed or tracks the object (Helm's `meta.helm.sh/*`, Argo CD's
   * `argocd.argoproj.io/*`, Flux's `*.toolkit.fluxcd.io/*`); other annotations are not kept.
   */
  ownerAnnotations?: Record<string, string>;
}

/** A resource type found by discovery. `group` is "" for the core group. */
export interface ApiResource {
  group: string;
  version: string;
  /** Plural resource name, e.g. `configmaps`. */
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/** Requests sent and response body bytes received. */
export interface Cost {
  requests: number;
  bytes: number;
  /** Responses the cluster sent, whatever their status; 0 after requests = it was never reached. Absent: not counted. */
  answers?: number;
}
