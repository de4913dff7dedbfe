/** DELETE and DELETE-collection with the generic registry's graceful-deletion and finalizer rules. */
import type { DeleteOptions, JsonMap, KObj, OpContext, OpResult } from './types.js';
import { lifecycle } from './admission.js';
import { callWebhooks } from './webhooks.js';
import {
  badRequest,
  conflict,
  dryRunErrors,
  goQuote,
  invalid,
  methodNotAllowed,
  status,
  type FieldError,
} from './errors.js';
import { clone, isoSeconds, isRecord, stableJson } from './meta.js';
import { deleteNamespace } from './namespaces.js';
import type { ObjectApi, Selectors } from './objects.js';
import { type ResourceType, apiVersionOf, grOf } from './registry.js';

const POLICIES = ['Foreground', 'Background', 'Orphan'];

/** Query parameters, or a DeleteOptions body, which then replaces them entirely. */
export function parseDeleteOptions(query: URLSearchParams, body: unknown): DeleteOptions {
  let o: DeleteOptions;
  // The options come from the body when there is one, and then the query is not read at all (dryRun included).
  let dry: string[];
  if (body !== undefined && body !== '') {
    if (!isRecord(body) || (body.kind !== undefined && body.kind !== 'DeleteOptions')) {
      throw badRequest('decoded object cannot be converted to DeleteOptions');
    }
    const pre = isRecord(body.preconditions) ? body.preconditions : undefined;
    o = {
      gracePeriodSeconds: typeof body.gracePeriodSeconds === 'number' ? body.gracePeriodSeconds : undefined,
      propagationPolicy: typeof body.propagationPolicy === 'string' ? body.propagationPolicy : undefined,
      orphanDependents: typeof body.orphanDependents === 'boolean' ? body.orphanDependents : undefined,
      preconditions: pre && {
        uid: typeof pre.uid === 'string' ? pre.uid : undefined,
        resourceVersion: typeof pre.resourceVersion === 'string' ? pre.resourceVersion : undefined,
      },
      dryRun: false,
    };
    dry = Array.isArray(body.dryRun) ? body.dryRun.map(String) : [];
  } else {
    const g = query.get('gracePeriodSeconds');
    const orphan = query.get('orphanDependents');
    o = {
      gracePeriodSeconds: g !== null && g !== '' ? Number(g) : undefined,
      propagationPolicy: query.get('propagationPolicy') ?? undefined,
      orphanDependents: orphan === null ? undefined : orphan === 'true',
      dryRun: false,
    };
    dry = query.getAll('dryRun');
  }
  validateDeleteOptions(o, dry);
  return { ...o, dryRun: dry.includes('All') };
}

/** ValidateDeleteOptions: every problem at once, as one 422. */
function validateDeleteOptions(o: DeleteOptions, dryRun: string[]): void {
  const errs: FieldError[] = [];
  if (o.orphanDependents !== undefined && o.propagationPolicy !== undefined) {
    errs.push({
      type: 'Invalid',
      field: 'propagationPolicy',
      value: goQuote(o.propagationPolicy),
      detail: 'orphanDependents and deletionPropagation cannot be both set',
    });
  }
  if (o.propagationPolicy !== undefined && !POLICIES.includes(o.propagationPolicy)) {
    errs.push({
      type: 'NotSupported',
      field: 'propagationPolicy',
      value: goQuote(o.propagationPolicy),
      detail: 'supported values: "Foreground", "Background", "Orphan", "nil"',
    });
  }
  errs.push(...dryRunErrors(dryRun));
  if (errs.length) throw invalid('DeleteOptions', 'meta.k8s.io', '', errs);
}

/** 200, or 202 for the deprecated orphanDependents=false when the object was not removed. */
const codeFor = (removed: boolean, o: DeleteOptions): number =>
  !removed && o.orphanDependents === false ? 202 : 200;

/** The Status a DELETE returns for types without ReturnDeletedObject (kind = plural, no code). */
function successStatus(rt: ResourceType, obj: KObj): JsonMap {
  return {
    ...status(
      0,
      '',
      '',
      { name: obj.metadata.name, group: rt.group, kind: rt.resource, uid: obj.metadata.uid },
      'Success',
    ),
  };
}

/** The orphan/foregroundDeletion finalizers the GC wants (deletionFinalizersForGarbageCollection). */
function gcFinalizers(obj: KObj, o: DeleteOptions): { changed: boolean; finalizers: string[] } {
  const cur = obj.metadata.finalizers ?? [];
  let orphan: boolean;
  let foreground: boolean;
  if (o.orphanDependents !== undefined) {
    orphan = o.orphanDependents;
    foreground = false;
  } else if (o.propagationPolicy !== undefined) {
    orphan = o.propagationPolicy === 'Orphan';
    foreground = o.propagationPolicy === 'Foreground';
  } else {
    orphan = cur.includes('orphan');
    foreground = cur.includes('foregroundDeletion');
  }
  const next = cur.filter((f) => f !== 'orphan' && f !== 'foregroundDeletion');
  if (orphan) next.push('orphan');
  if (foreground) next.push('foregroundDeletion');
  const same = new Set(cur).size === new Set(next).size && next.every((f) => cur.includes(f));
  return { changed: !same, finalizers: same ? cur : next };
}

