/** The one GitHub client: any `send` behind rate limits, a concurrency bound, a cap and the deadline. */
import type { Clock, Logger } from '../shared/ports.js';
import { Slots } from '../shared/slots.js';
import { graphqlRateLimited, pointsResetAt } from './graphql-limit.js';
import { AnswerTooLarge } from './bounded-fetch.js';
import { CallBounds, type CallLimit, type GitHubBounds } from './call-bounds.js';
import {
  GitHubError,
  MAX_ANSWER_BYTES,
  type CallOptions,
  type GitHubApi,
  type GitHubHeaders,
  type GitHubResponse,
  type GraphqlAnswer,
  type GraphqlError,
} from './port.js';
import { rateLimitWhy, retryWhy, routeName, toGitHubError, type SendFailure } from './failure.js';
import { primaryResetAt, retryDelayMs } from './rate-limit.js';

/** How one call is sent: its signal (deadline, own limit, cancellation) and the largest answer read. */
export interface SendOptions {
  signal: AbortSignal;
  maxBytes: number;
}

/** What one Octokit `request` call returns or throws (a RequestError carries status, response and cause). */
export type Send = (
  route: string,
  params: Record<string, unknown>,
  options: SendOptions,
) => Promise<{ status: number; data: unknown; headers: GitHubHeaders }>;

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
  /** Retries of one request after a rate limit, a 5xx or no answer within `callMs` (default 3). */
  maxRetries?: number;
  /** The longest one call may take, its answer read; the deadline may cut it shorter (default 30 s). */
  callMs?: number;
}

export const DEFAULT_LIMITS: Required<GitHubLimits> = {
  concurrency: 4,
  maxRequests: 2500,
  maxWaitMs: 5 * 60_000,
  maxRetries: 3,
  callMs: 30_000,
};

/** What every view of one client shares: the count, the concurrency bound, the rate-limit pause and the ETags. */
class Shared {
  sent = 0;
  pausedUntil = 0;
  pauseWhy = "GitHub's rate limit";
  readonly slots: Slots;
  // GitHub does not count a 304 against the primary limit: revalidate repeated GETs with their ETag.
  readonly etags = new Map<string, { etag: string; data: unknown }>();
  constructor(concurrency: number) {
    this.slots = new Slots(concurrency);
  }
  pause(until: number, why: string): void {
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.pauseWhy = why;
  }
}

/** The client's parts besides `send`. */
export interface ClientParts {
  clock: Clock;
  limits?: GitHubLimits;
  logger?: Logger;
  graphqlEndpoint?: string;
  bounds?: GitHubBounds;
}

/** A GitHubApi over any `send`; the tests give it a real Octokit talking to nock. */
export class GitHubClient implements GitHubApi {
  private readonly limits: Required<GitHubLimits>;
  private readonly bounds: CallBounds;
  private readonly graphqlEndpoint: string;

