/**
 * `wait: settled` for one Terminating namespace: once it has been quiet for SETTLE_MS, look (diagnose, and ask
 * settle.ts); settled ends its wait, anything else looks again later. Reads the cluster only, through the inspector.
 */
import type { NamespaceState } from '../model/cluster.js';
import { formatDuration } from '../shared/duration.js';
import type { Clock } from '../shared/ports.js';
import type { Inspector } from './inspect.js';
import { SETTLE_MS } from './settle.js';

/** The longest pause between two looks at a quiet namespace that is not settled. */
export const MAX_LOOK_MS = 60_000;

/** What the watch found when it ended the wait. */
export interface Settled {
  at: number;
  quietMs: number;
  verdicts: string[];
  reason: string;
}

/**
 * Feed it every state the wait reads (`observe`) and run it beside the wait; it resolves with the settled end, or
 * undefined when the wait ended first. `holding` says why the last look did not settle.
 */
export class SettleWatch {
  private rv: string | undefined;
  private quietSince: number;
  /** The pause after a look that did not settle: doubles up to MAX_LOOK_MS, back to SETTLE_MS on a change. */
  private pauseMs = SETTLE_MS;
  /** Why the last look did not settle it; undefined before the first look. */
  private holding: string | undefined;

  constructor(
    private readonly inspector: Inspector,
    private readonly clock: Clock,
  ) {
    this.quietSince = clock.now();
  }

  /**
   * Why the namespace is not settled, for a wait that ended without it: the last look's reason, or, with no look, how
   * long it had been unchanged when the wait ended (a write restarted the quiet period, or the timeout came first).
   */
  get notSettled(): string {
    if (this.holding !== undefined) return this.holding;
    const quiet = formatDuration(Math.max(0, this.clock.now() - this.quietSince));
    return `it had been unchanged for ${quiet} when the wait ended, short of the ${formatDuration(SETTLE_MS)} a settled answer needs (a write of the namespace or its controller restarts that)`;
  }

  /** A state the wait read: a new resourceVersion is a write (the controller's pass, or anyone's), quiet restarts. */
  observe(ns: NamespaceState): void {
    if (ns.resourceVersion === this.rv) return;
    this.rv = ns.resourceVersion;
    this.quietSince = this.clock.now();
    this.pauseMs = SETTLE_MS;
  }

  /** Look whenever the namespace has been quiet long enough, until settled or `signal` aborts. */
  async run(current: () => NamespaceState | undefined, signal: AbortSignal): Promise<Settled | undefined> {
    let next = this.quietSince + SETTLE_MS;
    while (await this.inspector.until(Math.max(next, this.quietSince + SETTLE_MS), signal)) {
      const ns = current();
      const now = this.clock.now();
      // Changed meanwhile (the quiet period starts again), or not seen Terminating yet.
      if (now < this.quietSince + SETTLE_MS || ns?.deletionTimestamp === undefined) {
        next = Math.max(now + 1_000, this.quietSince + SETTLE_MS);
        continue;
      }
      const seen = this.rv;
      const quietMs = now - this.quietSince;
      const look = await this.inspector.look(ns, `unchanged for ${formatDuration(quietMs)}`);
      if (!look.settled) this.holding = look.why;
      if (signal.aborted) return undefined;
      // A write during the look: what it read may be out of date already.
      if (this.rv !== seen) continue;
      if (look.settled)
        return { at: this.clock.now(), quietMs, verdicts: look.verdicts, reason: look.reason };
      const after = this.clock.now();
      next = Math.max(after + 1_000, Math.min(after + this.pauseMs, look.lookAt ?? Infinity));
      this.pauseMs = Math.min(this.pauseMs * 2, MAX_LOOK_MS);
    }
    return undefined;
  }
}
