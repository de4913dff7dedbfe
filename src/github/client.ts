/** The one GitHub client: Octokit from @actions/github behind rate limits, a concurrency bound and a cap. */
import type { Clock, Logger } from '../shared/ports.js';
import { Slots } from '../shared/slots.js';
import { graphqlRateLimited, pointsResetAt } from './graphql-limit.js';
import {
  GitHubError,
  type GitHubApi,
  type GitHubHeaders,
  type GitHubResponse,
  type GraphqlAnswer,
  type GraphqlError,
} from './port.js';
import { primaryResetAt, retryDelayMs } from './rate-limit.js';

/** What one Octokit `request` call returns or throws (a RequestError carries status and response). */
export type Send = (
  route: string,
  params: Record<string, unknown>,
) => Promise<{ status: number; data: unknown; headers: GitHubHeaders }>;

interface SendFailure {
  status?: number;
  message?: string;
  response?: { headers?: GitHubHeaders };
  /** The error message to give, when the status is not what GitHub sent (a rate limit inside a 200). */
  shown?: string;
}

/** Looks at a successful answer and says when it is a failure after all. */
type Inspect = (res: GitHubResponse) => SendFailure | undefined;

/** Limits of one run's conversation with GitHub. */
export interface GitHubLimits {
  /** Requests in flight at once (default 4: GitHub's secondary limits punish bursts). */
  concurrency?: number;
  /** Hard cap on requests sent in one run, retries included (default 2,500: a backstop; the sweep caps pull requests). */
  maxRequests?: number;
  /** The longest single wait for a rate limit; a later reset fails the request instead (default 5 min). */
  maxWaitMs?: number;
  /** Retries of one request after a rate limit or a 5xx (default 3). */
  maxRetries?: number;
}

export const DEFAULT_LIMITS: Required<GitHubLimits> = {
  concurrency: 4,
  maxRequests: 2500,
  maxWaitMs: 5 * 60_000,
  maxRetries: 3,
};

/** Where GitHub's REST API is: `GITHUB_API_URL` on a runner (GitHub Enterprise Server too), else github.com. */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
}

/**
 * Where GitHub's GraphQL API is: `GITHUB_GRAPHQL_URL` on a runner; else next to the REST address (`/api/v3` →
 * `/api/graphql` on GitHub Enterprise Server), so a token is never sent to another host than the REST calls go to.
 */
export function graphqlUrl(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_GRAPHQL_URL) return env.GITHUB_GRAPHQL_URL.replace(/\/+$/, '');
  const rest = apiBaseUrl(env);
  return /\/api\/v3$/.test(rest) ? rest.replace(/\/v3$/, '/graphql') : `${rest}/graphql`;
}

/** A GitHubApi over any `send`; the tests give it a real Octokit talking to nock. */
export class GitHubClient implements GitHubApi {
  sent = 0;
  private readonly limits: Required<GitHubLimits>;
  private pausedUntil = 0;
  private readonly slots: Slots;
  // GitHub does not count a 304 against the primary limit: revalidate repeated GETs with their ETag.
  private readonly etags = new Map<string, { etag: string; data: unknown }>();

  constructor(
    private readonly send: Send,
    private readonly clock: Clock,
    limits: GitHubLimits = {},
    private readonly logger?: Logger,
    private readonly graphqlEndpoint = 'https://api.github.com/graphql',
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.slots = new Slots(this.limits.concurrency);
  }

  async request<T>(route: string, params: Record<string, unknown> = {}): Promise<GitHubResponse<T>> {
    await this.slots.acquire();
    try {
      return (await this.attempt(route, params)) as GitHubResponse<T>;
    } finally {
      this.slots.release();
    }
  }

