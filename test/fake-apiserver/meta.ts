/** Object metadata helpers: timestamps, canonical field order, name validation. */
import { randomUUID } from 'node:crypto';
import { type FieldError, goQuote } from './errors.js';
import type { JsonMap, KObj, ObjectMeta } from './types.js';

/** RFC 3339 at second precision, as metav1.Time serializes. */
export const isoSeconds = (ms: number = Date.now()): string =>
  new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** Go's time.Time String() for a metav1.Time (`2024-01-02 03:04:05 +0000 UTC`). */
export const goTime = (iso: string): string => `${iso.replace('T', ' ').replace('Z', '')} +0000 UTC`;

export const newUid = (): string => randomUUID();

export const isRecord = (x: unknown): x is JsonMap =>
  typeof x === 'object' && x !== null && !Array.isArray(x);

export const asRecord = (x: unknown): JsonMap => (isRecord(x) ? x : {});

export const clone = <T>(x: T): T => structuredClone(x);

/** ObjectMeta fields in the order the API server writes them. */
export const META_ORDER: (keyof ObjectMeta | 'selfLink' | 'managedFields')[] = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === '' ||
  (Array.isArray(v) && v.length === 0) ||
  (isRecord(v) && Object.keys(v).length === 0);

/** ObjectMeta in Go field order with empty fields dropped (omitempty); unknown fields are pruned. */
export function normalizeMeta(meta: JsonMap): ObjectMeta {
  const out: JsonMap = {};
  for (const k of META_ORDER) {
    const v = meta[k];
    if (k === 'selfLink' || k === 'managedFields') continue;
    if (k === 'generation' || k === 'deletionGracePeriodSeconds') {
      if (typeof v === 'number') out[k] = v;
      continue;
    }
    if (!isEmpty(v)) out[k] = v;
  }
  return out as unknown as ObjectMeta;
}

/** kind, apiVersion, metadata first, then the other top-level fields; namespace spec/status omitempty. */
export function normalize(obj: JsonMap): KObj {
  const out: JsonMap = {
    kind: obj.kind,
    apiVersion: obj.apiVersion,
    metadata: normalizeMeta(asRecord(obj.metadata)),
  };
  for (const [k, v] of Object.entries(obj)) {
    if (k === 'kind' || k === 'apiVersion' || k === 'metadata' || v === undefined) continue;
    out[k] = v;
  }
  if (obj.kind === 'Namespace') {
    const spec = asRecord(obj.spec);
    const fin = spec.finalizers;
    out.spec = Array.isArray(fin) && fin.length > 0 ? { finalizers: fin } : {};
    const st = asRecord(obj.status);
    const status: JsonMap = {};
    if (st.phase) status.phase = st.phase;
    if (Array.isArray(st.conditions) && st.conditions.length > 0) status.conditions = st.conditions;
    out.status = status;
  }
  return out as KObj;
}

const DNS_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const QUALIFIED_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

/** validation.IsDNS1123Label messages. */
export function dnsLabelErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!DNS_LABEL.test(v)) errs.push(DNS_LABEL_MSG);
  return errs;
}

/** validation.IsDNS1123Subdomain messages. */
export function dnsSubdomainErrors(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 253) errs.push('must be no more than 253 characters');
  if (!DNS_SUBDOMAIN.test(v)) errs.push(DNS_SUBDOMAIN_MSG);
  return errs;
}

/** validation.IsQualifiedName messages. */
export function qualifiedNameErrors(v: string): string[] {
  const parts = v.split('/');
  if (parts.length > 2) {
    return [
      `a qualified name ${QUALIFIED_MSG} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ];
  }
  const errs: string[] = [];
  const name = parts.length === 2 ? (parts[1] ?? '') : (parts[0] ?? '');
  if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    if (!prefix) errs.push('prefix part must be non-empty');
    else errs.push(...dnsSubdomainErrors(prefix).map((m) => `prefix part ${m}`));
  }
  if (!name) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!QUALIFIED_NAME.test(name)) errs.push(`name part ${QUALIFIED_MSG}`);
  return errs;
}

const STANDARD_FINALIZERS = new Set(['kubernetes', 'orphan', 'foregroundDeletion']);

/** Finalizer name checks of core validation (qualified name, plus the "standard or qualified" rule). */
export function finalizerErrors(f: string, field: string, core: boolean): FieldError[] {
  const errs: FieldError[] = qualifiedNameErrors(f).map((detail) => ({
    type: 'Invalid',
    field,
    value: goQuote(f),
    detail,
  }));
  if (core && !f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
    errs.push({
      type: 'Invalid',
      field,
      value: goQuote(f),
      detail: 'name is neither a standard finalizer name nor is it fully qualified',
    });
  }
  return errs;
}

const GENERATE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** The 5-character suffix `generateName` gets. */
export function randomSuffix(n = 5): string {
  let s = '';
  for (let i = 0; i < n; i++) s += GENERATE_ALPHABET[Math.floor(Math.random() * GENERATE_ALPHABET.length)];
  return s;
}

/** Stable JSON for change detection (key order independent). */
export function stableJson(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(stableJson).join(',')}]`;
  if (isRecord(x)) {
    return `{${Object.keys(x)
      .filter((k) => x[k] !== undefined)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson(x[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(x) ?? 'null';
}
