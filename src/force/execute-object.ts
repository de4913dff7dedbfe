/**
 * Step 1 against the cluster: remove allowed finalizers from one object with a merge patch that carries the object's
 * UID and resourceVersion as listed, so no read is needed first; only a 409 (it changed) makes it read again.
 */
import { KubeError } from '../kube/port.js';
import { messageOf } from '../shared/errors.js';
import {
  freshMeta,
  isConflict,
  MAX_ATTEMPTS,
  objectPath,
  removeFinalizers,
  type Run,
  type StepResult,
} from './attempt.js';
import type { ObjectStep } from '../model/force.js';
import { resourceName } from '../kube/paths.js';
import type { FinalizersWritten } from './put-back.js';

type Seen = ReturnType<typeof freshMeta>;

/** A 422 on `metadata.uid`: the object under that name is another one now (PATCH has no UID precondition). */
const recreated = (e: unknown): boolean =>
  e instanceof KubeError && e.code === 422 && /metadata\.uid/.test(e.message);

async function patch(run: Run, step: ObjectStep, seen: Seen): Promise<StepResult> {
  const before = seen.finalizers;
  if (seen.uid !== step.uid) return { result: 'skipped', why: 'object recreated', before, after: before };
  // Removing a finalizer before its controller was asked to clean up would skip that cleanup entirely.
  if (!seen.deleting) return { result: 'skipped', why: 'not being deleted yet', before, after: before };
  return removeFinalizers(run, step, before, {
    write: (after, resourceVersion) =>
      run.kube.patchFinalizers(
        step.resource,
        step.namespace,
        step.name,
        { uid: step.uid, resourceVersion },
        after,
      ),
    resourceVersion: seen.resourceVersion,
    written: writtenOf(run, step),
    done: 'removed',
  });
}

/** The object as the webhooks' rules see a PATCH of it. */
function writtenOf(run: Run, step: ObjectStep): FinalizersWritten {
  const { group, version, resource } = step.resource;
  return {
    subject: {
      group,
      version,
      resource,
      subresource: '',
      namespaced: true,
      ...(run.namespaceLabels ? { namespaceLabels: run.namespaceLabels } : {}),
    },
    resource: resourceName(step.resource),
    name: step.name,
    namespace: step.namespace,
    field: 'metadata.finalizers',
  };
}

/** One object step: write from what the scan listed; on 409 read it again and decide again, bounded. */
export async function objectStep(run: Run, step: ObjectStep): Promise<StepResult> {
  let seen: Seen = {
    uid: step.uid,
    resourceVersion: step.resourceVersion,
    finalizers: step.listed,
    deleting: step.deleting,
  };
  for (let n = 1; ; n++) {
    try {
      return await patch(run, step, seen);
    } catch (error) {
      const kept = { before: seen.finalizers, after: seen.finalizers };
      if (recreated(error)) return { result: 'skipped', why: 'object recreated', ...kept };
      if (!isConflict(error)) throw error;
      if (n >= MAX_ATTEMPTS)
        return { result: 'failed', error: `conflict after ${n} attempts: ${messageOf(error)}`, ...kept };
      const raw = await run.kube.getRaw(objectPath(step));
      if (raw === undefined) return { result: 'gone', before: seen.finalizers, after: [] };
      seen = freshMeta(raw);
    }
  }
}
