/** Pure mapping of API JSON to the port's types; tolerant of missing or mistyped fields. */
import type { Condition, NamespaceState, ObjectMeta, OwnerRef } from '../model/cluster.js';
import type { NamespaceEvent, ObjectEvent } from './port.js';

/** A JSON object. */
export type Obj = Record<string, unknown>;

/** Parsed JSON, or undefined when `text` is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `v` when it is a JSON object, else an empty one. */
export function rec(v: unknown): Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

/** `v` when it is an array, else an empty one. */
export function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

/** `v` when it is a string. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The strings of an array; anything else is dropped. */
export function strs(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === 'string');
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  const o = rec(v);
  for (const k in o) {
    const val = o[k];
    if (typeof val === 'string') out[k] = val;
  }
  return out;
}

/** Map a Namespace object (from a GET, a list or a watch event) to the engine's view. */
export function mapNamespace(v: unknown): NamespaceState {
  const o = rec(v);
  const m = rec(o.metadata);
  const status = rec(o.status);
  const ns: NamespaceState = {
    name: str(m.name) ?? '',
    uid: str(m.uid) ?? '',
    resourceVersion: str(m.resourceVersion) ?? '',
    phase: str(status.phase) ?? '',
    labels: stringMap(m.labels),
    metadataFinalizers: strs(m.finalizers),
    specFinalizers: strs(rec(o.spec).finalizers),
    conditions: arr(status.conditions).map(mapCondition),
  };
  if (typeof m.creationTimestamp === 'string') ns.creationTimestamp = m.creationTimestamp;
  if (typeof m.deletionTimestamp === 'string') ns.deletionTimestamp = m.deletionTimestamp;
  const annotations = stringMap(m.annotations);
  if (Object.keys(annotations).length > 0) ns.annotations = annotations;
  return ns;
}

function mapCondition(v: unknown): Condition {
  const c = rec(v);
  const out: Condition = { type: str(c.type) ?? '', status: str(c.status) ?? '' };
  if (typeof c.reason === 'string') out.reason = c.reason;
  if (typeof c.message === 'string') out.message = c.message;
  if (typeof c.lastTransitionTime === 'string') out.lastTransitionTime = c.lastTransitionTime;
  return out;
}

/** Map a PartialObjectMetadata (or a full object) to its ObjectMeta. */
export function mapMeta(v: unknown): ObjectMeta {
  const m = rec(rec(v).metadata);
  const meta: ObjectMeta = {
    name: str(m.name) ?? '',
    uid: str(m.uid) ?? '',
    resourceVersion: str(m.resourceVersion) ?? '',
    finalizers: strs(m.finalizers),
    ownerReferences: arr(m.ownerReferences).map(mapOwnerRef),
    labels: stringMap(m.labels),
  };
  if (typeof m.namespace === 'string') meta.namespace = m.namespace;
  if (typeof m.creationTimestamp === 'string') meta.creationTimestamp = m.creationTimestamp;
  if (typeof m.deletionTimestamp === 'string') meta.deletionTimestamp = m.deletionTimestamp;
  if (typeof m.deletionGracePeriodSeconds === 'number')
    meta.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  const managers = finalizerManagers(m.managedFields);
  if (managers.length > 0) meta.finalizerManagers = managers;
  const owners = ownerAnnotations(m.annotations);
  if (owners) meta.ownerAnnotations = owners;
  return meta;
}

// Annotations that name who installed or tracks an object; all others (last-applied configurations) are dropped.
const OWNER_ANNOTATION = /^(meta\.helm\.sh\/|argocd\.argoproj\.io\/|[a-z]+\.toolkit\.fluxcd\.io\/)/;

function ownerAnnotations(v: unknown): Record<string, string> | undefined {
  const kept = Object.entries(stringMap(v)).filter(([k]) => OWNER_ANNOTATION.test(k));
  return kept.length > 0 ? Object.fromEntries(kept) : undefined;
}

/** Managers whose managedFields entry owns `f:metadata.f:finalizers` (server-side apply bookkeeping), sorted. */
function finalizerManagers(v: unknown): string[] {
  const out = new Set<string>();
  for (const entry of arr(v).map(rec)) {
    const fields = rec(rec(entry.fieldsV1)['f:metadata'])['f:finalizers'];
    const manager = str(entry.manager);
    if (manager && fields !== undefined) out.add(manager);
  }
  return [...out].sort();
}

function mapOwnerRef(v: unknown): OwnerRef {
  const r = rec(v);
  const out: OwnerRef = {
    apiVersion: str(r.apiVersion) ?? '',
    kind: str(r.kind) ?? '',
    name: str(r.name) ?? '',
    uid: str(r.uid) ?? '',
  };
  if (typeof r.controller === 'boolean') out.controller = r.controller;
  if (typeof r.blockOwnerDeletion === 'boolean') out.blockOwnerDeletion = r.blockOwnerDeletion;
  return out;
}

/** The `continue` token of a list, when there is one. */
export function continueOf(list: Obj): string | undefined {
  return str(rec(list.metadata).continue);
}

/** One line of a watch stream: a change with its object mapped by `map`, a BOOKMARK or an ERROR; else undefined. */
function parseEventLine<C extends object>(
  line: string,
  map: (object: unknown) => C,
): ({ type: 'ADDED' | 'MODIFIED' | 'DELETED' } & C) | ReturnType<typeof parseOtherEvent> {
  const e = rec(parseJson(line));
  const type = e.type;
  if (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') return { type, ...map(e.object) };
  return parseOtherEvent(e);
}

/** One line of a watch stream to a NamespaceEvent; undefined for lines that are not events. */
export const parseWatchLine = (line: string): NamespaceEvent | undefined =>
  parseEventLine(line, (o) => ({ namespace: mapNamespace(o) }));

/** One line of a metadata-only watch stream to an ObjectEvent; undefined for lines that are not events. */
export const parseObjectWatchLine = (line: string): ObjectEvent | undefined =>
  parseEventLine(line, (o) => ({ object: mapMeta(o) }));

/** BOOKMARK and ERROR events, alike on every watch. */
function parseOtherEvent(
  e: Obj,
):
  | { type: 'BOOKMARK'; resourceVersion: string }
  | { type: 'ERROR'; code: number; reason?: string; message: string }
  | undefined {
  const object = rec(e.object);
  switch (e.type) {
    case 'BOOKMARK':
      return { type: 'BOOKMARK', resourceVersion: str(rec(object.metadata).resourceVersion) ?? '' };
    case 'ERROR': {
      const reason = str(object.reason);
      return {
        type: 'ERROR',
        code: typeof object.code === 'number' ? object.code : 500,
        ...(reason ? { reason } : {}),
        message: str(object.message) ?? 'watch error',
      };
    }
    default:
      return undefined;
  }
}
