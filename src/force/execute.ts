/**
 * The only code that removes finalizers, deletes pods on lost nodes or calls /finalize. A pass reads the namespace
 * once and checks its UID; every write carries its own object's UID (and resourceVersion) as preconditions; the
 * namespace is read again before a write to the namespace itself; dry-run writes nothing.
 */
import { messageOf } from '../shared/errors.js';
import { mapPool } from '../shared/map-pool.js';
import { isConflict, MAX_ATTEMPTS, removeFinalizers, type Run, type StepResult } from './attempt.js';
import { failed, logAudit, resultText } from './audit.js';
import type { AuditEntry, ForceStep, Plan, StepOutcome } from '../model/force.js';
import { objectStep } from './execute-object.js';
import { podAttempt } from './execute-pod.js';
import { PutBackLookup } from './put-back.js';
import { UnverifiedWrite, type Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { Clock, Logger } from '../shared/ports.js';

export type { Run, StepResult } from './attempt.js';

/** Object steps in flight at once: thousands of objects go in seconds without a burst. */
export const OBJECT_CONCURRENCY = 8;

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

/** Steps on objects in the namespace (not on the namespace itself). */
const isContent = (step: ForceStep): boolean =>
  step.kind === 'object-finalizers' || step.kind === 'pod-delete';

async function namespaceAttempt(run: Run, ns: NamespaceState, step: ForceStep): Promise<StepResult> {
  const finalize = step.kind === 'namespace-finalize';
  const before = finalize ? ns.specFinalizers : ns.metadataFinalizers;
  const uid = run.expectedUid;
  const r = await removeFinalizers(run, step, before, {
    write: (after, resourceVersion) =>
      finalize
        ? run.kube.finalizeNamespace(ns.name, { uid, resourceVersion }, after)
        : run.kube.patchFinalizers(NAMESPACES, undefined, ns.name, { uid, resourceVersion }, after),
    resourceVersion: ns.resourceVersion,
    written: {
      subject: {
        ...NAMESPACES,
        subresource: finalize ? 'finalize' : '',
        namespaced: false,
        labels: ns.labels,
      },
      resource: 'namespaces',
      name: ns.name,
      field: finalize ? 'spec.finalizers' : 'metadata.finalizers',
    },
    done: finalize ? 'finalized' : 'removed',
  });
  // The namespace itself gone: no later step has anything to do.
  return r.result === 'gone' ? { ...r, halt: 'gone' } : r;
}

/** The namespace now, or why nothing more may be done to it (gone, or another one holds the name). */
async function namespaceNow(run: Run): Promise<NamespaceState | 'gone' | 'recreated'> {
  const ns = await run.kube.getNamespace(run.plan.namespace);
  if (ns === undefined) return 'gone';
  return ns.uid === run.expectedUid ? ns : 'recreated';
}

function halted(step: ForceStep, halt: 'gone' | 'recreated'): StepResult {
  const kept = { before: step.finalizers, after: step.finalizers, halt };
  if (halt === 'recreated') return { result: 'skipped', why: 'recreated', ...kept };
  return isContent(step)
    ? { result: 'skipped', why: 'namespace gone', ...kept }
    : { result: 'gone', ...kept };
}

/** One attempt of a step; a namespace-level one reads the namespace first, a content one relies on the pass's read. */
async function attempt(run: Run, step: ForceStep): Promise<StepResult> {
  if (step.kind === 'pod-delete') return podAttempt(run, step);
  if (step.kind === 'object-finalizers') return objectStep(run, step);
  const ns = await namespaceNow(run);
  return typeof ns === 'string' ? halted(step, ns) : namespaceAttempt(run, ns, step);
}

/** A step whose write the guard refused, unsent: the namespace gone or recreated stops the rest; else say why. */
function refused(step: ForceStep, error: UnverifiedWrite): StepResult {
  if (error.because !== 'unverified') return halted(step, error.because);
  return { result: 'skipped', why: error.message, before: step.finalizers, after: step.finalizers };
}

/** Run one step; on 409 decide again, up to MAX_ATTEMPTS; any other error fails the step only. */
async function runStep(run: Run, step: ForceStep): Promise<StepResult> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(run, step);
    } catch (error) {
      if (error instanceof UnverifiedWrite) return refused(step, error);
      // An object step reads again and retries its own 409s; one that reaches here gave up.
      const retry = isConflict(error) && n < MAX_ATTEMPTS && step.kind !== 'object-finalizers';
      if (retry) continue;
      const why = isConflict(error) ? `conflict after ${n} attempts: ${messageOf(error)}` : messageOf(error);
      return { result: 'failed', error: why, before: step.finalizers, after: step.finalizers };
    }
  }
}

