/** The story per namespace: delete → wait (diagnose, force) → outcome, all targets at once, as resolved before. */
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import { formatDuration } from '../shared/duration.js';
import type { InspectDeps } from './inspect.js';
import type { TargetReport } from '../model/run.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { Settings } from '../settings/settings.js';
import { reasonOf, requestDeletion, type Resolved } from '../targets/resolve.js';
import { NamespaceFeed, SHARED_WATCH_FROM } from './feed.js';
import { logProgress, ProgressTracker, type Progress } from './progress.js';
import { BeforeDelete, type Early } from '../prevention/prevent.js';
import { guardWrites } from './write-guard.js';
import { ownersFirst } from './gitops-first.js';
import type { OwnerAction } from '../model/lifecycle.js';
import { checkOwners } from './owners.js';
import { markRecreated } from './last-read.js';
import { refusedReport, simpleReport } from './target-report.js';
import { waitAndInspect, type WaitCtx } from './target-wait.js';
import { checkOutlived } from './outlives.js';
import { planStory } from './plan-story.js';
import type { PlannedWrites } from './plan-writes.js';

/** The action's log says what is still Terminating at least this often while it waits. */
export const MAX_PROGRESS_MS = 30_000;

export interface TeardownDeps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  /** Safety-net poll interval while waiting (default 10 s). */
  pollMs?: number;
  /** Interval of the progress line while waiting (default 15 s, at most 30 s). */
  progressMs?: number;
  /** Told about every change of the counts while waiting (the CLI's status line). */
  onProgress?: (p: Progress) => void;
  /** Diagnosis and forcing while waiting; absent = only wait. */
  inspect?: InspectDeps;
  /** Aborted on cancellation: stop waiting, start no new write, report the state so far. */
  signal?: AbortSignal;
  /** Plan mode: every write is a dry run recorded here, and each story ends after its DELETE (plan-story.ts). */
  plan?: PlannedWrites;
}

/** The targets of a run, resolved before it starts, and the failure of a list that should have found more. */
export interface ResolvedTargets {
  targets: Resolved[];
  error?: string;
}

/** The targets' reports, what became of their GitOps owners, and a failure of the whole run when there was one. */
export interface TeardownResult {
  targets: TargetReport[];
  owners?: OwnerAction[];
  error?: string;
}

interface RunCtx extends WaitCtx {
  deps: TeardownDeps;
  before: BeforeDelete;
}

/** One target's story; any failure becomes its `error` outcome, so the other targets go on. */
async function handleTarget(ctx: RunCtx, t: Resolved): Promise<TargetReport> {
  let report: TargetReport;
  try {
    report = await storyOf(ctx, t);
  } catch (error) {
    const note = `failed: ${reasonOf(error)}`;
    ctx.deps.logger.warning(`${t.name}: ${note}`);
    report = simpleReport(t.name, 'error', note, t.state);
  }
  ctx.progress.finish(t.name, report.outcome);
  ctx.before.finished(t.name);
  return report;
}

/**
 * One target's story, in order: a target refused, unreadable or not found ends as resolved; else, with `delete`, an
 * Active target gets its pre-mortem and custom-resources phase, then the DELETE under its UID; then the wait with
 * its inspector (diagnose and force at the checkpoints), and the outcome.
 * Before: `t` was resolved in this run and every write of `ctx.deps.kube` passes the write guard.
 * After: for a target it came to delete, what was foreseen and done before the DELETE is in its report.
 * Returns the target's report. A throw is a failure this code did not foresee: `handleTarget` makes it the
 * target's `error` outcome, so the other targets go on.
 */
async function storyOf(ctx: RunCtx, t: Resolved): Promise<TargetReport> {
  const { kube, logger, clock } = ctx.deps;
  if (t.refused !== undefined) return refusedReport(t, t.refused);
  if (t.error !== undefined) {
    logger.warning(`${t.name}: ${t.error}`);
    return simpleReport(t.name, 'error', t.error, t.state);
  }
  if (t.state === undefined) return simpleReport(t.name, 'already-gone', 'not found: nothing to delete');
  if (ctx.deps.plan) return planStory({ ...ctx, ...ctx.deps, writes: ctx.deps.plan }, t.state);
  let state = t.state;
  let requestedMs: number | undefined;
  let early: Early = {};
  if (ctx.settings.delete) {
    // Only a target this run deletes gets the pre-mortem and the custom-resources phase, never one already going.
    if (state.deletionTimestamp === undefined) early = await ctx.before.run(state);
    if (ctx.deps.signal?.aborted && state.deletionTimestamp === undefined) {
      const report = simpleReport(t.name, 'active', 'the run was cancelled before the delete request', state);
      ctx.before.finish(report, early);
      return report;
    }
    if (state.deletionTimestamp === undefined) requestedMs = clock.now();
    const requested = await requestDeletion(kube, state, logger);
    if ('outcome' in requested) {
      if (requested.outcome === 'error') logger.warning(`${t.name}: ${requested.note}`);
      const report = simpleReport(t.name, requested.outcome, requested.note, state);
      ctx.before.finish(report, early);
      return report;
    }
    state = requested.state;
  }
  const report = await waitAndInspect(ctx, state, requestedMs, early.roleBindings);
  ctx.before.finish(report, early);
  const took = report.durationMs !== undefined ? ` after ${formatDuration(report.durationMs)}` : '';
  logger.info(`${t.name}: ${report.outcome}${took}`);
  return report;
}

