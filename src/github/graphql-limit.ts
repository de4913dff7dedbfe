/** How a GraphQL answer speaks of GitHub's rate limits: pure reading of its body and headers. */
import type { GitHubHeaders, GraphqlError } from './port.js';
import { SECONDARY_DEFAULT_WAIT_MS } from './rate-limit.js';

/** A failure as the client's retry loop reads it (the shape of an Octokit RequestError). */
export interface LimitFailure {
  status: number;
  message: string;
  response: { headers: GitHubHeaders };
  /** What the error message says GitHub answered, when the status above is not what it sent. */
  shown: string;
}

function errorsOf(body: unknown): GraphqlError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  return Array.isArray(errors) ? (errors as GraphqlError[]) : [];
}

/**
 * A used-up point budget inside an answer (GitHub sends it with status 200 and an error of type `RATE_LIMITED`,
 * lately `RATE_LIMIT`), as a rate-limit failure the retry loop understands; undefined when there is none.
 */
export function graphqlRateLimited(body: unknown, headers: GitHubHeaders): LimitFailure | undefined {
  const limited = errorsOf(body).find((e) => /^RATE_LIMIT/.test(String(e?.type ?? '')));
  if (!limited) return undefined;
  // x-ratelimit-remaining is not always 0 on such an answer: its reset time is read as the end of the wait. With
  // neither a reset time nor a retry-after, wait as GitHub advises for a secondary limit.
  const known = headers['x-ratelimit-reset'] !== undefined || headers['retry-after'] !== undefined;
  const wait = known
    ? { 'x-ratelimit-remaining': '0' }
    : { 'retry-after': String(SECONDARY_DEFAULT_WAIT_MS / 1000) };
  const text = String(limited.message ?? 'API rate limit exceeded').slice(0, 200);
  return {
    status: 403,
    message: `API rate limit exceeded: ${text}`,
    response: { headers: { ...headers, ...wait } },
    shown: `GitHub GraphQL answered ${String(limited.type)}: ${text}`,
  };
}

/** The reset time when the answer's `rateLimit` says the point budget cannot pay for another query like it. */
export function pointsResetAt(body: unknown): number | undefined {
  const data = (body as { data?: { rateLimit?: Record<string, unknown> } } | null)?.data;
  const limit = data?.rateLimit;
  if (!limit || typeof limit.remaining !== 'number') return undefined;
  const cost = typeof limit.cost === 'number' ? Math.max(1, limit.cost) : 1;
  if (limit.remaining >= cost) return undefined;
  const reset = typeof limit.resetAt === 'string' ? Date.parse(limit.resetAt) : NaN;
  return Number.isNaN(reset) ? undefined : reset;
}
