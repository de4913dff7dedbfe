/**
 * The one GitHub client: any `send` behind rate limits, a concurrency bound, a cap and the deadline. Not
 * @octokit/plugin-throttling + plugin-retry: their waits run on their own timers (no injected clock, no deadline, no
 * cancel), they space every POST, GraphQL queries too, a second apart, and they miss GraphQL limits on GHES.
 */
import type { Clock, Logger } from '../shared/ports.js';
import { graphqlRateLimited, pointsResetAt } from './graphql-limit.js';
import { AnswerTooLarge } from './bounded-fetch.js';
import { CallBounds, type CallLimit, type GitHubBounds } from './call-bounds.js';
import { ClientState, DEFAULT_LIMITS, type GitHubLimits } from './client-state.js';
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
    private readonly shared = new ClientState({ ...DEFAULT_LIMITS, ...parts.limits }.concurrency),
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
    return this.slotted(async () => (await this.attempt(route, params, options)) as GitHubResponse<T>);
  }

  async graphql<T>(
    query: string,
    variables: Record<string, unknown> = {},
    options: CallOptions = {},
  ): Promise<GraphqlAnswer<T>> {
    return this.slotted(async () => {
      const inspect: Inspect = (res) => graphqlRateLimited(res.data, res.headers);
      const route = `POST ${this.graphqlEndpoint}`;
      const res = await this.attempt(route, { query, variables }, options, inspect);
      const reset = pointsResetAt(res.data);
      if (reset !== undefined) this.shared.pause(reset + 1000, "GitHub GraphQL's point budget");
      const body = (res.data ?? {}) as { data?: T | null; errors?: GraphqlError[] };
      return { data: body.data ?? null, errors: Array.isArray(body.errors) ? body.errors : [] };
    });
  }

  private async slotted<T>(work: () => Promise<T>): Promise<T> {
    await this.shared.slots.acquire();
    try {
      return await work();
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
      const cached = route.startsWith('GET ') ? this.shared.etags.get(route) : undefined;
      const sent = await this.once(route, what, { params, options, inspect, etag: cached?.etag });
      if ('answer' in sent) return sent.answer;
      const e = sent.failed;
      this.notePrimary(e.response?.headers);
      if (e.status === 304 && cached) return { status: 304, data: cached.data, headers: {} };
      const delay = this.delayFor(e, retry);
      if (delay === undefined) throw toGitHubError(e);
      const why = e.status === 0 || (e.status ?? 0) >= 500 ? retryWhy(e) : rateLimitWhy(e);
      this.shared.pause(this.parts.clock.now() + delay, why);
    }
  }

  /** Send once, within the call's limit: the answer, or the failure to retry or end in. */
  private async once(
    route: string,
    what: string,
    c: { params: Record<string, unknown>; options: CallOptions; inspect?: Inspect; etag?: string },
  ): Promise<{ answer: GitHubResponse } | { failed: SendFailure }> {
    const headers = c.etag ? { 'if-none-match': c.etag } : {};
    const call = this.bounds.call();
    try {
      const maxBytes = c.options.maxBytes ?? MAX_ANSWER_BYTES;
      const res = await this.send(route, { ...c.params, headers }, { signal: call.signal, maxBytes });
      const failed = c.inspect?.(res);
      if (failed) return { failed };
      this.notePrimary(res.headers);
      if (route.startsWith('GET ') && typeof res.headers.etag === 'string')
        this.shared.etags.set(route, { etag: res.headers.etag, data: res.data });
      return { answer: { status: res.status, data: res.data, headers: res.headers } };
    } catch (error) {
      return { failed: this.failureOf(error, what, call) };
    } finally {
      call.dispose();
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
