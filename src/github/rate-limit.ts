/** When GitHub asks us to wait, and for how long: pure reading of its rate-limit headers. */
import type { GitHubHeaders } from './port.js';

/** GitHub's advice when a secondary limit names no retry-after: wait at least a minute. */
export const SECONDARY_DEFAULT_WAIT_MS = 60_000;

function header(headers: GitHubHeaders | undefined, name: string): string | undefined {
  const v = headers?.[name];
  return v === undefined ? undefined : String(v);
}

/** The moment the primary limit resets, when the response says it is used up; else undefined. */
export function primaryResetAt(headers: GitHubHeaders | undefined): number | undefined {
  if (header(headers, 'x-ratelimit-remaining') !== '0') return undefined;
  const reset = Number(header(headers, 'x-ratelimit-reset'));
  return Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined;
}

/**
 * How long to wait before retrying a failed request, or undefined when it is not a rate limit. A
 * `retry-after` (secondary limit) wins; then an exhausted primary limit waits until `x-ratelimit-reset`
 * (plus a second of clock skew); a 403/429 that only says "secondary rate limit" waits a minute.
 */
export function retryDelayMs(
  status: number,
  headers: GitHubHeaders | undefined,
  message: string,
  now: number,
): number | undefined {
  if (status !== 403 && status !== 429) return undefined;
  const retryAfter = header(headers, 'retry-after');
  if (retryAfter !== undefined) {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const reset = primaryResetAt(headers);
  if (reset !== undefined) return Math.max(0, reset - now) + 1000;
  if (/secondary rate limit/i.test(message) || status === 429) return SECONDARY_DEFAULT_WAIT_MS;
  return undefined;
}
