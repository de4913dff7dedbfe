/** The force plan: what the policy allows changing, in order, and what it refuses. Types and labels; pure. */
import { resourceName } from '../diagnosis/refs.js';
import type { ApiResource } from '../kube/port.js';

/** The input that allowed a removal: a force-finalizers pattern, or force-finalize-namespace for `/finalize`. */
export type AllowedBy =
  { input: 'force-finalizers'; pattern: string } | { input: 'force-finalize-namespace' };

/** One finalizer the policy allows removing, the rule that allowed it, and what removing it risks. */
export interface Removal {
  finalizer: string;
  allowedBy: AllowedBy;
  /** What is left behind or skipped, for well-known finalizers and running owners. */
  risk?: string;
}

/** `force-finalizers: kiali.io/*` or `force-finalize-namespace: true`, for logs and reports. */
export function allowedByText(a: AllowedBy): string {
  return a.input === 'force-finalizers' ? `force-finalizers: ${a.pattern}` : 'force-finalize-namespace: true';
}

interface StepBase {
  /** Display name, e.g. `kialis.kiali.io/kiali`, `persistentvolumeclaims/data` or `namespace/x`. */
  object: string;
  field: 'metadata.finalizers' | 'spec.finalizers';
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

/** Step 1: remove allowed entries of a blocking object's `metadata.finalizers` (PATCH). */
export interface ObjectStep extends StepBase {
  kind: 'object-finalizers';
  resource: Pick<ApiResource, 'group' | 'version' | 'resource' | 'kind'>;
  namespace: string;
  name: string;
  uid: string;
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
export type ForceStep = ObjectStep | NamespaceMetadataStep | FinalizeStep;

/** Something the policy will not force, why, and what the user can do about it. */
export interface Refusal {
  object: string;
  finalizer?: string;
  reason: string;
  remedy: string;
}

/**
 * - `off`: force is off. `protected`: a protected namespace, never forced.
 * - `not-terminating`: no deletionTimestamp. `not-yet`: force-after not reached (see `waitMs`).
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
  /** With `not-yet`: how long until force-after is reached. */
  waitMs?: number;
  steps: ForceStep[];
  refusals: Refusal[];
  notes: string[];
}

/** `kialis.kiali.io/kiali`, or `persistentvolumeclaims/data` for the core group: as evidence names objects. */
export function objectLabel(resource: Pick<ApiResource, 'group' | 'resource'>, name: string): string {
  return `${resourceName(resource)}/${name}`;
}

/** `namespace/NAME`, as findings name the namespace. */
export function namespaceLabel(name: string): string {
  return `namespace/${name}`;
}
