/** When a candidate namespace expires: its own annotations (ttl, expires) and the sweep's `max-age`. Pure. */
import { EXPIRES_ANNOTATION, TTL_ANNOTATION } from '../model/lifecycle.js';
import { formatAge, parseDuration } from '../shared/duration.js';

/** The earliest expiry and what set it (`ttl 48h`), or why an annotation could not be read. */
export type Expiry = { at: number; by: string } | { problem: string };

/** RFC 3339 as Kubernetes writes times: a date, a time, and `Z` or an offset. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const shown = (value: string): string => (value.length > 60 ? `${value.slice(0, 60)}…` : value);

/** Why an annotation's value is refused; the namespace is then kept and the finding reported. */
function refused(key: string, value: string, want: string): Expiry {
  return { problem: `annotation ${key} is "${shown(value)}", not ${want}; kept until it is fixed` };
}

/**
 * The expiry of a namespace created at `createdAt` (epoch ms, NaN when unknown): the earliest of `ttl` after
 * creation, `expires`, and `maxAgeMs` after creation; undefined when none applies. A ttl or max age needs a
 * creation time; an annotation that does not parse is a problem, never ignored.
 */
export function expiryOf(
  annotations: Record<string, string> | undefined,
  createdAt: number,
  maxAgeMs: number | undefined,
): Expiry | undefined {
  const found: { at: number; by: string }[] = [];
  const ttl = annotations?.[TTL_ANNOTATION];
  if (ttl !== undefined) {
    const ms = parseDuration(ttl);
    if (ms === undefined) return refused(TTL_ANNOTATION, ttl, 'a duration such as 48h or 7d');
    if (!Number.isNaN(createdAt)) found.push({ at: createdAt + ms, by: `ttl ${ttl.trim()}` });
  }
  const expires = annotations?.[EXPIRES_ANNOTATION];
  if (expires !== undefined) {
    const at = RFC3339.test(expires.trim()) ? Date.parse(expires.trim()) : NaN;
    if (Number.isNaN(at)) return refused(EXPIRES_ANNOTATION, expires, 'a time such as 2026-12-01T00:00:00Z');
    found.push({ at, by: `expires ${expires.trim()}` });
  }
  if (maxAgeMs !== undefined && !Number.isNaN(createdAt))
    found.push({ at: createdAt + maxAgeMs, by: `max-age ${formatAge(maxAgeMs)}` });
  return found.sort((a, b) => a.at - b.at)[0];
}

/** `expired 2 days ago (ttl 48h)`. */
export function expiredWords(expiry: { at: number; by: string }, now: number): string {
  return `expired ${formatAge(Math.max(0, now - expiry.at))} ago (${expiry.by})`;
}