/** rest.BeforeDelete: preconditions, then graceful-deletion bookkeeping on `obj` (mutated). */
function beforeDelete(
  api: ObjectApi,
  rt: ResourceType,
  obj: KObj,
  o: DeleteOptions,
): { graceful: boolean; pending: boolean; period: number } {
  const m = obj.metadata;
  const p = o.preconditions;
  const fail = (what: string, a: string, b: string, tail: string): never => {
    throw conflict(
      rt.kind,
      rt.group,
      m.name,
      `the ${what} in the precondition (${a}) does not match the ${what} in record (${b}). ${tail}`,
    );
  };
  if (p?.uid !== undefined && p.uid !== m.uid)
    fail('UID', p.uid, m.uid, 'The object might have been deleted and then recreated');
  if (p?.resourceVersion !== undefined && p.resourceVersion !== m.resourceVersion) {
    fail('ResourceVersion', p.resourceVersion, m.resourceVersion, 'The object might have been modified');
  }
  const requested = o.gracePeriodSeconds !== undefined && o.gracePeriodSeconds < 0 ? 1 : o.gracePeriodSeconds;
  if (m.deletionTimestamp) {
    const cur = m.deletionGracePeriodSeconds;
    if (cur === undefined || cur === 0) return { graceful: false, pending: false, period: 0 };
    if (requested === undefined || requested >= cur) return { graceful: false, pending: true, period: cur };
    const ts = Date.parse(m.deletionTimestamp) - cur * 1000 + requested * 1000;
    m.deletionTimestamp = isoSeconds(ts);
    m.deletionGracePeriodSeconds = requested;
    return { graceful: true, pending: false, period: requested };
  }
  const st = api.strategy(rt);
  if (!st.gracePeriod) return { graceful: false, pending: false, period: 0 };
  const period = st.gracePeriod(obj, requested);
  // Rounded up so that a pod is never due before its full grace period (timestamps have 1 s precision).
  m.deletionTimestamp = isoSeconds(Math.ceil((Date.now() + period * 1000) / 1000) * 1000);
  m.deletionGracePeriodSeconds = period;
  if (m.generation !== undefined && m.generation > 0) m.generation++;
  return { graceful: true, pending: false, period };
}

/** markAsDeleting: deletionTimestamp (now, unless earlier) and deletionGracePeriodSeconds 0. */
function markAsDeleting(obj: KObj): void {
  const m = obj.metadata;
  if (!m.deletionTimestamp && m.generation !== undefined && m.generation > 0) m.generation++;
  if (!m.deletionTimestamp || Date.parse(m.deletionTimestamp) > Date.now())
    m.deletionTimestamp = isoSeconds();
  m.deletionGracePeriodSeconds = 0;
}

/** The generic registry Store.Delete. */
export function genericDelete(
  api: ObjectApi,
  rt: ResourceType,
  stored: KObj,
  o: DeleteOptions,
  ctx: OpContext,
): OpResult {
  const gr = grOf(rt);
  const obj = clone(stored);
  const { graceful, pending, period } = beforeDelete(api, rt, obj, o);
  if (pending)
    return { code: codeFor(false, o), body: rt.returnsObject ? stored : successStatus(rt, stored) };
  api.admitPolicies('DELETE', rt, stored, { ctx });
  callWebhooks(api.store, api.probe, 'DELETE', rt, '', 'validating', stored);
  const gc = gcFinalizers(obj, o);
  if (gc.changed) obj.metadata.finalizers = gc.finalizers;
  const pendingFinalizers = (obj.metadata.finalizers ?? []).length > 0;
  if (pendingFinalizers && !graceful) markAsDeleting(obj);
  let current = stored;
  if ((graceful || pendingFinalizers) && stableJson(obj) !== stableJson(stored)) {
    api.toStorage(rt, stored);
    current = ctx.dryRun ? obj : api.store.update(gr, obj);
  }
  if (pendingFinalizers || (graceful && period > 0)) return { code: codeFor(false, o), body: current };
  if (ctx.dryRun) return { code: 200, body: rt.returnsObject ? current : successStatus(rt, current) };
  const gone = api.store.remove(gr, stored.metadata.namespace, stored.metadata.name) ?? current;
  return { code: 200, body: rt.returnsObject ? gone : successStatus(rt, gone) };
}

/** DELETE of one object (NamespaceLifecycle first; namespaces have their own first step). */
export function deleteObject(
  api: ObjectApi,
  rt: ResourceType,
  ns: string,
  name: string,
  o: DeleteOptions,
  ctx: OpContext,
): OpResult {
  lifecycle(api.store, 'DELETE', rt, ns, name);
  callWebhooks(api.store, api.probe, 'DELETE', rt, '', 'mutating');
  const obj = api.get(rt, ns, name);
  if (rt.group === '' && rt.resource === 'namespaces')
    return deleteNamespace(api, rt, obj, o, ctx, genericDelete);
  return genericDelete(api, rt, obj, o, ctx);
}

/** DELETE on a collection: each listed item goes through the single-object delete; returns the listed items. */
export function deleteCollection(
  api: ObjectApi,
  rt: ResourceType,
  ns: string | undefined,
  o: DeleteOptions,
  sel: Selectors,
  ctx: OpContext,
): OpResult {
  if (!rt.verbs.includes('deletecollection')) throw methodNotAllowed();
  callWebhooks(api.store, api.probe, 'DELETE', rt, '', 'mutating');
  const items = api.list(rt, ns, sel);
  for (const item of items) {
    const current = api.store.get(grOf(rt), item.metadata.namespace, item.metadata.name);
    if (current) genericDelete(api, rt, current, { ...o, preconditions: undefined }, ctx);
  }
  const list = {
    kind: `${rt.kind}List`,
    apiVersion: apiVersionOf(rt),
    metadata: { resourceVersion: String(api.store.currentRv()) },
    items,
  };
  return { code: 200, body: list };
}
