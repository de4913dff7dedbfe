/** The vocabulary of results: what happened to each target, and to the run. */
import type { Finding, ScanChoice } from './findings.js';
import type { AuditEntry, Plan, ForcePolicy } from './force.js';
import type { Condition, Cost } from './cluster.js';
import type { SweepReport } from './sweep.js';
import type { CustomResourcesPhase, PreMortem } from './prevention.js';
import type { LifecycleReport } from './lifecycle.js';
import type { PlannedWrite, TargetPlan } from './plan.js';

/**
 * - `gone`: deleted (by us or someone else) and observed gone within the timeout.
 * - `already-gone`: did not exist when we looked (NotFound counts as done).
 * - `recreated`: the old namespace went away and a new one (another UID) now has the name; left untouched.
 * - `stuck`: still Terminating when the timeout ran out.
 * - `active`: with `delete: false`, nobody deleted it before the timeout.
 * - `refused`: never touched: protected (matched by the selector, the sweep or the scope), or without the run's target
 *   label (`missingLabel`).
 * - `forced`: gone, after forced changes the policy allowed (observed gone, not assumed).
 * - `error`: a request about this namespace failed (403, 5xx after retries, unreachable, a malformed or
 *   mismatched answer); `note` says why. The other targets went on.
 * - `planned`: plan mode (`dry-run: true`): every write was a dry run, nothing was deleted or waited for; `plan`
 *   says what the server answered and what would follow.
 */
export const OUTCOMES = [
  'gone',
  'already-gone',
  'recreated',
  'stuck',
  'active',
  'refused',
  'forced',
  'error',
  'planned',
] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Everything recorded for one target namespace. */
export interface TargetReport {
  name: string;
  uid?: string;
  outcome: Outcome;
  /** The namespace's labels as last seen: they tell who owns it (a pull request, a team). */
  labels?: Record<string, string>;
  /** ISO times. */
  requestedAt?: string;
  goneAt?: string;
  /** From the delete request (or the start of the wait) to gone. */
  durationMs?: number;
  /** How long it had been Terminating when the wait ended (for stuck ones). */
  terminatingForMs?: number;
  transitions: { phase: string; at: string }[];
  conditions: Condition[];
  recreatedUid?: string;
  /** The run's target label, which this target (refused) does not carry. */
  missingLabel?: string;
  watchRestarts: { expired: number; reset: number };
  findings: Finding[];
  /** When and why the namespace was diagnosed. */
  diagnosedBecause?: string;
  /** Which namespace scan the diagnosis ran (targeted from the controller's conditions, or full) and why. */
  scan?: ScanChoice;
  /** What the last diagnosis could not read (403, timeout, a type that failed to list); findings say what it leaves unknown. */
  unread?: { what: string; error: string }[];
  /**
   * The force plan (when force is not off and force-after was reached) and what was done: `plan` is the last pass's,
   * `passes` every pass's in order (a pass that forced something is followed by another).
   */
  force?: { plan: Plan; passes?: Plan[]; audit: AuditEntry[] };
  /**
   * With `wait: settled`: when the wait stopped watching this namespace before the timeout because it was settled, and
   * what settled it (the finding whose verdict nothing in the cluster will change). The outcome stays `stuck`.
   */
  settled?: SettledTarget;
  /** With `wait: settled`, a target still there at the timeout: why the last look at it did not settle it. */
  notSettled?: string;
  /** Foreseen from a read-only snapshot before the first DELETE (Active targets this run deleted), and whether it came true. */
  preMortem?: PreMortem;
  /** The custom resources deleted before the namespace, and what their controllers did. */
  customResources?: CustomResourcesPhase;
  /** Plan mode: the namespace DELETE's dry-run answer and what forcing would change. */
  plan?: TargetPlan;
  note?: string;
}

/** A target the wait stopped watching before the timeout: when, and why nothing in the cluster will change it. */
export interface SettledTarget {
  /** ISO time of the look that found it settled. */
  at: string;
  /** From the start of the run. */
  afterMs: number;
  /** How long neither the namespace nor its controller's conditions had changed then. */
  quietMs: number;
  /** The verdicts of its findings that settle it, e.g. `leaked`. */
  verdicts: string[];
  /** Why, in one sentence without the namespace's name: the settling finding's words. */
  reason: string;
}

/**
 * What ended the wait: `gone` (every target went or needed no wait), `settled` (what was left was settled: see each
 * target's `settled`), `timeout` (something was still waited for when the timeout came), `cancelled`.
 */
export const WAIT_ENDS = ['gone', 'settled', 'timeout', 'cancelled'] as const;
export type WaitEnd = (typeof WAIT_ENDS)[number];

/** The wait of a run: the mode it ran in, what ended it, and when (each target's `settled` or `notSettled` says why). */
export interface WaitReport {
  mode: 'settled' | 'timeout';
  ended: WaitEnd;
  /** From the start of the run to the end of the wait. */
  afterMs: number;
}

