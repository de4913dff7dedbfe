/** The use case: delete and wait, then decide the run's result and whether the check fails. */
import { formatDuration } from '../shared/duration.js';
import type { Clock } from '../shared/ports.js';
import type { RunContext, RunReport, RunResult, TargetReport, WaitReport } from '../model/run.js';
import type { LifecycleReport } from '../model/lifecycle.js';
import type { InspectDeps } from './inspect.js';
import { isProtected, type Settings } from '../settings/settings.js';
import { recreatesIt, SharedReads } from '../diagnosis/index.js';
import { refuseWritesOn } from './cancel.js';
import { deleteAndWait, type ResolvedTargets, type TeardownDeps } from './delete-and-wait.js';
import type { SweepReport } from '../model/sweep.js';
import { planFailures } from './plan-check.js';
import { PlannedWrites } from './plan-writes.js';

/** A namespace still Terminating after this long (or half the timeout) is diagnosed even if it goes later. */
export const SLOW_AFTER_MS = 30_000;

/**
 * The one deadline of a run: `timeout` for the wait, then a quarter of it (at least 5 s, at most 30 s) to
 * diagnose, force what is due and read the outcome. No request is sent or waited for after it. Pure.
 */
export function runDeadline(started: number, timeoutMs: number): number {
  return started + timeoutMs + Math.min(30_000, Math.max(5_000, timeoutMs / 4));
}

/**
 * What a run works on, decided before it starts: the targets resolved from `namespaces`, `selector` and `scope`, or
 * those the sweep chose, with the sweep's own report and why the check fails for what it could not read.
 */
export interface RunTargets extends ResolvedTargets {
  sweep?: { report: SweepReport; failures: string[] };
}

/** Why the check fails under `settings.failOn`; empty when it passes. Pure. */
export function failuresOf(
  settings: Pick<Settings, 'failOn'> & { sweep?: unknown },
  targets: TargetReport[],
  run: { error?: string; cancelled?: boolean } = {},
): string[] {
  if (settings.failOn === 'never') return [];
  const failures: string[] = [];
  if (run.cancelled) failures.push('the run was cancelled');
  if (run.error) failures.push(run.error);
  const errors = targets.filter((t) => t.outcome === 'error').map((t) => t.name);
  if (errors.length) failures.push(`${errors.length} namespace(s) ended in error: ${errors.join(', ')}`);
  const present = targets.filter((t) => t.outcome === 'stuck' || t.outcome === 'active').map((t) => t.name);
  if (present.length) failures.push(`${present.length} namespace(s) still present: ${present.join(', ')}`);
  const back = targets.filter((t) => t.findings.some(recreatesIt)).map((t) => t.name);
  if (back.length)
    failures.push(`${back.length} namespace(s) will be recreated by a live owner: ${back.join(', ')}`);
  const refused = targets.filter((t) => t.outcome === 'refused');
  const guarded = refused.filter((t) => t.missingLabel === undefined).map((t) => t.name);
  // Only the selector or the sweep can pick a protected namespace (a protected name given as input is refused).
  const picked = settings.sweep ? 'were chosen by the sweep' : 'matched the selector';
  if (guarded.length) failures.push(`protected namespace(s) ${picked}: ${guarded.join(', ')}`);
  const fenced = refused.filter((t) => t.missingLabel !== undefined);
  if (fenced.length)
    failures.push(
      `namespace(s) without the target label ${fenced[0]!.missingLabel} refused, not touched: ${fenced.map((t) => t.name).join(', ')}`,
    );
  if (settings.failOn === 'leaked') {
    const broken = targets.flatMap((t) =>
      t.findings.filter((f) => f.id === 'still-broken').map((f) => f.basis?.[0] ?? f.cause),
    );
    if (broken.length) failures.push(`left broken after the run: ${[...new Set(broken)].join('; ')}`);
    const leaked = targets
      .filter((t) => t.findings.some((f) => f.leaked && f.id !== 'still-broken'))
      .map((t) => t.name);
    if (leaked.length) failures.push(`finalizers leaked in: ${leaked.join(', ')}`);
    const forced = targets.filter((t) => t.outcome === 'forced').map((t) => t.name);
    if (forced.length)
      failures.push(`forcing was needed for: ${forced.join(', ')} (fix the leak in the chart)`);
  }
  return failures;
}

