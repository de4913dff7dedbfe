/** Pure retry policy: which failures are tried again, how long to back off, and what Retry-After asks for. */
import type { Method } from './request.js';
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
