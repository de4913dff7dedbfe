/** How a failed GitHub call is named and classified: pure reading of what Octokit threw or the answer said. */
import { GitHubError, type GitHubHeaders } from './port.js';
import { retryDelayMs } from './rate-limit.js';

/** A failed call as the retry loop reads it (the shape of an Octokit RequestError). */
export interface SendFailure {
  status?: number;
  message?: string;
  response?: { headers?: GitHubHeaders };
  cause?: unknown;
  /** The error message to give, when the status is not what GitHub sent (a rate limit inside a 200). */
  shown?: string;
}

/** `GET /repos/o/r/pulls/1` (no query), or `GitHub GraphQL` for the GraphQL endpoint. */
export function routeName(route: string, graphqlEndpoint: string): string {
  if (route === `POST ${graphqlEndpoint}`) return 'GitHub GraphQL';
  return route.split('?')[0]!;
}

/** Why a retry waits: GitHub's error, or no answer in time. */
export function retryWhy(e: SendFailure): string {
  return e.status ? `a retry after GitHub answered ${e.status}` : 'a retry after no answer';
}

/** Which limit a rate-limit wait is for. */
export function rateLimitWhy(e: SendFailure): string {
  return e.shown?.startsWith('GitHub GraphQL') ? "GitHub GraphQL's rate limit" : "GitHub's rate limit";
}

/** The GitHubError a failure that is not retried (any more) ends in. */
export function toGitHubError(e: SendFailure): GitHubError {
  const status = e.status;
  const message =
    e.shown ??
    `GitHub answered ${status ?? 'no response'}: ${(e.message ?? 'request failed').split(' - ')[0]}`;
  if (status === 404) return new GitHubError(message, 'not-found', status);
  if (status === 403 || status === 429) {
    const limited = retryDelayMs(status, e.response?.headers, e.message ?? '', 0) !== undefined;
    return new GitHubError(message, limited ? 'rate-limited' : 'forbidden', status);
  }
  if (status === 401) return new GitHubError(message, 'forbidden', status);
  return new GitHubError(message, 'other', status || undefined);
}
