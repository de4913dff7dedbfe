/** The force vocabulary: the policy the user allows, the plan decided from it, and the audit trail of what was done. */
import type { ApiResource } from './cluster.js';

/** The input that allowed a change: a force-finalizers pattern, force-finalize-namespace, or force-delete-pods. */
export type AllowedBy =
  | { input: 'force-finalizers'; pattern: string }
  | { input: 'force-finalize-namespace' }
  | { input: 'force-delete-pods'; value: 'lost-nodes' };

/** One finalizer the policy allows removing, the rule that allowed it, and what removing it risks. */
export interface Removal {
  finalizer: string;
  allowedBy: AllowedBy;
  /** What is left behind or skipped, for well-known finalizers and running owners. */
  risk?: string;
}

interface StepBase {
  /** Display name, e.g. `kialis.kiali.io/kiali`, `persistentvolumeclaims/data` or `namespace/x`. */
  object: string;
  field: 'metadata.finalizers' | 'spec.finalizers' | 'pod';
  /** The finalizers seen when deciding, sorted. */
  finalizers: string[];
  /** The entries to remove; nothing else is ever removed. */
  remove: Removal[];
  /** The entries that stay, sorted. */
  keep: string[];
  /** Ids of the findings that led to this step, sorted. */
  findings: string[];
  /** Why the step is needed, in words. */
  reason: string;
}

/**
 * Step 0: delete a pod whose node is lost, with `gracePeriodSeconds: 0` and a UID precondition. No finalizer is
 * removed (`finalizers` lists the pod's own, which stay; `remove` is empty).
 */
export interface PodDeleteStep extends StepBase {
  kind: 'pod-delete';
  field: 'pod';
  namespace: string;
  name: string;
  uid: string;
  node: string;
  allowedBy: { input: 'force-delete-pods'; value: 'lost-nodes' };
  /** What deleting a pod the kubelet never confirmed risks. */
  risk: string;
}

/** Step 1: remove allowed entries of a blocking object's `metadata.finalizers` (PATCH). */
export interface ObjectStep extends StepBase {
  kind: 'object-finalizers';
  resource: Pick<ApiResource, 'group' | 'version' | 'resource' | 'kind'>;
  namespace: string;
  name: string;
  uid: string;
  /** As listed: the PATCH carries it and the UID as preconditions, so no read is needed before it. */
  resourceVersion: string;
  /** Whether it was marked for deletion when listed (only such an object loses finalizers). */
  deleting: boolean;
  /** Its finalizers as listed, in the object's order (`finalizers` is sorted for display). */
  listed: string[];
}

/** Step 2: remove allowed entries of the namespace's `metadata.finalizers` (PATCH). */
export interface NamespaceMetadataStep extends StepBase {
  kind: 'namespace-metadata-finalizers';
}

/** Step 3, last resort: PUT `/finalize` with empty `spec.finalizers`. */
export interface FinalizeStep extends StepBase {
  kind: 'namespace-finalize';
  /** What stays in storage without a namespace, e.g. `kialis.kiali.io/kiali (keeps kiali.io/finalizer)`. */
  orphans: string[];
}

/** One forced change, in the order it must run. */
export type ForceStep = PodDeleteStep | ObjectStep | NamespaceMetadataStep | FinalizeStep;

/** Something the policy will not force, why, and what the user can do about it. */
export interface Refusal {
  object: string;
  finalizer?: string;
  reason: string;
  remedy: string;
}

/**
 * - `off`: force is off. `protected`: a protected namespace, never forced.
 * - `not-terminating`: no deletionTimestamp. `not-yet`: force-after, or the node-lost threshold of the only
 *   pods forcing could delete, not reached (see `waitMs`).
 * - `nothing-to-force`: nothing blocks that forcing could change. `nothing-allowed`: blockers exist, none allowed.
 * - `force`: `steps` holds work (executed for real only in mode `on`).
 */
export type Decision =
  'off' | 'protected' | 'not-terminating' | 'not-yet' | 'nothing-to-force' | 'nothing-allowed' | 'force';

