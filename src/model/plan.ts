/** The vocabulary of plan mode (`dry-run: true`): each write sent as a dry run with the server's answer, and what forcing would change. */

/**
 * Who refused a write, as the server's answer says: an admission webhook (that denied it, or that could not be
 * called), a ValidatingAdmissionPolicy, RBAC, or the API server itself (a precondition, validation).
 */
export interface Refuser {
  by: 'webhook' | 'policy' | 'rbac' | 'server';
  /** The webhook's or the policy's name, when the answer names one. */
  name?: string;
}

/** One write the run would make, sent with `dryRun=All`, and what the API server answered. */
export interface PlannedWrite {
  verb: 'delete' | 'patch' | 'update';
  /** `namespaces/pr-1`, `widgets.acme.io/w1`, `kustomizations.kustomize.toolkit.fluxcd.io/web`. */
  object: string;
  /** The namespace the object is in; absent for a namespace itself and cluster-scoped objects. */
  namespace?: string;
  /** `accepted`: a 2xx (the write would be done); `refused`: a 4xx or 5xx answer; `gone`: 404, nothing to write. */
  answer: 'accepted' | 'refused' | 'gone';
  code?: number;
  reason?: string;
  /** The server's message, verbatim. */
  message?: string;
  refusedBy?: Refuser;
}

/** One predicted hang and what forcing would do about it under the policy given, once the namespace hangs. */
export interface ForcingForecast {
  /** The finalizer, node, APIService or webhook the prediction is about. */
  about: string;
  /** Whether the policy would let forcing get past it. */
  would: boolean;
  words: string;
}

/** What plan mode found for one target, beside its pre-mortem and its custom resources. */
export interface TargetPlan {
  /** The answer to the namespace DELETE (a dry run); absent when none would be sent (already Terminating, `delete: false`). */
  delete?: PlannedWrite;
  /** A prediction, from the pre-mortem and the force policy: forcing decides only on what it reads once the namespace hangs. */
  forcing: ForcingForecast[];
  /** Why `forcing` is empty or says nothing: no hang predicted, no pre-mortem, force off, a protected namespace. */
  forcingNote?: string;
}
