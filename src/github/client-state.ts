/** One GitHub client's limits, and what every view of it shares: the count, the slots, the pause, the ETags. */
import { Slots } from '../shared/slots.js';

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

/** The state of one client, shared by every view `until` makes of it. */
export class ClientState {
  sent = 0;
  pausedUntil = 0;
  pauseWhy = "GitHub's rate limit";
  readonly slots: Slots;
  // GitHub does not count a 304 against the primary limit: revalidate repeated GETs with their ETag.
  readonly etags = new Map<string, { etag: string; data: unknown }>();
  constructor(concurrency: number) {
    this.slots = new Slots(concurrency);
  }
  /** Pause every call until `until`, for `why`, unless a pause already lasts longer. */
  pause(until: number, why: string): void {
    if (until <= this.pausedUntil) return;
    this.pausedUntil = until;
    this.pauseWhy = why;
  }
}
