/** What one forced step's run shares with its kinds (pods, objects, the namespace): the port, the plan, the result. */
import { enc, resourcePath } from '../kube/paths.js';
import { KubeError, UnverifiedWrite, type Kube } from '../kube/port.js';
import type { ForceStep, ObjectStep, Plan, StepOutcome } from '../model/force.js';

/** How a step ended, before it is stamped; `halt` stops every later step without another call. */
export type StepResult = StepOutcome & {
  before: string[];
  after: string[];
  halt?: 'gone' | 'recreated';
};

/** One step's run: the port, the plan, whether to write, and the writes sent. */
export interface Run {
  kube: Kube;
  plan: Plan;
  dryRun: boolean;
  expectedUid: string;
  writes: number;
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

/**
 * Remove the step's finalizers from `before` with `write`: nothing left to remove and dry-run write nothing; a write
 * that finds the object gone counts as done.
 */
export async function removeFinalizers(
  run: Run,
  step: ForceStep,
  before: string[],
  write: (after: string[]) => Promise<string>,
  done: 'removed' | 'finalized',
): Promise<StepResult> {
  const after = without(before, step);
  if (after.length === before.length)
    return { result: 'skipped', why: 'nothing left to remove', before, after };
  if (run.dryRun) return { result: 'dry-run', before, after };
  if ((await sent(run, () => write(after))) === 'gone') return { result: 'gone', before, after: [] };
  return { result: done, before, after };
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