/** The decision for one namespace: ordered steps, refusals and notes, all sorted so output is stable. */
export interface Plan {
  namespace: string;
  uid: string;
  mode: 'off' | 'dry-run' | 'on';
  decision: Decision;
  /** With `not-yet`: how long until force-after (or the node-lost threshold) is reached. */
  waitMs?: number;
  steps: ForceStep[];
  refusals: Refusal[];
  notes: string[];
}

/** A mutating webhook whose rules reach a write, as this run read its configuration and its Service. */
export interface WebhookSuspect {
  configuration: string;
  name: string;
  /** `service namespace/name` or `url …`. */
  served: string;
  /** Whether it is up, in words, from what the run read (its Service's ready endpoints), or why that is not known. */
  alive: string;
  failurePolicy: 'Fail' | 'Ignore';
  /** False when its rules reach the write but a selector could not be evaluated. */
  certain: boolean;
}

/** Who undid a write that the server answered without its effect, as far as the run could tell. */
export type UndoneBy =
  | { kind: 'webhook'; webhooks: WebhookSuspect[] }
  | { kind: 'manager'; managers: string[] }
  | { kind: 'unknown'; why: string };

/**
 * A write answered without its effect: the server's answer still shows what the step removed (a mutating webhook put
 * it back inside the request). Who did it, and what to change: that webhook or controller, never the finalizer again.
 */
export interface PutBack {
  /** The field the answer was read from, e.g. `metadata.finalizers`. */
  field: 'metadata.finalizers' | 'spec.finalizers';
  /** What the answers still show that the step removed. */
  kept: string[];
  /** Writes that met it: the first, and at most one more. */
  writes: number;
  /** Whether the last answer carried the resourceVersion the write was guarded by: nothing was stored. */
  unchanged: boolean;
  by: UndoneBy;
  /** What to change, in words. */
  remedy: string;
  /** Commands that show it, safe to paste. */
  lookups: string[];
}

/**
 * How one step ended. `gone` (NotFound) counts as done; `skipped` says why the step was pointless or held back (the
 * object is not being deleted yet, was recreated, the namespace is gone…), `failed` what refused or broke the write;
 * `not-removed` that the server answered the write without its effect (what it removed is still in the answer), with
 * who put it back when the step was a finalizer removal.
 */
export type StepOutcome =
  | { result: 'removed' | 'finalized' | 'deleted' | 'gone' | 'dry-run' }
  | { result: 'skipped'; why: string }
  | { result: 'failed'; error: string }
  | { result: 'not-removed'; why: string; putBack?: PutBack };

/** One line of the force audit trail: what the step was, and how it ended. */
export type AuditEntry = AuditFields & StepOutcome;

export interface AuditFields {
  /** ISO time from the injected clock. */
  at: string;
  namespace: string;
  step: ForceStep['kind'];
  object: string;
  field: ForceStep['field'];
  /** Finalizers as last read (the planned list when nothing could be read). */
  before: string[];
  /** Finalizers after the step; in dry-run, what they would be. */
  after: string[];
  /** The removals the policy allowed, with the pattern or input that allowed each (empty for a pod delete). */
  allowed: Removal[];
  /** For a pod delete: the input that allowed it. */
  allowedBy?: AllowedBy;
  /** Writes sent for this step (0 in dry-run and when skipped). */
  writes: number;
}

/** What the user allows forcing. */
export interface ForcePolicy {
  mode: 'off' | 'dry-run' | 'on';
  /** force-after: how long the namespace must have been Terminating. */
  afterMs: number;
  /** force-finalizers: globs of finalizer names that may be removed (objects + namespace metadata.finalizers); empty = none. */
  finalizerPatterns: string[];
  /** force-finalize-namespace: allow PUT /finalize clearing spec.finalizers, last resort. */
  finalizeNamespace: boolean;
  /** force-delete-pods: `lost-nodes` deletes terminating pods whose node is gone or NotReady (grace 0). */
  deletePods: 'off' | 'lost-nodes';
}
