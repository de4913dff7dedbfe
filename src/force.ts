/**
 * The only code that removes finalizers, deletes pods on lost nodes or calls /finalize. Every write re-reads first,
 * checks the namespace UID, recomputes from the fresh state, and sends preconditions; dry-run writes nothing.
 */
import { failed, logEntry, type AuditEntry, type AuditResult } from './force/audit.js';
import { podAttempt } from './force/pod-step.js';
import type { ForceStep, ObjectStep, Plan } from './force/plan.js';
import { enc, resourcePath } from './kube/paths.js';
import { KubeError, type Kube, type NamespaceState } from './kube/port.js';
import type { Clock, Logger } from './ports.js';

export type { AuditEntry, AuditResult } from './force/audit.js';

/** How a step ended, before it is stamped; `halt` stops every later step without another call. */
export interface Outcome {
  result: AuditResult;
  before: string[];
  after: string[];
  halt?: 'gone' | 'recreated';
}

/** One step's run: the port, the plan, whether to write, and the writes sent. */
export interface Run {
  kube: Kube;
  plan: Plan;
  dryRun: boolean;
  expectedUid: string;
  writes: number;
}

/** Attempts per step when a write meets a 409 Conflict; each attempt re-reads first. */
const MAX_ATTEMPTS = 3;

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

function objectPath(step: ObjectStep): string {
  return `${resourcePath(step.resource, step.namespace)}/${enc(step.name)}`;
}

/** The metadata a guarded write needs, from a raw object; throws on a shape no API server sends. */
function freshMeta(raw: unknown): {
  uid: string;
  resourceVersion: string;
  finalizers: string[];
  deleting: boolean;
} {
  const meta = (raw as { metadata?: Record<string, unknown> } | null)?.metadata;
  const { uid, resourceVersion, finalizers = [], deletionTimestamp } = meta ?? {};
  const list =
    Array.isArray(finalizers) && finalizers.every((f) => typeof f === 'string')
      ? (finalizers as string[])
      : undefined;
  if (typeof uid !== 'string' || typeof resourceVersion !== 'string' || list === undefined) {
    throw new Error('unexpected object: metadata.uid, resourceVersion or finalizers missing');
  }
  return { uid, resourceVersion, finalizers: list, deleting: typeof deletionTimestamp === 'string' };
}

/** The fresh list minus exactly the planned entries; anything else (even allowed by a glob) stays. */
function without(fresh: readonly string[], step: ForceStep): string[] {
  const remove = new Set(step.remove.map((r) => r.finalizer));
  return fresh.filter((f) => !remove.has(f));
}

async function objectAttempt(run: Run, step: ObjectStep): Promise<Outcome> {
  const raw = await run.kube.getRaw(objectPath(step));
  if (raw === undefined) return { result: 'gone', before: step.finalizers, after: [] };
  const fresh = freshMeta(raw);
  const before = fresh.finalizers;
  if (fresh.uid !== step.uid) return { result: 'skipped: object recreated', before, after: before };
  // Removing a finalizer before its controller was asked to clean up would skip that cleanup entirely.
  if (!fresh.deleting) return { result: 'skipped: not being deleted yet', before, after: before };
  const after = without(before, step);
  if (after.length === before.length) return { result: 'skipped: nothing left to remove', before, after };
  if (run.dryRun) return { result: 'dry-run', before, after };
  run.writes++;
  const guard = { uid: step.uid, resourceVersion: fresh.resourceVersion };
  const done = await run.kube.patchFinalizers(step.resource, step.namespace, step.name, guard, after);
  return { result: done === 'gone' ? 'gone' : 'removed', before, after: done === 'gone' ? [] : after };
}

async function namespaceAttempt(run: Run, ns: NamespaceState, step: ForceStep): Promise<Outcome> {
  const finalize = step.kind === 'namespace-finalize';
  const before = finalize ? ns.specFinalizers : ns.metadataFinalizers;
  const after = without(before, step);
  if (after.length === before.length) return { result: 'skipped: nothing left to remove', before, after };
  if (run.dryRun) return { result: 'dry-run', before, after };
  run.writes++;
  const guard = { uid: run.expectedUid, resourceVersion: ns.resourceVersion };
  const done = finalize
    ? await run.kube.finalizeNamespace(ns.name, guard, after)
    : await run.kube.patchFinalizers(NAMESPACES, undefined, ns.name, guard, after);
  if (done === 'gone') return { result: 'gone', before, after: [], halt: 'gone' };
  return { result: finalize ? 'finalized' : 'removed', before, after };
}