/**
 * Run the whole teardown and return the report the publishers render.
 *
 * Before: `settings` are parsed and checked, `deps.kube` is connected, and the caller has resolved the targets
 * (`resolveTargets`) or the sweep has chosen them; `started` is when it began to read them, and the timeout counts
 * from there.
 * After: every target resolved has its outcome (a target's failure is its `error` outcome, a failed list the run's
 * `error`); no write went outside those targets or to another UID (the write guard), and none started after
 * `deps.signal` aborted. `deps.kube` stays open: closing it is the caller's.
 * Returns the report, whose `failures` say whether the check fails. A throw means the run failed as a whole: the
 * caller turns it into `failedReport` and publishes that.
 */
export async function runTeardown(
  settings: Settings,
  deps: TeardownDeps & { slowAfterMs?: number },
  context: RunContext,
  chosen: RunTargets,
  started = deps.clock.now(),
): Promise<RunReport> {
  for (const warning of settings.warnings) deps.logger.warning(warning);
  // Plan mode fails closed: without an adapter that sends every write as a dry run, nothing runs at all.
  if (settings.dryRun && deps.kube.dryRun !== true)
    throw new Error(
      'plan mode (dry-run: true) needs a cluster connection that sends every write as a dry run',
    );
  // Once cancelled, no new write starts, whichever code path would make it.
  const live = deps.signal ? refuseWritesOn(deps.kube, deps.signal) : deps.kube;
  // Plan mode: every write (each a dry run) is recorded with its answer.
  const plan = settings.dryRun ? new PlannedWrites() : undefined;
  const kube = plan ? plan.wrap(live) : live;
  // Cluster-wide reads (workloads, roles, Leases, CRDs, webhooks) once per checkpoint for all targets, not per target.
  const shared = new SharedReads(() => deps.clock.now());
  const inspect: InspectDeps = {
    kube,
    logger: deps.logger,
    clock: deps.clock,
    force: settings.force,
    isProtected: (name) => isProtected(settings, name),
    slowAfterMs: deps.slowAfterMs ?? Math.min(SLOW_AFTER_MS, settings.timeoutMs / 2),
    warned: new Set(),
    shared,
  };
  const { targets, owners, error } = await deleteAndWait(
    settings,
    { ...deps, kube, inspect, ...(plan ? { plan } : {}) },
    chosen,
    started + settings.timeoutMs,
  );
  const cancelled = deps.signal?.aborted === true;
  const cost = deps.kube.cost?.();
  return {
    version: 1,
    context,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(deps.clock.now()).toISOString(),
    settings: settingsOf(settings),
    targets,
    result: plan ? planned(resultOf(targets, error, cancelled)) : resultOf(targets, error, cancelled),
    failures: [
      ...failuresOf(settings, targets, { error, cancelled }),
      ...(plan ? planFailures(settings, targets, plan.writes) : []),
      ...(chosen.sweep?.failures ?? []),
    ],
    wait: waitOf(settings, targets, started, cancelled, deps.clock.now()),
    cost,
    ...(owners ? { lifecycle: { owners } } : {}),
    ...(cancelled ? { cancelled } : {}),
    ...(error !== undefined ? { error } : {}),
    ...(chosen.sweep ? { sweep: chosen.sweep.report } : {}),
    ...(plan ? { plan: { writes: plan.writes } } : {}),
  };
}

