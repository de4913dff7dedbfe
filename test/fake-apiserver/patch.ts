/** The three PATCH flavours the apiserver accepts: JSON merge, strategic merge (subset), JSON patch. */
import { badRequest, unprocessable } from './errors.js';
import { clone, isRecord, stableJson } from './meta.js';
import type { JsonMap } from './types.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_PATCH = 'application/strategic-merge-patch+json';

/** RFC 7386 JSON merge patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return clone(patch);
  const out: JsonMap = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Lists with `patchStrategy:"merge"` on primitives, and list-of-map merge keys, by field path. */
const PRIMITIVE_MERGE = new Set(['metadata.finalizers']);
const MERGE_KEYS: Record<string, string> = {
  'metadata.ownerReferences': 'uid',
  'status.conditions': 'type',
  'spec.containers': 'name',
  'spec.volumes': 'name',
};

/**
 * Strategic merge patch for the fields this fake cares about: `metadata.finalizers` merges as a set
 * (so `"finalizers": []` is a no-op and `$deleteFromPrimitiveList/finalizers` removes), keyed lists
 * merge by key (`$patch: delete` removes an element), `$patch: replace` replaces a map, everything
 * else behaves like a JSON merge patch.
 */
export function strategicMergePatch(target: unknown, patch: unknown, path = ''): unknown {
  if (!isRecord(patch)) return clone(patch);
  if (patch.$patch === 'replace') {
    const rest = { ...patch };
    delete rest.$patch;
    return clone(rest);
  }
  const out: JsonMap = isRecord(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (k.startsWith('$setElementOrder/') || k === '$retainKeys') continue;
    if (k.startsWith('$deleteFromPrimitiveList/')) {
      const field = k.slice('$deleteFromPrimitiveList/'.length);
      const cur = out[field];
      if (Array.isArray(cur) && Array.isArray(v)) out[field] = cur.filter((x) => !v.includes(x));
      continue;
    }
    if (k.startsWith('$')) throw badRequest(`unable to find api field in struct for the json field "${k}"`);
    const fieldPath = path ? `${path}.${k}` : k;
    if (v === null) delete out[k];
    else if (Array.isArray(v) && PRIMITIVE_MERGE.has(fieldPath)) {
      const cur = Array.isArray(out[k]) ? (out[k] as unknown[]) : [];
      out[k] = [...cur, ...v.filter((x) => !cur.includes(x))];
    } else if (Array.isArray(v) && MERGE_KEYS[fieldPath]) {
      out[k] = mergeKeyedList(out[k], v, MERGE_KEYS[fieldPath], fieldPath);
    } else out[k] = strategicMergePatch(out[k], v, fieldPath);
  }
  return out;
}

function mergeKeyedList(cur: unknown, patch: unknown[], mergeKey: string, path: string): unknown[] {
  const out = Array.isArray(cur) ? [...cur] : [];
  for (const p of patch) {
    if (!isRecord(p)) continue;
    const idx = out.findIndex((x) => isRecord(x) && x[mergeKey] === p[mergeKey]);
    if (p.$patch === 'delete') {
      if (idx >= 0) out.splice(idx, 1);
    } else if (idx >= 0) out[idx] = strategicMergePatch(out[idx], p, path);
    else out.push(strategicMergePatch({}, p, path));
  }
  return out;
}

interface Op {
  op: string;
  path: string;
  from?: string;
  value?: unknown;
}

const unescape = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

function pointer(path: string): string[] {
  if (path === '') return [];
  if (!path.startsWith('/')) throw unprocessable(`JSON pointer must be empty or start with a "/"`);
  return path.slice(1).split('/').map(unescape);
}

/** Parent container and last token of a pointer, or an error in evanphx/json-patch's words. */
function locate(doc: unknown, path: string, op: string): { parent: JsonMap | unknown[]; key: string } {
  const toks = pointer(path);
  const key = toks.pop();
  if (key === undefined)
    throw unprocessable(`${op} operation does not apply: doc is missing path: "${path}"`);
  let cur: unknown = doc;
  for (const t of toks) {
    if (Array.isArray(cur)) cur = cur[Number(t)];
    else if (isRecord(cur)) cur = cur[t];
    else cur = undefined;
    if (cur === undefined) {
      throw unprocessable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
    }
  }
  if (!Array.isArray(cur) && !isRecord(cur)) {
    throw unprocessable(`${op} operation does not apply: doc is missing path: "${path}": missing value`);
  }
  return { parent: cur, key };
}

function getAt(doc: unknown, path: string, op: string): unknown {
  const { parent, key } = locate(doc, path, op);
  const v = Array.isArray(parent) ? parent[Number(key)] : parent[key];
  if (v === undefined)
    throw unprocessable(`${op} operation does not apply: doc is missing key: ${path}: missing value`);
  return v;
}

function removeAt(doc: unknown, path: string, op: string): unknown {
  const { parent, key } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    const i = Number(key);
    if (!Number.isInteger(i) || i < 0 || i >= parent.length) {
      throw unprocessable(`Unable to access invalid index: ${key}: invalid index referenced`);
    }
    return parent.splice(i, 1)[0];
  }
  if (!(key in parent)) throw unprocessable(`Unable to remove nonexistent key: ${key}: missing value`);
  const v = parent[key];
  delete parent[key];
  return v;
}

function addAt(doc: unknown, path: string, value: unknown, op: string): void {
  const { parent, key } = locate(doc, path, op);
  if (Array.isArray(parent)) {
    const i = key === '-' ? parent.length : Number(key);
    if (!Number.isInteger(i) || i < 0 || i > parent.length) {
      throw unprocessable(`Unable to access invalid index: ${key}: invalid index referenced`);
    }
    parent.splice(i, 0, clone(value));
  } else parent[key] = clone(value);
}

/** RFC 6902 JSON patch; failures are the 422 the apiserver returns for a patch that does not apply. */
export function jsonPatch(doc: JsonMap, ops: unknown): JsonMap {
  if (!Array.isArray(ops)) {
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  }
  const out = clone(doc);
  for (const raw of ops) {
    const o = raw as Op;
    switch (o.op) {
      case 'add':
        addAt(out, o.path, o.value, 'add');
        break;
      case 'remove':
        removeAt(out, o.path, 'remove');
        break;
      case 'replace':
        getAt(out, o.path, 'replace');
        removeAt(out, o.path, 'replace');
        addAt(out, o.path, o.value, 'replace');
        break;
      case 'move':
        addAt(out, o.path, removeAt(out, o.from ?? '', 'move'), 'move');
        break;
      case 'copy':
        addAt(out, o.path, getAt(out, o.from ?? '', 'copy'), 'copy');
        break;
      case 'test': {
        const v = getAt(out, o.path, 'test');
        if (stableJson(v) !== stableJson(o.value)) {
          throw unprocessable(`testing value ${o.path} failed: test failed`);
        }
        break;
      }
      default:
        throw badRequest(`Unexpected kind: ${String(o.op)}`);
    }
  }
  return out;
}
