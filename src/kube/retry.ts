/** Retry policy: which failures and statuses are tried again, how long to back off, what Retry-After asks. */
import type { Method, Req, Res } from './request.js';
import { parseJson, rec } from './map.js';

/** Errors where the request never reached the server: safe to retry for any method. */
export const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Errors after the request may have been sent: retried for GET only. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Whether a network failure with `code` may be retried; never once the caller has aborted a stream. */
export function isRetriable(code: string, method: Method, aborted: boolean): boolean {
  return CONNECT_CODES.has(code) || (method === 'GET' && TRANSIENT_CODES.has(code) && !aborted);
}

/** Exponential backoff with ±20 % jitter before try `n + 1`. */
export function backoff(baseMs: number, n: number): number {
  return Math.round(baseMs * 2 ** (n - 1) * (0.8 + Math.random() * 0.4));
}

/**
 * The wait a response asks for (Retry-After header, else Status `retryAfterSeconds`), capped at `maxWaitMs`;
 * `now` (ms since epoch) dates a Retry-After given as an HTTP date.
 */
export function retryAfterMs(
  headers: Record<string, string>,
  text: string,
  maxWaitMs: number,
  now: number,
): number | undefined {
  let seconds: number | undefined;
  const header = headers['retry-after'];
  if (header !== undefined && header.trim() !== '') {
    const n = Number(header);
    if (Number.isFinite(n)) seconds = n;
    else {
      const date = Date.parse(header);
      if (!Number.isNaN(date)) seconds = (date - now) / 1000;
    }
  }
  if (seconds === undefined) {
    const details = rec(rec(parseJson(text)).details);
    if (typeof details.retryAfterSeconds === 'number') seconds = details.retryAfterSeconds;
  }
  if (seconds === undefined) return undefined;
  return Math.min(Math.max(0, seconds * 1000), maxWaitMs);
}

/** The attempts at one request so far, and where its credentials came from. */
export type Tries = { failures: number; throttled: number; cachedAuth?: boolean; reauthenticated?: boolean };

/** The limits on retries (the matching fields of `TransportSettings`). */
export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxThrottle: number;
  maxWaitMs: number;
  /** The time, to date a Retry-After. */
  now: () => number;
}

/** What a response calls for: make the credentials again and resend, or wait `ms` (for `why`) and resend. */
export type StatusRetry = { reauthenticate: true } | { ms: number; why: string };

/**
 * Whether a response is to be retried (401 once with cached credentials, 429 within its budget, 5xx on GET), and
 * how; counts it in `tries`. `left` is the time left before the deadline.
 */
export function statusRetry(
  req: Req,
  res: Res,
  tries: Tries,
  p: RetryPolicy,
  left: () => number,
): StatusRetry | undefined {
  if (res.status === 401 && tries.cachedAuth && !tries.reauthenticated) {
    // Cached credentials may have expired: make them again once before giving up.
    tries.reauthenticated = true;
    return { reauthenticate: true };
  }
  if (res.status === 429 && tries.throttled < p.maxThrottle) {
    tries.throttled++;
    // A Retry-After longer than what is left means stop and report, not wait.
    const wait = retryAfterMs(res.headers, res.text, Infinity, p.now()) ?? backoff(p.baseMs, tries.throttled);
    return { ms: wait >= left() ? wait : Math.min(wait, p.maxWaitMs), why: 'throttled (429)' };
  }
  if (res.status >= 500 && res.status !== 501 && req.method === 'GET') {
    tries.failures++;
    if (tries.failures < p.attempts && left() > 0) {
      const wait =
        retryAfterMs(res.headers, res.text, p.maxWaitMs, p.now()) ?? backoff(p.baseMs, tries.failures);
      return { ms: wait, why: `retrying after HTTP ${res.status}` };
    }
  }
  return undefined;
}