/**
 * The run's result, best first. `skipped`: nothing was looked at or deleted (a keep label, a pull request that cannot be
 * read, a comment that did not ask): any cluster that did something says more. `planned`: plan mode, nothing changed.
 */
export const RUN_RESULTS = ['skipped', 'planned', 'clean', 'forced', 'stuck', 'error'] as const;
export type RunResult = (typeof RUN_RESULTS)[number];

/**
 * The JSON report's schema version. Fields are only ever added under it (a reader ignores what it does not know);
 * removing a field or changing what one means makes a new version, and `merge` names a report of a version it does
 * not read instead of guessing.
 */
export const REPORT_VERSION = 1;

/** The whole run: what the summary, annotations, outputs and JSON report are made from. */
export interface RunReport {
  version: typeof REPORT_VERSION;
  context: RunContext;
  startedAt: string;
  finishedAt: string;
  settings: {
    delete: boolean;
    timeout: string;
    failOn: string;
    selector?: string;
    /** Absent in reports written before the scope existed (= `targets`). */
    scope?: string;
    namespaces: string[];
    /** The label every target written to must carry (`target-label`); absent when none fenced the run. */
    targetLabel?: string;
    force: ForcePolicy;
    teardownOrder?: string;
    /** Plan mode (`dry-run: true`); absent in a run that wrote. */
    dryRun?: true;
    /** Absent in reports written before the setting existed (= `timeout`). */
    wait?: string;
  };
  targets: TargetReport[];
  result: RunResult;
  /** Reasons the check fails, empty when it passes. */
  failures: string[];
  /** Set when SIGINT/SIGTERM stopped the run: the targets show the state so far. */
  cancelled?: boolean;
  /** A failure of the whole run (e.g. the selector's list failed): what is known is still reported. */
  error?: string;
  /** What ended the wait (absent when the run did not wait: it failed, or was skipped). */
  wait?: WaitReport;
  /** Cluster requests and bytes, when the adapter counts them. */
  cost?: Cost;
  /** What the sweep asked GitHub and decided, when it chose the targets. */
  sweep?: SweepReport;
  /** Why nothing was deleted (a keep label, a comment that did not ask), or who asked in a comment. */
  lifecycle?: LifecycleReport;
  /** Plan mode: every write the run sent, each a dry run, in the order sent, with the server's answer. */
  plan?: { writes: PlannedWrite[] };
}

/** What the run is about, from the workflow context. */
export interface RunContext {
  repository?: string;
  ref?: string;
  sha?: string;
  pullRequest?: { number: number; title?: string; url?: string };
  runUrl?: string;
  /** The GitHub server (`https://github.com` or an Enterprise Server): links in the report go only there. */
  serverUrl?: string;
  workflow?: string;
  job?: string;
  /** The event that started the run (`GITHUB_EVENT_NAME`); absent outside a workflow. The lifecycle gate reads it. */
  event?: RunEvent;
  /** The comment of a comment event (`issue_comment`, a review comment or a review): who wrote it, where, its first word. */
  comment?: CommentEvent;
  /** Which cluster: its name, the kubeconfig context (when it has one) and the API server's host, never credentials. */
  cluster?: ClusterIdentity;
}

/** The cluster a run talked to: what `merge` tells the clusters apart by. */
export interface ClusterIdentity {
  /** The `cluster-name` input, else the kubeconfig context, else the API server's host. */
  name?: string;
  context?: string;
  server?: string;
}

/** The event a run was started by, as the runner names it, and what of its payload could not be read. */
export interface RunEvent {
  /** `pull_request`, `issue_comment`, `schedule`… */
  name: string;
  /** The payload's `action` (`closed`, `created`…), when it has one. */
  action?: string;
  /** Why the payload cannot be read as that event (a field missing or of the wrong type): the gate deletes nothing. */
  problem?: string;
}

/** The events a comment asking for a teardown can come in: each needs its author's write access. */
export const COMMENT_EVENTS = [
  'issue_comment',
  'pull_request_review_comment',
  'pull_request_review',
] as const;
export type CommentKind = (typeof COMMENT_EVENTS)[number];

/** A comment event as the run needs it (never the comment's whole text). */
export interface CommentEvent {
  /** The event it came in: where its reactions go (a review has none). */
  kind: CommentKind;
  id: number;
  /** `created`, `edited` or `deleted` (`submitted`, `edited` or `dismissed` for a review). */
  action: string;
  login: string;
  /** `User`, `Bot` or `Organization`, as GitHub records the author. */
  userType: string;
  /** The comment's first word (at most 50 characters), e.g. `/teardown`. */
  firstWord: string;
  /** The issue or pull request number it was written on. */
  issue: number;
  /** Whether that issue is a pull request. */
  onPullRequest: boolean;
  url?: string;
}