/** The /finalize result when earlier writes failed: which ones, so the summary says what to fix. */
function heldBack(failures: readonly AuditEntry[]): StepOutcome {
  const shown = failures.slice(0, 5).map((e) => `${e.object} (${resultText(e)})`);
  const more = failures.length > 5 ? `; and ${failures.length - 5} more` : '';
  const why = `held back because an earlier step failed, so /finalize would orphan more than planned: ${shown.join('; ')}${more}`;
  return { result: 'skipped', why };
}

function entryOf(plan: Plan, step: ForceStep, r: StepResult, run: Run, clock: Clock): AuditEntry {
  return {
    at: new Date(clock.now()).toISOString(),
    namespace: plan.namespace,
    step: step.kind,
    object: step.object,
    field: step.field,
    before: r.before,
    after: r.after,
    allowed: step.remove,
    ...(step.kind === 'pod-delete' ? { allowedBy: step.allowedBy } : {}),
    ...outcomeOf(r),
    writes: run.writes,
  };
}

/** The outcome alone, without the finalizers and the halt that travel with it. */
function outcomeOf(r: StepResult): StepOutcome {
  if (r.result === 'skipped') return { result: r.result, why: r.why };
  if (r.result === 'failed') return { result: r.result, error: r.error };
  if (r.result === 'not-removed')
    return { result: r.result, why: r.why, ...(r.putBack ? { putBack: r.putBack } : {}) };
  return { result: r.result };
}

/** The first read of the pass: the namespace must still be the planned one for any content step to run. */
async function passStart(
  run: Run,
  steps: readonly ForceStep[],
): Promise<StepResult['halt'] | Extract<StepOutcome, { result: 'failed' }>> {
  if (run.plan.uid !== run.expectedUid) return 'recreated';
  if (!steps.some(isContent)) return undefined;
  try {
    const ns = await namespaceNow(run);
    return typeof ns === 'string' ? ns : undefined;
  } catch (error) {
    return { result: 'failed', error: `reading namespace ${run.plan.namespace} failed: ${messageOf(error)}` };
  }
}

/**
 * Execute a plan from `decide` in order, one audit entry per step: pods, then objects (a bounded pool), then the
 * namespace's own finalizers and /finalize. Writes only in mode `on` without `dryRun`; a namespace whose UID is not
 * `expectedUid` is never touched.
 */
export async function executePlan(
  kube: Kube,
  plan: Plan,
  opts: {
    dryRun: boolean;
    logger: Logger;
    clock: Clock;
    expectedUid: string;
    namespaceLabels?: Record<string, string>;
  },
): Promise<AuditEntry[]> {
  const dryRun = opts.dryRun || plan.mode !== 'on';
  const lookup = new PutBackLookup(kube);
  const labels = opts.namespaceLabels ? { namespaceLabels: opts.namespaceLabels } : {};
  const newRun = (): Run => ({
    kube,
    plan,
    dryRun,
    expectedUid: opts.expectedUid,
    writes: 0,
    lookup,
    ...labels,
  });
  const start = await passStart(newRun(), plan.steps);
  let halt: StepResult['halt'] = start === 'gone' || start === 'recreated' ? start : undefined;
  const readFailed = typeof start === 'object' ? start : undefined;
  const audit: AuditEntry[] = [];
  const one = async (step: ForceStep): Promise<AuditEntry> => {
    const run = newRun();
    let r: StepResult;
    if (halt) r = halted(step, halt);
    else if (readFailed && isContent(step))
      r = { ...readFailed, before: step.finalizers, after: step.finalizers };
    else if (step.kind === 'namespace-finalize' && audit.some(failed))
      r = { ...heldBack(audit.filter(failed)), before: step.finalizers, after: step.finalizers };
    else r = await runStep(run, step);
    if (r.halt && !halt && !isContent(step)) halt = r.halt;
    return entryOf(plan, step, r, run, opts.clock);
  };
  for (let i = 0; i < plan.steps.length;) {
    const step = plan.steps[i]!;
    if (step.kind !== 'object-finalizers') {
      audit.push(await one(step));
      i++;
      continue;
    }
    let j = i;
    while (j < plan.steps.length && plan.steps[j]!.kind === 'object-finalizers') j++;
    audit.push(...(await mapPool(plan.steps.slice(i, j), OBJECT_CONCURRENCY, one)));
    i = j;
  }
  logAudit(opts.logger, audit, plan.steps);
  return audit;
}
