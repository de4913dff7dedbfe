/** What a diagnosis finds: findings with their evidence and remedy, the objects left over, and which scan ran. */
import type { ApiResource, Condition, ObjectMeta } from './cluster.js';

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

export const FINDING_SEVERITIES = ['error', 'warning', 'notice'] as const;
export type Severity = (typeof FINDING_SEVERITIES)[number];

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

/**
 * A finding's verdict in one word, derived from the actors this run read:
 * - `leaked`: no live actor can release it; `deadlock`: its only actor dies with the namespace;
 * - `waiting`: a live actor is working on it; `down`: its actor is installed but not alive;
 * - `will-recreate`: a live owner targets the namespace and applies it again once gone;
 * - `refused-on-purpose`: a policy that is up denies; `cannot-evaluate`: a policy is misconfigured or fails to
 *   evaluate (no object change helps); `backend-down`: a webhook or API that must answer cannot;
 * - `outcome-unknown`: this run lost the right to look; `unknown`: what would tell could not be read.
 */
export type Verdict =
  | 'leaked'
  | 'deadlock'
  | 'waiting'
  | 'down'
  | 'will-recreate'
  | 'refused-on-purpose'
  | 'cannot-evaluate'
  | 'backend-down'
  | 'outcome-unknown'
  | 'unknown';

/** An actor as the report shows it: who, what it can do, why it is tied to the blocker, and whether it is alive. */
export interface ActorRecord {
  name: string;
  role: 'releases' | 'recreates' | 'refuses';
  link: string;
  live: 'live' | 'down' | 'unknown';
  evidence: string[];
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
  owner?: {
    controller: string;
    present: boolean | 'unknown';
    detail?: string;
    /** How it runs, where neither running nor not running says it (`running but not leading`). */
    status?: string;
  };
  /** 0..1 where the finding is a heuristic; absent when it is a direct observation. */
  confidence?: number;
  /** The verdict in one word, where the finding has one (see Verdict). */
  verdict?: Verdict;
  /** The one or two pieces of evidence this run read that the verdict rests on (or what it could not read). */
  basis?: string[];
  /** The actors tied to the blocker, with their liveness. */
  actors?: ActorRecord[];
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
      /** A Service's cloud load balancer (status.loadBalancer: IP or hostname), what its finalizer guards. */
      loadBalancer?: string[];
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