  constructor(
    private readonly send: Send,
    private readonly parts: ClientParts,
    private readonly shared = new Shared({ ...DEFAULT_LIMITS, ...parts.limits }.concurrency),
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...parts.limits };
    this.bounds = new CallBounds(parts.bounds ?? {}, parts.clock, this.limits.callMs);
    this.graphqlEndpoint = parts.graphqlEndpoint ?? 'https://api.github.com/graphql';
  }

  get sent(): number {
    return this.shared.sent;
  }

  until(deadline: number): GitHubApi {
    const bounds = { ...this.parts.bounds, deadline };
    return new GitHubClient(this.send, { ...this.parts, bounds }, this.shared);
  }

  async request<T>(
    route: string,
    params: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<GitHubResponse<T>> {
    await this.shared.slots.acquire();
    try {
      return (await this.attempt(route, params, options)) as GitHubResponse<T>;
    } finally {
      this.shared.slots.release();
    }
  }

  async graphql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<GraphqlAnswer<T>> {
    await this.shared.slots.acquire();
    try {
      const inspect: Inspect = (res) => graphqlRateLimited(res.data, res.headers);
      const route = `POST ${this.graphqlEndpoint}`;
      const res = await this.attempt(route, { query, variables }, options, inspect);
      const reset = pointsResetAt(res.data);
      if (reset !== undefined) this.shared.pause(reset + 1000, "GitHub GraphQL's point budget");
      const body = (res.data ?? {}) as { data?: T | null; errors?: GraphqlError[] };
      return { data: body.data ?? null, errors: Array.isArray(body.errors) ? body.errors : [] };
    } finally {
      this.shared.slots.release();
    }
  }

  private async attempt(
    route: string,
    params: Record<string, unknown>,
    options: CallOptions,
    inspect?: Inspect,
  ): Promise<GitHubResponse> {
    const what = routeName(route, this.graphqlEndpoint);
    const cacheable = route.startsWith('GET ');
    for (let retry = 0; ; retry++) {
      await this.waitForReset(what);
      this.bounds.check(what);
      if (this.shared.sent >= this.limits.maxRequests) {
        throw new GitHubError(
          `${what}: not sent: the cap of ${this.limits.maxRequests} GitHub requests per run`,
          'cap',
        );
      }
      this.shared.sent++;
      const cached = cacheable ? this.shared.etags.get(route) : undefined;
      const headers = cached ? { 'if-none-match': cached.etag } : {};
      const call = this.bounds.call();
      let e: SendFailure;
      try {
        const maxBytes = options.maxBytes ?? MAX_ANSWER_BYTES;
        const res = await this.send(route, { ...params, headers }, { signal: call.signal, maxBytes });
        const failed = inspect?.(res);
        if (!failed) {
          this.notePrimary(res.headers);
          if (cacheable && typeof res.headers.etag === 'string')
            this.shared.etags.set(route, { etag: res.headers.etag, data: res.data });
          return { status: res.status, data: res.data, headers: res.headers };
        }
        e = failed;
      } catch (error) {
        e = this.failureOf(error, what, call);
      } finally {
        call.dispose();
      }
      this.notePrimary(e.response?.headers);
      if (e.status === 304 && cached) return { status: 304, data: cached.data, headers: {} };
      const delay = this.delayFor(e, retry);
      if (delay === undefined) throw toGitHubError(e);
      const why = e.status === 0 || (e.status ?? 0) >= 500 ? retryWhy(e) : rateLimitWhy(e);
      this.shared.pause(this.parts.clock.now() + delay, why);
    }
  }

  /** What a thrown call was: a failure to read (retried or not), or a GitHubError that ends the call now. */
  private failureOf(error: unknown, what: string, call: CallLimit): SendFailure {
    if (call.signal.aborted) {
      const stopped = this.bounds.stopped(what, call);
      if (stopped instanceof GitHubError) throw stopped;
      return { status: 0, shown: stopped.timedOut };
    }
    const cause = (error as SendFailure).cause;
    if (cause instanceof AnswerTooLarge || error instanceof AnswerTooLarge)
      throw new GitHubError(
        `${what}: ${(cause as Error | undefined)?.message ?? String(error)}`,
        'too-large',
      );
    return error as SendFailure;
  }

  /** How long to wait before retry number `retry + 1`, or undefined to give up now. */
  private delayFor(e: SendFailure, retry: number): number | undefined {
    if (retry >= this.limits.maxRetries) return undefined;
    // Status 0: no answer within the call's own limit (a thrown error without a status is not retried).
    if (e.status === 0 || (e.status ?? 0) >= 500) return 1000 * 2 ** retry;
    const status = e.status ?? 0;
    const delay = retryDelayMs(status, e.response?.headers, e.message ?? '', this.parts.clock.now());
    return delay !== undefined && delay <= this.limits.maxWaitMs ? delay : undefined;
  }

  private notePrimary(headers: GitHubHeaders | undefined): void {
    const reset = primaryResetAt(headers);
    if (reset !== undefined) this.shared.pause(reset + 1000, "GitHub's rate limit");
  }

  /** Wait for a pause to end, unless it ends past the longest wait or the deadline: then fail the call now. */
  private async waitForReset(what: string): Promise<void> {
    const wait = this.shared.pausedUntil - this.parts.clock.now();
    if (wait <= 0) return;
    const why = this.shared.pauseWhy;
    if (wait > this.limits.maxWaitMs) {
      const late = `${why}: resets in ${Math.ceil(wait / 1000)} s, later than the longest wait`;
      throw new GitHubError(`${what}: not sent: ${late}`, 'rate-limited');
    }
    const past = this.bounds.tooLong(wait, why);
    if (past !== undefined) throw new GitHubError(`${what}: not sent: ${past}`, 'deadline');
    this.parts.logger?.info(`${why}: waiting ${Math.ceil(wait / 1000)} s before ${what}`);
    await this.bounds.sleep(what, wait);
  }
}
