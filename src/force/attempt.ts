/**
 * What one forced step's run shares with its kinds (pods, objects, the namespace): the port, the plan, the result, and
 * a finalizer removal read back from the server's answer.
 */
import { enc, resourcePath } from '../kube/paths.js';
import { KubeError, UnverifiedWrite, type Kube, type WriteAnswer } from '../kube/port.js';
import type { FinalizersWritten, PutBackLookup } from './put-back.js';
import type { ForceStep, ObjectStep, Plan, StepOutcome } from '../model/force.js';

/** How a step ended, before it is stamped; `halt` stops every later step without another call. */
export type StepResult = StepOutcome & {
  before: string[];
  after: string[];
  halt?: 'gone' | 'recreated';
};

/** One step's run: the port, the plan, whether to write, the writes sent, and who to ask what undid a write. */
export interface Run {
  kube: Kube;
  plan: Plan;
  dryRun: boolean;
  expectedUid: string;
  writes: number;
  /** Shared by the steps of one pass: the cluster's mutating webhooks are read once. */
  lookup: PutBackLookup;
  /** The namespace's labels, for the namespace selectors of the webhooks that may reach a write inside it. */
  namespaceLabels?: Record<string, string>;
}

/** Attempts per step when a write meets a 409 Conflict; each attempt after the first reads again. */
export const MAX_ATTEMPTS = 3;

/** The object's own path. */
export function objectPath(step: ObjectStep): string {
  return `${resourcePath(step.resource, step.namespace)}/${enc(step.name)}`;
}

/** The metadata a guarded write needs, from a raw object; throws on a shape no API server sends. */
export function freshMeta(raw: unknown): {
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
export function without(fresh: readonly string[], step: ForceStep): string[] {
  const remove = new Set(step.remove.map((r) => r.finalizer));
  return fresh.filter((f) => !remove.has(f));
}

/** Writes of one finalizer removal when the server answers it with the finalizer still there: the first, and one more. */
export const PUT_BACK_ATTEMPTS = 2;

/** How a finalizer removal is written and read back: the write, what it was guarded by, the field its answer shows. */
export interface FinalizerWrite {
  /** Send `after` under `resourceVersion`: the object as answered, or 'gone'. */
  write: (after: string[], resourceVersion: string) => Promise<WriteAnswer | 'gone'>;
  /** The resourceVersion the first write is guarded by (as read). */
  resourceVersion: string;
  /** The object written, for who put something back. */
  written: FinalizersWritten;
  done: 'removed' | 'finalized';
}

/** The finalizer list of `field` as the answer shows it. */
const shownIn = (a: WriteAnswer, field: FinalizersWritten['field']): string[] =>
  field === 'spec.finalizers' ? a.specFinalizers : a.meta.finalizers;

/**
 * Remove the step's finalizers from `before`: nothing left to remove and dry-run write nothing; a write that finds the
 * object gone counts as done. Done only when the server's answer shows them gone; an answer that still shows one is
 * written once more from what it shows, then `not-removed`, with who put it back.
 */
export async function removeFinalizers(
  run: Run,
  step: ForceStep,
  before: string[],
  w: FinalizerWrite,
): Promise<StepResult> {
  if (without(before, step).length === before.length)
    return { result: 'skipped', why: 'nothing left to remove', before, after: without(before, step) };
  if (run.dryRun) return { result: 'dry-run', before, after: without(before, step) };
  const removing = step.remove.map((r) => r.finalizer);
  let [list, rv] = [before, w.resourceVersion];
  for (let n = 1; ; n++) {
    const answer = await sent(run, () => w.write(without(list, step), rv));
    if (answer === 'gone') return { result: 'gone', before, after: [] };
    const shown = shownIn(answer, w.written.field);
    const kept = removing.filter((f) => shown.includes(f));
    if (kept.length === 0) return { result: w.done, before, after: shown };
    if (n >= PUT_BACK_ATTEMPTS) return notRemoved(run, w.written, answer, { kept, writes: n, rv, before });
    [list, rv] = [shown, answer.meta.resourceVersion];
  }
}

/** The result of a removal the server answered, each time, with what it removed still there. */
async function notRemoved(
  run: Run,
  written: FinalizersWritten,
  answer: WriteAnswer,
  at: { kept: string[]; writes: number; rv: string; before: string[] },
): Promise<StepResult> {
  const unchanged = answer.meta.resourceVersion === at.rv;
  const subject = { ...written.subject, labels: answer.meta.labels };
  const putBack = await run.lookup.putBack({ ...written, subject }, answer, {
    kept: at.kept,
    writes: at.writes,
    unchanged,
  });
  const stored = unchanged ? ', resourceVersion unchanged: nothing was stored' : '';
  const why = `the server answered ${at.writes} write(s) with ${at.kept.join(', ')} still in ${written.field}${stored}`;
  return { result: 'not-removed', why, putBack, before: at.before, after: shownIn(answer, written.field) };
}

/** Make one write, counted in `run.writes` unless the write guard refused it before it was sent. */
export async function sent<T>(run: Run, write: () => Promise<T>): Promise<T> {
  try {
    const answer = await write();
    run.writes++;
    return answer;
  } catch (error) {
    if (!(error instanceof UnverifiedWrite)) run.writes++;
    throw error;
  }
}

/** A 409: the object changed since it was read (or, for a namespace, its UID did). */
export const isConflict = (e: unknown): boolean => e instanceof KubeError && e.code === 409;
