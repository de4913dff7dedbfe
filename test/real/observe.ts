/** Reduce a server's answer to what the fidelity comparison looks at: status, kind, JSON shape and exact strings. */
import type { Loose, RawResponse } from '../fake-apiserver/index.js';

/** What one request returned, with values that differ by nature (names, UIDs, times) left out or normalized. */
export interface Observation {
  status: number;
  kind?: string;
  /** Sorted key paths (`a.b[].c`) of the JSON body, without data maps and server bookkeeping. */
  shape: string[];
  /** Exact strings worth comparing (Status reason/message, condition texts, event types). */
  text: Record<string, string>;
}

// Maps whose keys are data, and fields a fake does not keep (server-side apply bookkeeping).
const OPAQUE = /(^|\.)(labels|annotations|data|managedFields)$/;

function paths(v: Loose, prefix: string, out: Set<string>): void {
  if (OPAQUE.test(prefix)) {
    out.add(prefix);
    return;
  }
  if (Array.isArray(v)) {
    for (const item of v) paths(item, `${prefix}[]`, out);
    if (!v.length) out.add(`${prefix}[]`);
    return;
  }
  if (v === null || typeof v !== 'object') {
    out.add(prefix);
    return;
  }
  for (const [k, child] of Object.entries(v)) paths(child, prefix ? `${prefix}.${k}` : k, out);
}

/** The key paths of a JSON value. */
export function shapeOf(v: Loose): string[] {
  const out = new Set<string>();
  if (v !== undefined) paths(v, '', out);
  return [...out].sort();
}

/** An observation of a raw response; `names` are replaced by placeholders in every compared string. */
export function observe(
  r: RawResponse,
  names: Record<string, string>,
  extra: Record<string, string> = {},
): Observation {
  const text: Record<string, string> = { ...extra };
  if (r.json?.kind === 'Status') {
    text.reason = r.json.reason ?? '';
    text.message = r.json.message ?? '';
  }
  for (const [k, v] of Object.entries(text)) text[k] = normalize(v, names);
  return { status: r.status, kind: r.json?.kind, shape: shapeOf(r.json), text };
}

/** Replace each name by its placeholder, longest first (so `ns-hook` is not half-replaced by `ns`). */
export function normalize(s: string, names: Record<string, string>): string {
  const entries = Object.entries(names).sort((a, b) => b[1].length - a[1].length);
  return entries.reduce((acc, [placeholder, name]) => acc.split(name).join(placeholder), s);
}

/** Every difference between two observations of the same probe, one line each. */
export function compare(probe: string, fake: Observation, real: Observation): string[] {
  const out: string[] = [];
  if (fake.status !== real.status) out.push(`${probe}: status fake ${fake.status}, real ${real.status}`);
  if (fake.kind !== real.kind) out.push(`${probe}: kind fake ${fake.kind}, real ${real.kind}`);
  const f = new Set(fake.shape);
  const r = new Set(real.shape);
  const onlyReal = real.shape.filter((p) => !f.has(p));
  const onlyFake = fake.shape.filter((p) => !r.has(p));
  for (const p of onlyReal) out.push(`${probe}: field only the real server sends: ${p}`);
  for (const p of onlyFake) out.push(`${probe}: field only the fake sends: ${p}`);
  for (const key of [...new Set([...Object.keys(fake.text), ...Object.keys(real.text)])].sort())
    if (fake.text[key] !== real.text[key])
      out.push(`${probe}: ${key} fake "${fake.text[key] ?? ''}", real "${real.text[key] ?? ''}"`);
  return out;
}