  async graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<GraphqlAnswer<T>> {
    await this.slots.acquire();
    try {
      const inspect: Inspect = (res) => graphqlRateLimited(res.data, res.headers);
      const res = await this.attempt(`POST ${this.graphqlEndpoint}`, { query, variables }, inspect);
      const reset = pointsResetAt(res.data);
      if (reset !== undefined) this.pausedUntil = Math.max(this.pausedUntil, reset + 1000);
      const body = (res.data ?? {}) as { data?: T | null; errors?: GraphqlError[] };
      return { data: body.data ?? null, errors: Array.isArray(body.errors) ? body.errors : [] };
    } finally {
      this.slots.release();
    }
  }

  private async attempt(
    route: string,
    params: Record<string, unknown>,
    inspect?: Inspect,
  ): Promise<GitHubResponse> {
    const cacheable = route.startsWith('GET ');
    for (let retry = 0; ; retry++) {
      await this.waitForReset(route);
      if (this.sent >= this.limits.maxRequests) {
        throw new GitHubError(
          `not sent: the cap of ${this.limits.maxRequests} GitHub requests per run`,
          'cap',
        );
      }
      this.sent++;
      const cached = cacheable ? this.etags.get(route) : undefined;
      const headers = cached ? { 'if-none-match': cached.etag } : {};
      let e: SendFailure;
      try {
        const res = await this.send(route, { ...params, headers });
        const failed = inspect?.(res);
        if (!failed) {
          this.notePrimary(res.headers);
          if (cacheable && typeof res.headers.etag === 'string')
            this.etags.set(route, { etag: res.headers.etag, data: res.data });
          return { status: res.status, data: res.data, headers: res.headers };
        }
        e = failed;
      } catch (error) {
        e = error as SendFailure;
      }
      this.notePrimary(e.response?.headers);
      if (e.status === 304 && cached) return { status: 304, data: cached.data, headers: {} };
      const delay = this.delayFor(e, retry);
      if (delay === undefined) throw toGitHubError(e);
      this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + delay);
    }
  }

  /** How long to wait before retry number `retry + 1`, or undefined to give up now. */
  private delayFor(e: SendFailure, retry: number): number | undefined {
    if (retry >= this.limits.maxRetries) return undefined;
    const status = e.status ?? 0;
    if (status >= 500) return 1000 * 2 ** retry;
    const delay = retryDelayMs(status, e.response?.headers, e.message ?? '', this.clock.now());
    return delay !== undefined && delay <= this.limits.maxWaitMs ? delay : undefined;
  }

  private notePrimary(headers: GitHubHeaders | undefined): void {
    const reset = primaryResetAt(headers);
    if (reset !== undefined) this.pausedUntil = Math.max(this.pausedUntil, reset + 1000);
  }

  private async waitForReset(route: string): Promise<void> {
    const wait = this.pausedUntil - this.clock.now();
    if (wait <= 0) return;
    if (wait > this.limits.maxWaitMs) {
      throw new GitHubError(
        `not sent: GitHub's rate limit resets in ${Math.ceil(wait / 1000)}s, later than the longest wait`,
        'rate-limited',
      );
    }
    this.logger?.info(`GitHub rate limit: waiting ${Math.ceil(wait / 1000)}s before ${route.split('?')[0]}`);
    await this.clock.sleep(wait);
  }
}

function toGitHubError(e: SendFailure): GitHubError {
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
  return new GitHubError(message, 'other', status);
}

/** Build the real client; loads @actions/github only now, so runs that never talk to GitHub never load it. */
export async function createGitHub(opts: {
  token: string;
  baseUrl: string;
  /** The GraphQL endpoint; default: next to `baseUrl` (see `graphqlUrl`). */
  graphqlUrl?: string;
  clock: Clock;
  logger?: Logger;
  limits?: GitHubLimits;
}): Promise<GitHubApi> {
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(opts.token, { baseUrl: opts.baseUrl });
  const send: Send = async (route, params) => {
    const res = await octokit.request(route, params);
    return { status: res.status, data: res.data, headers: res.headers as GitHubHeaders };
  };
  const graphql = opts.graphqlUrl ?? graphqlUrl({ GITHUB_API_URL: opts.baseUrl });
  return new GitHubClient(send, opts.clock, opts.limits, opts.logger, graphql);
}
