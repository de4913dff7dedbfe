/** What the answer to a write shows: the object as the server returned it, or what a DELETE's Status says. Pure. */
import { KubeError, type DeleteAnswer, type WriteAnswer } from './port.js';
import { arr, mapMeta, rec, str, strs, type Obj } from './map.js';
import type { Req } from './request.js';

/** Managers whose managedFields entry owns `f:spec.f:finalizers` (a Namespace's, through `/finalize`), sorted. */
export function specFinalizerManagers(managedFields: unknown): string[] {
  const out = new Set<string>();
  for (const entry of arr(managedFields).map(rec)) {
    const manager = str(entry.manager);
    if (manager && rec(rec(entry.fieldsV1)['f:spec'])['f:finalizers'] !== undefined) out.add(manager);
  }
  return [...out].sort();
}

/** The error for a 2xx whose body shows no object: the write may have happened, but nothing shows what it did. */
function unreadable(req: Req, what: string): KubeError {
  return new KubeError(
    `the server answered ${req.method} ${req.resource ?? req.path} with success, but the answer is ${what}: what the write did is unknown`,
    200,
    'UnreadableAnswer',
    req.verb,
    req.resource,
  );
}

/** An object body as a WriteAnswer; a KubeError when it is not one (no metadata, no uid or resourceVersion). */
export function writeAnswer(body: unknown, req: Req): WriteAnswer {
  const object = rec(body);
  const m = rec(object.metadata);
  if (typeof m.uid !== 'string' || typeof m.resourceVersion !== 'string')
    throw unreadable(req, 'not the object (no metadata.uid or metadata.resourceVersion)');
  return {
    meta: mapMeta(object),
    specFinalizers: strs(rec(object.spec).finalizers),
    specFinalizerManagers: specFinalizerManagers(m.managedFields),
    object,
  };
}

/** A Status `Success` (the object removed in that request, its details naming it). */
const isSuccess = (o: Obj): boolean => o.kind === 'Status' && o.status === 'Success';

/**
 * A DELETE's answer: a Status `Success` says the object was removed; the object itself says what holds it — removed
 * when nothing does (no finalizers, no spec.finalizers, no grace period pending), else still there.
 */
export function deleteAnswer(body: unknown, req: Req): DeleteAnswer {
  const o = rec(body);
  if (isSuccess(o)) return { removed: true };
  if (o.kind === 'Status') throw unreadable(req, `a Status that is not Success (${str(o.status) ?? '?'})`);
  const answer = writeAnswer(body, req);
  const grace = answer.meta.deletionGracePeriodSeconds;
  const held = answer.meta.finalizers.length > 0 || answer.specFinalizers.length > 0 || (grace ?? 0) > 0;
  return held ? { removed: false, answer } : { removed: true, answer };
}
