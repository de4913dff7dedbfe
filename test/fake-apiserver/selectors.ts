/** Label and field selectors (k8s.io/apimachinery/pkg/labels and fields), parsed from query strings. */
import { badRequest } from './errors.js';
import type { KObj } from './types.js';

type Requirement =
  | { op: 'exists' | 'notexists'; key: string }
  | { op: 'in' | 'notin'; key: string; values: string[] }
  | { op: 'eq' | 'neq'; key: string; value: string };

export type LabelSelector = Requirement[];

/** Split on commas that are not inside parentheses. */
function splitTerms(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out.map((t) => t.trim()).filter((t) => t !== '');
}

/** Parse `a=b,c!=d,e in (x,y),f notin (z),g,!h`. Throws a 400 on syntax errors. */
export function parseLabelSelector(s: string | null | undefined): LabelSelector {
  if (!s) return [];
  return splitTerms(s).map((term): Requirement => {
    let m = /^([^\s!=()]+)\s+(in|notin)\s+\(([^)]*)\)$/.exec(term);
    if (m) {
      const values = (m[3] ?? '')
        .split(',')
        .map((v) => v.trim())
        .filter((v) => v !== '');
      return { op: m[2] === 'in' ? 'in' : 'notin', key: m[1] ?? '', values };
    }
    m = /^([^\s!=()]+)\s*(==|=|!=)\s*([^\s!=()]*)$/.exec(term);
    if (m) return { op: m[2] === '!=' ? 'neq' : 'eq', key: m[1] ?? '', value: m[3] ?? '' };
    m = /^!\s*([^\s!=()]+)$/.exec(term);
    if (m) return { op: 'notexists', key: m[1] ?? '' };
    m = /^([^\s!=()]+)$/.exec(term);
    if (m) return { op: 'exists', key: m[1] ?? '' };
    throw badRequest(`unable to parse requirement: found '${term}', expected: identifier`);
  });
}

export function matchesLabels(sel: LabelSelector, labels: Record<string, string> | undefined): boolean {
  const l = labels ?? {};
  return sel.every((r) => {
    const has = Object.prototype.hasOwnProperty.call(l, r.key);
    const v = l[r.key];
    switch (r.op) {
      case 'exists':
        return has;
      case 'notexists':
        return !has;
      case 'in':
        return has && v !== undefined && r.values.includes(v);
      case 'notin':
        return !has || v === undefined || !r.values.includes(v);
      case 'eq':
        return has && v === r.value;
      case 'neq':
        return !has || v !== r.value;
    }
  });
}

export interface FieldTerm {
  field: string;
  value: string;
  negate: boolean;
}

const SUPPORTED_FIELDS = new Set(['metadata.name', 'metadata.namespace', 'status.phase', 'spec.nodeName']);

/** Parse `metadata.name=x,metadata.namespace!=y`; unsupported fields give the real 400. */
export function parseFieldSelector(s: string | null | undefined, kind: string): FieldTerm[] {
  if (!s) return [];
  return splitTerms(s).map((term) => {
    const m = /^([^=!]+)(==|=|!=)(.*)$/.exec(term);
    if (!m) throw badRequest(`invalid selector: '${s}'; can't understand '${term}'`);
    const field = (m[1] ?? '').trim();
    if (!SUPPORTED_FIELDS.has(field)) {
      throw badRequest(`field label not supported: ${field}`);
    }
    if (
      (field === 'status.phase' && kind !== 'Namespace' && kind !== 'Pod') ||
      (field === 'spec.nodeName' && kind !== 'Pod')
    ) {
      throw badRequest(`field label not supported: ${field}`);
    }
    return { field, value: (m[3] ?? '').trim(), negate: m[2] === '!=' };
  });
}

function fieldValue(obj: KObj, field: string): string {
  switch (field) {
    case 'metadata.name':
      return obj.metadata.name;
    case 'metadata.namespace':
      return obj.metadata.namespace ?? '';
    case 'status.phase':
      return String((obj.status as { phase?: string } | undefined)?.phase ?? '');
    case 'spec.nodeName':
      return String((obj.spec as { nodeName?: string } | undefined)?.nodeName ?? '');
    default:
      return '';
  }
}

export function matchesFields(terms: FieldTerm[], obj: KObj): boolean {
  return terms.every((t) => (fieldValue(obj, t.field) === t.value) !== t.negate);
}

/** The name an exact `metadata.name=` term asks for (RBAC treats it as the request name). */
export function exactName(terms: FieldTerm[]): string {
  return terms.find((t) => t.field === 'metadata.name' && !t.negate)?.value ?? '';
}
