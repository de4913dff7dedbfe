/** Shared types of the fake Kubernetes API server. */

/** An owner reference as stored in `metadata.ownerReferences`. */
export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
  blockOwnerDeletion?: boolean;
}

/** ObjectMeta as the fake stores it (empty lists and maps are omitted, like Go's `omitempty`). */
export interface ObjectMeta {
  name: string;
  generateName?: string;
  namespace?: string;
  uid: string;
  resourceVersion: string;
  generation?: number;
  creationTimestamp: string;
  deletionTimestamp?: string;
  deletionGracePeriodSeconds?: number;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
  finalizers?: string[];
}

/** Any stored Kubernetes object. */
export interface KObj {
  apiVersion: string;
  kind: string;
  metadata: ObjectMeta;
  [field: string]: unknown;
}

/** A namespace status condition as the namespace controller writes it. */
export interface NamespaceCondition {
  type: string;
  status: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** A stored Namespace. */
export interface NsObj extends KObj {
  spec: { finalizers?: string[] };
  status: { phase: string; conditions?: NamespaceCondition[] };
}

/** Group, version and plural resource name; `group` is "" for the core group. */
export interface Gvr {
  group: string;
  version: string;
  resource: string;
}

/** Timing of the namespace controller (real values: 5 s, 8 s, 60 s). */
export interface ControllerTiming {
  /** Delay between a namespace getting (or changing while it has) a deletionTimestamp and the next sync. */
  queueDelayMs: number;
  /** Requeue delay when content with finalizers remains (the real 15 s estimate gives 15/2+1 = 8 s). */
  finalizerRecheckMs: number;
  /** Cap of the exponential error backoff (5 ms doubling). */
  errorBackoffMaxMs: number;
}

/** The Kubernetes minor versions whose differences the fake emulates. */
export type KubeVersion = '1.29' | '1.33' | '1.34';

/** JSON object with unknown values. */
export type JsonMap = Record<string, unknown>;

/** Options of one API operation. */
export interface OpContext {
  dryRun: boolean;
  /** Who writes: the client (CLIENT_USER) when absent; the fake's controllers name themselves. */
  user?: string;
  /** Warnings to return in `Warning` headers. */
  warnings: string[];
}

/** Result of a write through the API layer: HTTP status and the body to return. */
export interface OpResult {
  code: number;
  body: JsonMap;
}

export interface DeleteOptions {
  gracePeriodSeconds?: number;
  propagationPolicy?: string;
  orphanDependents?: boolean;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}
