/** Field pruning for Namespace bodies (the one schema the fake knows), honouring `fieldValidation`. */
import { badRequest } from './errors.js';
import { isRecord, META_ORDER } from './meta.js';
import type { JsonMap, OpContext } from './types.js';

const META_FIELDS = new Set<string>(META_ORDER);

const NAMESPACE_SCHEMA: Record<string, Set<string> | null> = {
  kind: null,
  apiVersion: null,
  metadata: META_FIELDS,
  spec: new Set(['finalizers']),
  status: new Set(['phase', 'conditions']),
};

/**
 * Drop unknown fields of a Namespace. `Strict` rejects them (400), `Ignore` drops them silently, and the
 * default `Warn` drops them with a `Warning` header per field.
 */
export function pruneNamespaceFields(body: JsonMap, directive: string, ctx: OpContext): JsonMap {
  const unknown: string[] = [];
  const out: JsonMap = {};
  for (const [k, v] of Object.entries(body)) {
    if (!(k in NAMESPACE_SCHEMA)) {
      unknown.push(k);
      continue;
    }
    const allowed = NAMESPACE_SCHEMA[k];
    if (allowed && isRecord(v)) {
      const inner: JsonMap = {};
      for (const [ik, iv] of Object.entries(v)) {
        if (allowed.has(ik)) inner[ik] = iv;
        else unknown.push(`${k}.${ik}`);
      }
      out[k] = inner;
    } else out[k] = v;
  }
  if (unknown.length && directive === 'Strict') {
    throw badRequest(`strict decoding error: ${unknown.map((f) => `unknown field "${f}"`).join(', ')}`);
  }
  if (directive !== 'Ignore') for (const f of unknown) ctx.warnings.push(`unknown field "${f}"`);
  return out;
}
