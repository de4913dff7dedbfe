/** The vocabulary of what happens before the namespace DELETE: the pre-mortem and the custom-resources phase. */
import type { Evidence } from './findings.js';

/**
 * What a pre-mortem can foresee:
 * - `leak`: a finalizer whose controller is absent; nothing will ever remove it.
 * - `in-namespace-controller`: the controller serving a finalizer runs inside the target; with pods-first
 *   deletion it is stopped before its resources are deleted.
 * - `lost-node`: pods on a node that is gone or NotReady; with pods-first deletion everything waits on them.
 * - `apiservice`: an unavailable APIService; discovery fails and no namespace deletion can finish.
 * - `webhook`: a `failurePolicy: Fail` webhook on DELETE whose service is down refuses the deletes.
 * - `slow-cleanup`: PVCs and LoadBalancer Services whose cleanup takes minutes.
 */
export type PredictionKind =
  'leak' | 'in-namespace-controller' | 'lost-node' | 'apiservice' | 'webhook' | 'slow-cleanup';

/** Whether a prediction came true, once the run is over. */
export type Settlement = 'came-true' | 'did-not-happen' | 'avoided' | 'unknown';

/** One thing foreseen before the first DELETE, from a read-only snapshot of the Active namespace. */
export interface Prediction {
  kind: PredictionKind;
  /** True when the namespace will hang unless something changes (one notice annotation each). */
  hang: boolean;
  /** The same for every namespace it holds for, so the summary can group them, e.g. `leak example.com/cleanup`. */
  key: string;
  /** One line, without the namespace's name. */
  summary: string;
  /** The finalizer, APIService, webhook or node the prediction is about, to match the run's findings. */
  subject: string;
  /** Objects of the namespace it concerns, e.g. `widgets.example.com/held`. */
  objects: string[];
  evidence: Evidence[];
  /** Filled in after the run. */
  settled?: { result: Settlement; words: string };
}

/** The pre-mortem of one target: what was read and what it foresaw. */
export interface PreMortem {
  /** How long the read-only snapshot took (ms). */
  tookMs: number;
  predictions: Prediction[];
  /** Reads that failed (RBAC, timeouts): the predictions are partial where these say so. */
  readErrors: { what: string; error: string }[];
}

/** Why a custom resource was left to the namespace controller. */
export type LeftReason =
  | 'controller-absent'
  | 'controller-unknown'
  | 'delete-refused'
  | 'wait-share-ran-out'
  | 'cancelled'
  | 'dry-run';

/** One custom resource in the custom-resources phase. */
export interface EarlyObject {
  /** `plural.group/name`. */
  object: string;
  /** `plural.group`. */
  type: string;
  finalizers: string[];
  /** Waited for because its controller was judged present, with the evidence in `why`. */
  waited: boolean;
  why: string;
  /** When our DELETE was accepted (ISO), or when it was already being deleted. */
  requestedAt?: string;
  /** When it was seen gone (ISO) within the phase. */
  goneAt?: string;
  /** From deletion request to gone. */
  ms?: number;
  /** Set when it was still there at the end of the phase. */
  left?: { reason: LeftReason; detail: string };
}

/** Per type: how many went in the phase and how long their finalizers took. */
export interface EarlyTypeSummary {
  type: string;
  found: number;
  gone: number;
  /** Deletion request → gone of those that went and held finalizers (ms). */
  finalizerMs?: { median: number; max: number };
  left: Partial<Record<LeftReason, number>>;
}

/** The custom-resources phase of one target. */
export interface CustomResourcesPhase {
  /** `done`: deletes were sent; `dry-run`: only planned; `skipped`: nothing was sent (see `note`). */
  mode: 'done' | 'dry-run' | 'skipped';
  note?: string;
  /** From the first DELETE to the end of the wait (ms). */
  tookMs: number;
  objects: EarlyObject[];
  types: EarlyTypeSummary[];
  /** Namespaced types of CRDs or aggregated APIs left out, and why (e.g. read-only metrics). */
  skippedTypes: { type: string; why: string }[];
  /**
   * Set when this target hosts a live actor for objects in other targets: its DELETE waited until those ended
   * (`served-gone`) or until its share of the timeout ended (`share-ended`), `ms` long; in plan mode it would be
   * held so (`planned`, nothing waited for).
   */
  held?: { serves: string[]; why: string; ended: 'served-gone' | 'share-ended' | 'planned'; ms: number };
}
