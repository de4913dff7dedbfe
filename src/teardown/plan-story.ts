/**
 * Plan mode (`dry-run: true`), one target's story: its pre-mortem and custom resources as in a run (each DELETE a dry
 * run), then the namespace DELETE as a dry run, and no wait: nothing was deleted. A target already Terminating is
 * diagnosed once and its forcing decided on what was read, nothing executed.
 */
import { forecastForcing } from '../force/index.js';
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { TargetReport } from '../model/run.js';
import type { BeforeDelete, Early } from '../prevention/prevent.js';
import { Inputs } from '../settings/action-names.js';
import { isProtected, type Settings } from '../settings/settings.js';
import type { Clock, Logger } from '../shared/ports.js';
import { requestDeletion } from '../targets/resolve.js';
import { Inspector, type InspectDeps } from './inspect.js';
import type { PlannedWrites } from './plan-writes.js';
import { applyInspection, simpleReport } from './target-report.js';

/** What a planned story needs of the run. */
export interface PlanCtx {
  settings: Settings;
  /** The run's port: guarded, and a dry run for every write (the adapter's). */
  kube: Kube;
  logger: Logger;
  clock: Clock;
  signal?: AbortSignal;
  before: BeforeDelete;
  inspect?: InspectDeps;
  writes: PlannedWrites;
}

/** The report of a target whose DELETE was sent as a dry run: planned (accepted or refused), or what the answer says. */
async function deletePlanned(ctx: PlanCtx, state: NamespaceState, early: Early): Promise<TargetReport> {
  const requested = await requestDeletion(ctx.kube, state, ctx.logger);
  const answer = ctx.writes.deleteOf(state.name);
  // A refusal is what the plan is for; anything else the answer says (gone, recreated, no answer) is as in a run.
  const refused = answer?.answer === 'refused' && answer.code !== 409;
  if ('outcome' in requested && !refused)
    return simpleReport(state.name, requested.outcome, requested.note, state);
  const note = refused
    ? `the DELETE (dry run) was refused: ${answer.message ?? `HTTP ${answer.code ?? '?'}`}`
    : 'the DELETE (dry run) was accepted: it would be deleted';
  const report = simpleReport(state.name, 'planned', note, state);
  const predictions = early.preMortem?.predictions;
  const protectedName = isProtected(ctx.settings, state.name);
  report.plan = {
    ...(answer ? { delete: answer } : {}),
    ...forecastForcing(ctx.settings.force, predictions, protectedName),
  };
  return report;
}

/** A target nothing would be sent to: already Terminating (diagnosed now, its forcing decided) or `delete: false`. */
async function nothingToDelete(ctx: PlanCtx, state: NamespaceState): Promise<TargetReport> {
  const since = state.deletionTimestamp;
  const why = since
    ? `already Terminating since ${since}: nothing to delete; diagnosed now, nothing forced`
    : `${Inputs.delete} is false: nothing would be deleted; the run would wait for someone else to delete it`;
  const report = simpleReport(state.name, 'planned', why, state);
  if (since !== undefined && ctx.inspect) {
    const policy = ctx.inspect.force;
    // Forcing is decided as a dry run would decide it: on what was read now, never executed.
    const force = policy.mode === 'off' ? policy : { ...policy, mode: 'dry-run' as const };
    const inspector = new Inspector({ ...ctx.inspect, force }, Date.parse(since) || ctx.clock.now());
    if (force.mode === 'off') await inspector.diagnose(state, 'plan mode: already Terminating');
    else await inspector.force(state);
    applyInspection(report, inspector.result);
  }
  const note = since ? 'already Terminating: see the forcing decision read now' : 'nothing would be deleted';
  report.plan = { forcing: [], forcingNote: note };
  return report;
}

/** One target's planned story; what was foreseen and sent before its DELETE is in its report. */
export async function planStory(ctx: PlanCtx, state: NamespaceState): Promise<TargetReport> {
  const deleting = ctx.settings.delete && state.deletionTimestamp === undefined;
  const early: Early = deleting ? await ctx.before.run(state) : {};
  let report: TargetReport;
  if (deleting && ctx.signal?.aborted)
    report = simpleReport(state.name, 'active', 'the run was cancelled before the delete request', state);
  else report = deleting ? await deletePlanned(ctx, state, early) : await nothingToDelete(ctx, state);
  ctx.before.finish(report, early);
  ctx.logger.info(`${state.name}: ${report.outcome}: ${report.note ?? ''}`);
  return report;
}
