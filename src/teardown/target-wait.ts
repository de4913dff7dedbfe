/**
 * One target's wait once it is deleted: the wait itself, its inspector's checkpoints (diagnose, force) and, with
 * `wait: settled`, its settle watch, then what is left to do at the end and the target's report.
 */
import type { NamespaceState } from '../model/cluster.js';
import type { TargetReport } from '../model/run.js';
import type { Early } from '../prevention/prevent.js';
import type { Settings } from '../settings/settings.js';
import { formatDuration } from '../shared/duration.js';
import type { Kube } from '../kube/port.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { NamespaceFeed } from './feed.js';
import { Inspector, type InspectDeps } from './inspect.js';
import { lostSight, reread } from './last-read.js';
import type { ProgressTracker } from './progress.js';
import { SettleWatch, type Settled } from './settle-watch.js';
import { applyInspection, listedTerminating, reportFromWait, terminatingSince } from './target-report.js';
import { waitUntilGone, type WaitRecord } from './wait.js';

/** What one target's wait uses of the run's dependencies (teardown's TeardownDeps). */
interface WaitDeps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  pollMs?: number;
  inspect?: InspectDeps;
  signal?: AbortSignal;
}

/** What one target's wait shares with the run's other targets. */
export interface WaitCtx {
  settings: Settings;
  deps: WaitDeps;
  deadline: number;
  progress: ProgressTracker;
  /** With many targets, their waits share one watch and one list. */
  feed?: NamespaceFeed;
}

/** Wait for one namespace while the inspector diagnoses and forces it at its checkpoints. */
export async function waitAndInspect(
  ctx: WaitCtx,
  state: NamespaceState,
  requestedMs: number | undefined,
  bindings?: Early['roleBindings'],
): Promise<TargetReport> {
  const { kube, logger, clock } = ctx.deps;
  const since = Math.min(terminatingSince(state, requestedMs) ?? clock.now(), clock.now());
  const inspector = ctx.deps.inspect ? new Inspector(ctx.deps.inspect, since) : undefined;
  const watch = inspector && ctx.settings.wait === 'settled' ? new SettleWatch(inspector, clock) : undefined;
  let latest: NamespaceState | undefined = state.deletionTimestamp ? state : undefined;
  watch?.observe(state);
  const stop = new AbortController();
  const settledEnd = new AbortController();
  const inspecting = inspector?.run(() => latest, stop.signal);
  let settled: Settled | undefined;
  const settling = watch
    ?.run(() => latest, stop.signal)
    .then((s) => {
      settled = s;
      if (!s) return;
      logger.info(`${state.name}: settled, unchanged for ${formatDuration(s.quietMs)}: ${s.reason}`);
      settledEnd.abort();
    });
  const record = await waitUntilGone(kube, state, {
    deadline: ctx.deadline,
    signal: ctx.deps.signal,
    settled: settledEnd.signal,
    clock,
    logger,
    pollMs: ctx.deps.pollMs ?? 10_000,
    feed: ctx.feed,
    onChange: (r) => {
      ctx.progress.update(state.name, r);
      watch?.observe(r.last);
      latest = r.goneAt === undefined && r.last.deletionTimestamp ? r.last : undefined;
    },
  });
  stop.abort();
  await Promise.all([inspecting, settling]);
  const cancelled = ctx.deps.signal?.aborted === true;
  // A DELETE this run sent was accepted: it is deleting even when the wait ended before it saw the change.
  const deleting = record.last.deletionTimestamp !== undefined || requestedMs !== undefined;
  if (inspector && !cancelled && record.goneAt === undefined && deleting) {
    await finishInspection(ctx, inspector, record, settled);
  }
  // One last read decides: a new namespace may hold the name (report it, never touch it), and when the watch was
  // unusable it is the only sign that the namespace went. With the shared feed, a namespace seen gone was seen so
  // by the feed's watch or list, which also reads any namespace recreated under the name before that (another UID
  // makes it GET the name): thousands of targets then need no GET each at the end.
  const seenGone = ctx.feed !== undefined && record.goneAt !== undefined;
  if (record.recreatedUid === undefined && !cancelled && !seenGone)
    await reread(kube, record, () => clock.now());
  const report = reportFromWait(record, requestedMs, clock.now());
  if (cancelled && report.outcome === 'stuck') report.note = 'the run was cancelled while it was Terminating';
  if (inspector) applyInspection(report, inspector.result);
  if (report.outcome === 'active' && state.deletionTimestamp !== undefined)
    report.note = listedTerminating(report);
  if (report.outcome === 'stuck' && record.forbidden) lostSight(report, record.forbidden, bindings);
  if (report.outcome === 'stuck' && settled) report.settled = settledReport(ctx, settled);
  if (report.outcome === 'stuck' && !settled && watch && !cancelled) report.notSettled = watch.notSettled;
  return report;
}

/** The target's `settled`, timed from the start of the run (the deadline is the start plus the timeout). */
function settledReport(ctx: WaitCtx, s: Settled): NonNullable<TargetReport['settled']> {
  const started = ctx.deadline - ctx.settings.timeoutMs;
  return {
    at: new Date(s.at).toISOString(),
    afterMs: Math.max(0, s.at - started),
    quietMs: s.quietMs,
    verdicts: s.verdicts,
    reason: s.reason,
  };
}

/**
 * At the timeout: force if that was still due, observe the result, and diagnose what is left. Settled before the
 * timeout: the look that settled it has just diagnosed it, and forcing had nothing left to do (its plan is recorded).
 */
async function finishInspection(
  ctx: WaitCtx,
  inspector: Inspector,
  record: WaitRecord,
  settled: Settled | undefined,
): Promise<void> {
  const { kube, clock } = ctx.deps;
  if (settled) {
    inspector.planAtSettle(record.last);
    return;
  }
  const policy = ctx.deps.inspect!.force;
  if (policy.mode !== 'off' && inspector.result.plan === undefined) await inspector.force(record.last);
  // Never report success we did not observe: read it back.
  if (inspector.result.forcedWrites) await reread(kube, record, () => clock.now());
  if (record.goneAt === undefined && record.recreatedUid === undefined) {
    await inspector.diagnose(record.last, `still Terminating at the timeout, after ${inspector.age()}`);
  }
}