/** Delete (unless `delete: false`) and wait for every target resolved, concurrently, bounded by the timeout. */
export async function deleteAndWait(
  settings: Settings,
  deps: TeardownDeps,
  resolved: ResolvedTargets,
  deadline: number,
): Promise<TeardownResult> {
  const { logger, clock } = deps;
  await logger.group('Resolve targets', async () => {
    for (const t of resolved.targets)
      logger.info(`${t.name}: ${t.refused ?? t.error ?? (t.state ? t.state.phase : 'not found')}`);
    if (resolved.error) logger.warning(resolved.error);
  });
  const { deps: ctxDeps, verified } = guarded(deps, resolved.targets);
  // Active targets this run deletes: all of them are read (and their custom resources go) before any DELETE.
  const toDelete = settings.delete
    ? resolved.targets.flatMap((t) =>
        t.state && !t.state.deletionTimestamp && !t.refused && !t.error ? [t.state] : [],
      )
    : [];
  const owners =
    settings.lifecycle.gitopsOwners === 'report' || toDelete.length === 0
      ? undefined
      : await logger.group('GitOps owners first', () =>
          ownersFirst(
            settings,
            { ...ctxDeps, writer: (grants) => guardWrites(deps.kube, verified, grants) },
            toDelete,
            // Their share of the timeout, as the custom resources have theirs: the namespaces still go after it.
            Math.min(deadline, clock.now() + settings.timeoutMs / 2),
          ),
        );
  const before = new BeforeDelete(
    settings,
    { ...ctxDeps, shared: ctxDeps.inspect?.shared },
    deadline,
    toDelete.length,
  );
  before.prepare(toDelete);
  const feed = deps.plan ? undefined : feedFor(resolved.targets, ctxDeps);
  const progress = new ProgressTracker(clock, clock.now(), deps.onProgress);
  progress.begin(resolved.targets.length);
  const ctx: RunCtx = { settings, deps: ctxDeps, deadline, progress, before, feed };
  const stopProgress = logProgress(progress, deps, Math.min(deps.progressMs ?? 15_000, MAX_PROGRESS_MS));
  ctx.feed?.start();
  try {
    const targets = await logger.group('Delete, wait and diagnose', () =>
      Promise.all(resolved.targets.map((t) => handleTarget(ctx, t))),
    );
    if (ctx.feed && !deps.signal?.aborted) await markRecreated(ctxDeps.kube, targets, logger);
    if (deps.inspect && !deps.signal?.aborted && !deps.plan) {
      await checkOwners({ kube: ctxDeps.kube, clock, logger, shared: deps.inspect.shared }, targets);
      await checkOutlived({ kube: ctxDeps.kube, logger }, targets);
    }
    return {
      targets,
      ...(owners ? { owners } : {}),
      ...(resolved.error !== undefined ? { error: resolved.error } : {}),
    };
  } finally {
    stopProgress();
    ctx.feed?.close();
  }
}

/** `deps` whose every write passes one guard: only to the targets resolved, under the UIDs read, verified for it. */
function guarded(
  deps: TeardownDeps,
  targets: readonly Resolved[],
): { deps: TeardownDeps; verified: NamespaceState[] } {
  const verified = targets.flatMap((t) => (t.state && !t.refused && !t.error ? [t.state] : []));
  const kube = guardWrites(deps.kube, verified);
  return {
    deps: { ...deps, kube, ...(deps.inspect ? { inspect: { ...deps.inspect, kube } } : {}) },
    verified,
  };
}

/** One shared watch and list for the waits when there are many targets to wait for (see SHARED_WATCH_FROM). */
function feedFor(targets: Resolved[], deps: TeardownDeps): NamespaceFeed | undefined {
  const waiting = targets.filter((t) => t.state && t.refused === undefined && t.error === undefined).length;
  if (waiting < SHARED_WATCH_FROM) return undefined;
  deps.logger.info(
    `${waiting} namespaces to wait for: one watch and one list of all namespaces serve them all`,
  );
  return new NamespaceFeed(deps.kube, {
    clock: deps.clock,
    logger: deps.logger,
    pollMs: deps.pollMs ?? 10_000,
  });
}
