/** The namespace REST Delete (pkg/registry/core/namespace/storage): the first DELETE only marks it. */
import { callWebhooks } from './webhooks.js';
import { conflict } from './errors.js';
import { asRecord, clone, isoSeconds } from './meta.js';
import type { DeleteOptions, KObj, OpContext, OpResult } from './types.js';
import type { ObjectApi } from './objects.js';
import type { ResourceType } from './registry.js';

type GenericDelete = (
  api: ObjectApi,
  rt: ResourceType,
  obj: KObj,
  o: DeleteOptions,
  ctx: OpContext,
) => OpResult;

function shouldHave(o: DeleteOptions, finalizer: 'orphan' | 'foregroundDeletion', has: boolean): boolean {
  if (o.orphanDependents !== undefined)
    return finalizer === 'orphan' ? o.orphanDependents : !o.orphanDependents;
  if (o.propagationPolicy !== undefined) {
    return o.propagationPolicy === (finalizer === 'orphan' ? 'Orphan' : 'Foreground');
  }
  return has;
}

/**
 * First DELETE: deletionTimestamp + Terminating in one write (GC finalizers per the options).
 * Repeat DELETE while `spec.finalizers` remain: the object, unchanged. Otherwise the generic store decides.
 */
export function deleteNamespace(
  api: ObjectApi,
  rt: ResourceType,
  ns: KObj,
  o: DeleteOptions,
  ctx: OpContext,
  genericDelete: GenericDelete,
): OpResult {
  const m = ns.metadata;
  const pre = o.preconditions ?? {};
  if (pre.uid !== undefined && pre.uid !== m.uid) {
    throw conflict(
      'namespaces',
      '',
      m.name,
      `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${m.uid}`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== m.resourceVersion) {
    throw conflict(
      'namespaces',
      '',
      m.name,
      `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${m.resourceVersion}`,
    );
  }
  const withUid: DeleteOptions = { ...o, preconditions: { ...pre, uid: m.uid } };
  // The first DELETE runs validating admission (webhooks, policies) inside its update, as the namespace REST's
  // deleteValidation does; a dry run is refused or allowed exactly as the DELETE would be.
  api.admitPolicies('DELETE', rt, ns, { ctx });
  callWebhooks(api.store, api.probe, 'DELETE', rt, '', 'validating', ns);
  if (!m.deletionTimestamp) {
    const next = clone(ns);
    next.metadata.deletionTimestamp = isoSeconds();
    next.status = { ...asRecord(next.status), phase: 'Terminating' };
    const cur = next.metadata.finalizers ?? [];
    const want = {
      orphan: shouldHave(o, 'orphan', cur.includes('orphan')),
      foregroundDeletion: shouldHave(o, 'foregroundDeletion', cur.includes('foregroundDeletion')),
    };
    const changed = (Object.keys(want) as (keyof typeof want)[]).some((f) => cur.includes(f) !== want[f]);
    if (changed) {
      const kept = cur.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
      next.metadata.finalizers = [
        ...kept,
        ...(want.orphan ? ['orphan'] : []),
        ...(want.foregroundDeletion ? ['foregroundDeletion'] : []),
      ];
    }
    const body = ctx.dryRun ? next : api.store.update('namespaces', next);
    return { code: o.orphanDependents === false ? 202 : 200, body };
  }
  const specFinalizers = asRecord(ns.spec).finalizers;
  if (Array.isArray(specFinalizers) && specFinalizers.length > 0) return { code: 200, body: ns };
  return genericDelete(api, rt, ns, withUid, ctx);
}