/** One attempt: re-read the namespace, check its UID, then re-read the target and write. */
async function attempt(run: Run, step: ForceStep): Promise<Outcome> {
  const ns = await run.kube.getNamespace(run.plan.namespace);
  if (ns === undefined) {
    const result = isContent(step) ? 'skipped: namespace gone' : 'gone';
    return { result, before: step.finalizers, after: step.finalizers, halt: 'gone' };
  }
  if (ns.uid !== run.expectedUid) {
    return {
      result: 'skipped: recreated',
      before: step.finalizers,
      after: step.finalizers,
      halt: 'recreated',
    };
  }
  if (step.kind === 'pod-delete') return podAttempt(run, step);
  return step.kind === 'object-finalizers' ? objectAttempt(run, step) : namespaceAttempt(run, ns, step);
}

const message = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Run one step; on 409 re-read and re-decide, up to MAX_ATTEMPTS; any other error fails the step only. */
async function runStep(run: Run, step: ForceStep): Promise<Outcome> {
  for (let n = 1; ; n++) {
    try {
      return await attempt(run, step);
    } catch (error) {
      const conflict = error instanceof KubeError && error.code === 409;
      if (conflict && n < MAX_ATTEMPTS) continue;
      const why = conflict ? `conflict after ${n} attempts: ${message(error)}` : message(error);
      return { result: `failed: ${why}`, before: step.finalizers, after: step.finalizers };
    }
  }
}

function halted(step: ForceStep, halt: 'gone' | 'recreated'): Outcome {
  const result =
    halt === 'recreated' ? 'skipped: recreated' : isContent(step) ? 'skipped: namespace gone' : 'gone';
  return { result, before: step.finalizers, after: step.finalizers };
}

/** Steps on objects in the namespace (not on the namespace itself). */
const isContent = (step: ForceStep): boolean =>
  step.kind === 'object-finalizers' || step.kind === 'pod-delete';

/** The /finalize result when earlier writes failed: which ones, so the summary says what to fix. */
function heldBack(failures: readonly AuditEntry[]): AuditResult {
  const which = failures.map((e) => `${e.object} (${e.result})`).join('; ');
  return `skipped: held back because an earlier step failed, so /finalize would orphan more than planned: ${which}`;
}

/** The outcome of one step: halted without a call, held back, or run against the cluster. */
async function outcomeOf(
  run: Run,
  step: ForceStep,
  halt: Outcome['halt'],
  audit: AuditEntry[],
): Promise<Outcome> {
  if (halt) return halted(step, halt);
  const failures = audit.filter(failed);
  if (step.kind === 'namespace-finalize' && failures.length > 0) {
    return { result: heldBack(failures), before: step.finalizers, after: step.finalizers };
  }
  return runStep(run, step);
}

/**
 * Execute a plan from `decide` in order, recording one audit entry per step. Writes only in mode `on`
 * without `dryRun`; a namespace whose UID is not `expectedUid` is never touched.
 */
export async function executePlan(
  kube: Kube,
  plan: Plan,
  opts: { dryRun: boolean; logger: Logger; clock: Clock; expectedUid: string },
): Promise<AuditEntry[]> {
  const dryRun = opts.dryRun || plan.mode !== 'on';
  const audit: AuditEntry[] = [];
  let halt: Outcome['halt'] = plan.uid === opts.expectedUid ? undefined : 'recreated';
  for (const step of plan.steps) {
    const run: Run = { kube, plan, dryRun, expectedUid: opts.expectedUid, writes: 0 };
    const { result, before, after, halt: stop } = await outcomeOf(run, step, halt, audit);
    halt = halt ?? stop;
    const entry: AuditEntry = {
      at: new Date(opts.clock.now()).toISOString(),
      namespace: plan.namespace,
      step: step.kind,
      object: step.object,
      field: step.field,
      before,
      after,
      allowed: step.remove,
      ...(step.kind === 'pod-delete' ? { allowedBy: step.allowedBy } : {}),
      result,
      writes: run.writes,
    };
    audit.push(entry);
    logEntry(opts.logger, entry, step.kind === 'pod-delete' ? step.risk : undefined);
  }
  return audit;
}