/**
 * What ended the wait, and when (from `started`): cancelled; the timeout, while a target was still waited for (still
 * there and not settled); every target still there settled; or every target gone (or needing no wait). Pure.
 */
export function waitOf(
  settings: Pick<Settings, 'wait' | 'timeoutMs'>,
  targets: readonly TargetReport[],
  started: number,
  cancelled: boolean,
  now: number,
): WaitReport {
  const mode = settings.wait;
  const left = targets.filter((t) => t.outcome === 'stuck' || t.outcome === 'active');
  const goneAt = Math.max(0, ...targets.map((t) => (t.goneAt ? Date.parse(t.goneAt) - started : 0)));
  if (cancelled) return { mode, ended: 'cancelled', afterMs: Math.max(0, now - started) };
  if (left.some((t) => t.settled === undefined))
    return { mode, ended: 'timeout', afterMs: settings.timeoutMs };
  if (left.length === 0) return { mode, ended: 'gone', afterMs: goneAt };
  const settledAt = Math.max(...left.map((t) => t.settled!.afterMs));
  return { mode, ended: 'settled', afterMs: Math.max(goneAt, settledAt) };
}

/**
 * The run's result: `error` (cancelled, a run or target error) wins over `stuck` (still present, or gone but applied
 * again by a live owner: the check fails for it too), which wins over `forced`, then `clean`. Pure.
 */
export function resultOf(targets: TargetReport[], runError?: string, cancelled = false): RunResult {
  if (cancelled || runError !== undefined || targets.some((t) => t.outcome === 'error')) return 'error';
  const present = (t: TargetReport): boolean =>
    t.outcome === 'stuck' || t.outcome === 'active' || t.findings.some(recreatesIt);
  if (targets.some(present)) return 'stuck';
  return targets.some((t) => t.outcome === 'forced') ? 'forced' : 'clean';
}

/** Plan mode's result: `planned`, unless the run or a target ended in error. */
const planned = (result: RunResult): RunResult => (result === 'error' ? 'error' : 'planned');

/**
 * The report of a run that failed as a whole (or did not stop in time when cancelled): no target is known. `clock`
 * says when it finished, as it does for every other report.
 */
export function failedReport(
  settings: Settings,
  context: RunContext,
  started: number,
  error: string,
  cancelled: boolean,
  clock: Clock,
): RunReport {
  return {
    version: 1,
    context,
    startedAt: new Date(started).toISOString(),
    finishedAt: new Date(clock.now()).toISOString(),
    settings: settingsOf(settings),
    targets: [],
    result: 'error',
    failures: failuresOf(settings, [], { error, cancelled }),
    error,
    ...(cancelled ? { cancelled } : {}),
  };
}

/** The report of a run that deleted nothing and read no cluster: `lifecycle.skipped` says why. */
export function skippedReport(
  settings: Settings,
  context: RunContext,
  clock: Clock,
  lifecycle: LifecycleReport,
): RunReport {
  const now = new Date(clock.now()).toISOString();
  return {
    version: 1,
    context,
    startedAt: now,
    finishedAt: now,
    settings: settingsOf(settings),
    targets: [],
    result: 'skipped',
    // GitHub could not be read: the preview stays, and the check says so rather than pass unseen.
    failures: lifecycle.skipped?.unread && settings.failOn !== 'never' ? [lifecycle.skipped.why] : [],
    lifecycle,
  };
}

function settingsOf(settings: Settings): RunReport['settings'] {
  return {
    delete: settings.delete,
    timeout: formatDuration(settings.timeoutMs),
    failOn: settings.failOn,
    selector: settings.selector,
    scope: settings.scope,
    namespaces: [...settings.namespaces],
    ...(settings.targetLabel !== undefined ? { targetLabel: settings.targetLabel } : {}),
    force: settings.force,
    teardownOrder: settings.teardownOrder,
    ...(settings.dryRun ? { dryRun: true as const } : {}),
    wait: settings.wait,
  };
}
