/** The one GitHub REST client: Octokit from @actions/github behind rate limits, a concurrency bound and a cap. */
import type { Clock, Logger } from '../ports.js';
import { Slots } from '../slots.js';
import { GitHubError, type GitHubApi, type GitHubHeaders, type GitHubResponse } from './port.js';
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
}

/** Limits of one run's conversation with GitHub. */
export interface GitHubLimits {
  /** Requests in flight at once (default 4: GitHub's secondary limits punish bursts). */
  concurrency?: number;
  /** Hard cap on requests sent in one run, retries included (default 500). */
  maxRequests?: number;
  /** The longest single wait for a rate limit; a later reset fails the request instead (default 5 min). */
  maxWaitMs?: number;
  /** Retries of one request after a rate limit or a 5xx (default 3). */
  maxRetries?: number;
}

export const DEFAULT_LIMITS: Required<GitHubLimits> = {
  concurrency: 4,
  maxRequests: 500,
  maxWaitMs: 5 * 60_000,
  maxRetries: 3,
};

/** Where GitHub's REST API is: `GITHUB_API_URL` on a runner (GitHub Enterprise Server too), else github.com. */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
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

  private async attempt(route: string, params: Record<string, unknown>): Promise<GitHubResponse> {
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
      try {
        const res = await this.send(route, { ...params, headers });
        this.notePrimary(res.headers);
        if (cacheable && typeof res.headers.etag === 'string')
          this.etags.set(route, { etag: res.headers.etag, data: res.data });
        return { status: res.status, data: res.data, headers: res.headers };
      } catch (error) {
        const e = error as SendFailure;
        this.notePrimary(e.response?.headers);
        if (e.status === 304 && cached) return { status: 304, data: cached.data, headers: {} };
        const delay = this.delayFor(e, retry);
        if (delay === undefined) throw toGitHubError(e);
        this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + delay);
      }
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
  const message = `GitHub answered ${status ?? 'no response'}: ${(e.message ?? 'request failed').split(' - ')[0]}`;
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
  return new GitHubClient(send, opts.clock, opts.limits, opts.logger);
}
