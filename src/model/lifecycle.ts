/** The preview's lifecycle: the keep label, expiry, a teardown asked for in a comment, and GitOps owners first. */

/**
 * What is done with a live GitOps owner (Flux, Argo CD) of a target before the namespace is deleted;
 * `delete-or-suspend` suspends an owner that deleting would take more than the targets with.
 */
export const GITOPS_OWNER_POLICIES = ['report', 'suspend', 'delete', 'delete-or-suspend'] as const;
export type GitopsOwnerPolicy = (typeof GITOPS_OWNER_POLICIES)[number];

/** The annotation whose value (a duration, e.g. `48h`) sets a namespace's expiry from its creation. */
export const TTL_ANNOTATION = 'namespace-teardown.github.io/ttl';
/** The annotation whose value (an RFC 3339 time, e.g. `2026-12-01T00:00:00Z`) is a namespace's expiry. */
export const EXPIRES_ANNOTATION = 'namespace-teardown.github.io/expires';

/** The lifecycle inputs, parsed. */
export interface LifecycleSettings {
  /** A pull request carrying this label keeps its preview on every path; undefined = no label keeps. */
  readonly keepLabel: string | undefined;
  /** The sweep removes candidates older than this even while their pull request is open; undefined = never. */
  readonly maxAgeMs: number | undefined;
  /** The word a pull-request comment starts with to ask for the teardown, e.g. `/teardown`. */
  readonly command: string;
  /** Events besides the lifecycle's own on which the targets are deleted as given (`allow-events`), e.g. `push`. */
  readonly allowEvents: readonly string[];
  readonly gitopsOwners: GitopsOwnerPolicy;
}

/** Who asked for the teardown in a comment, and what came of it. */
export interface CommentRequest {
  login: string;
  /** The comment's link, when the event gave one on this GitHub server. */
  url?: string;
  /** The commenter's permission on the repository, as GitHub answered it; absent when it could not be read. */
  permission?: string;
}

/**
 * What was done with one GitOps owner of the targets before their namespaces were deleted: `suspended`, `deleted`,
 * `would-suspend` / `would-delete` (force: dry-run), `left-alone` (it also targets a namespace outside the targets,
 * deleting it would take objects outside them, or it cannot be acted on), `already` (suspended or being deleted
 * before this run), `not-gone` (deleted, still there at the end of its wait), `failed` (the write was refused or
 * failed), `unread` (the owners could not be listed).
 */
export type OwnerOutcome =
  | 'suspended'
  | 'deleted'
  | 'would-suspend'
  | 'would-delete'
  | 'left-alone'
  | 'already'
  | 'not-gone'
  | 'failed'
  | 'unread';

/** One GitOps owner and what became of it. */
export interface OwnerAction {
  /** `Kustomization flux-system/preview-web-5`. */
  owner: string;
  /** The targets it would apply again. */
  targets: string[];
  outcome: OwnerOutcome;
  /** Objects its controller removes with it (Flux `prune: true` inventory, Argo CD's resources finalizer). */
  pruned?: number;
  /** One line: what was done or seen, and why. */
  note: string;
}

/** What the lifecycle decided for this run, beside the targets. */
export interface LifecycleReport {
  /** GitOps owners suspended or deleted before the namespaces (`gitops-owners: suspend|delete|delete-or-suspend`). */
  owners?: OwnerAction[];
  /**
   * Nothing was deleted, and why in one line; `keptBy` when a pull request's keep label kept the preview; `unread`
   * when GitHub could not be read (the pull request, its labels, the commenter's permission): the check fails, as
   * a preview nobody can tear down must not pass unseen.
   */
  skipped?: { why: string; keptBy?: { label: string; pr: number }; unread?: boolean };
  /** The comment that asked for the teardown (it ran only when `skipped` is absent). */
  request?: CommentRequest;
}
