/** The sweep's vocabulary: its settings and what it decided for each candidate namespace. */
import type { RepoRef, PullState } from './pulls.js';

export const SWEEP_MODES = ['off', 'plan', 'on'] as const;
export type SweepMode = (typeof SWEEP_MODES)[number];

/** The sweep as configured; absent from Settings when `sweep: off`. */
export interface SweepSettings {
  readonly mode: Exclude<SweepMode, 'off'>;
  /** The namespace label whose value is the pull request number. */
  readonly prLabel: string;
  /** How long a pull request must have been closed (or a namespace of a missing one must exist). */
  readonly closedForMs: number;
  /** Namespaces without the label go once older than this; undefined = never. */
  readonly maxAgeMs: number | undefined;
  readonly repository: RepoRef;
}

/** The decision for one candidate: go (becomes a target) or keep, and why in one line. */
export interface Decision {
  decision: 'go' | 'keep';
  reason: string;
  /** The label value is not a pull request number: reported, never guessed. */
  invalidLabel?: boolean;
  /** A ttl or expires annotation that does not parse: kept and reported, never guessed. */
  invalidAnnotation?: boolean;
  /** The pull request's keep label that kept it. */
  keptBy?: string;
  /** It goes because it expired (ttl, expires, max-age), whatever its pull request's state. */
  expired?: boolean;
}

/** One candidate namespace in the report. */
export interface SweepEntry extends Decision {
  namespace: string;
  /** The label's value as found, when there was one. */
  label?: string;
  pr?: number;
  pull?: PullState;
  /** Link to the pull request. */
  prUrl?: string;
  createdAt?: string;
  /** Chosen to go, but protected: never touched. */
  protected?: boolean;
  /** Chosen to go, but without the run's target label (this one): never touched. */
  missingLabel?: string;
}

/** What the sweep looked at, asked and decided; the summary's sweep section is made from it. */
export interface SweepReport {
  mode: Exclude<SweepMode, 'off'>;
  repository: string;
  prLabel: string;
  closedFor: string;
  maxAge?: string;
  /** `max-age`: every candidate goes once older, even while its pull request is open. */
  lifetime?: string;
  /** The pull request label that keeps a preview, when one is configured. */
  keepLabel?: string;
  /** The label selector used to list candidates. */
  listedBy: string;
  /** Namespaces the list answered that do not match `listedBy` when checked here: never candidates. */
  unmatched?: number;
  /** Distinct pull requests asked about. */
  pulls: number;
  /** Requests sent to GitHub (retries included). */
  githubRequests: number;
  /** How GitHub was asked: GraphQL in batches, or REST one by one when GraphQL was refused. */
  githubApi: 'graphql' | 'rest';
  /** Why GraphQL was not used, when it was refused. */
  githubFallback?: string;
  entries: SweepEntry[];
}
