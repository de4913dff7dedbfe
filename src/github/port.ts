/** The GitHub port: the few REST and GraphQL calls the sweep and the PR comment make, and how they fail. */

/** Response headers as Octokit gives them (lower-case names). */
export type GitHubHeaders = Record<string, string | number | undefined>;

/** A successful (or 304-revalidated) REST response. */
export interface GitHubResponse<T = unknown> {
  status: number;
  data: T;
  headers: GitHubHeaders;
}

/**
 * Why a request failed: `not-found` (404), `forbidden` (401/403 that is not a rate limit), `rate-limited` (a
 * primary or secondary limit we could not wait out), `cap` (the per-run request cap was reached before it was
 * sent), `deadline` (no answer, or no wait, before the deadline; or the run was cancelled), `too-large` (an answer
 * over its size limit, not read), `other` (network, 5xx after retries, a changed answer, anything else).
 */
export type GitHubFailure =
  'not-found' | 'forbidden' | 'rate-limited' | 'cap' | 'deadline' | 'too-large' | 'other';

/** A REST call that failed; the message never holds the token. */
export class GitHubError extends Error {
  constructor(
    message: string,
    readonly kind: GitHubFailure,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'GitHubError';
  }
}

/** One entry of a GraphQL answer's `errors`; `path` names the (aliased) field it concerns, when it concerns one. */
export interface GraphqlError {
  type?: string;
  message?: string;
  path?: (string | number)[];
}

/** A GraphQL answer: `data` may be partial, and `errors` then says what is missing and why. */
export interface GraphqlAnswer<T = unknown> {
  data: T | null;
  errors: GraphqlError[];
}

/** How one call is bounded beyond the client's own limits. */
export interface CallOptions {
  /** The largest answer read, in bytes (default `MAX_ANSWER_BYTES`); a larger one is a `too-large` failure. */
  maxBytes?: number;
}

/** The default size limit of an answer: a pull request, a GraphQL page of 100, an identity, a written comment. */
export const MAX_ANSWER_BYTES = 1024 * 1024;

/**
 * The REST and GraphQL calls, through one client that honours rate limits, a concurrency bound, a request cap, and
 * a deadline: no call is sent, waited for or retried past it.
 */
export interface GitHubApi {
  /** `route` is `METHOD /path?query`; `params` becomes the JSON body of a POST or PATCH. */
  request<T = unknown>(
    route: string,
    params?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<GitHubResponse<T>>;
  /** POST one query to the GraphQL endpoint; an answer with `errors` is returned, not thrown (it may be partial). */
  graphql<T = unknown>(
    query: string,
    variables?: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<GraphqlAnswer<T>>;
  /** The same client (its count, cap and rate-limit state) bounded by another deadline (epoch ms). */
  until(deadline: number): GitHubApi;
  /** Requests sent so far (a retry counts again; a 304 counts too). */
  readonly sent: number;
}
