/** The deadline and cancellation as GitHub calls see them: time left, one signal per call, waits that stop short. */
import { formatDuration } from '../shared/duration.js';
import type { Clock } from '../shared/ports.js';
import { GitHubError } from './port.js';

/** What bounds every call of one client: a deadline (epoch ms by its clock) and the run's cancellation. */
export interface GitHubBounds {
  deadline?: number;
  signal?: AbortSignal;
}

/** One call's limit: its signal, and what ends it first. */
export interface CallLimit {
  signal: AbortSignal;
  /** The call's own limit (ms) when that comes before the deadline; undefined when the deadline comes first. */
  ownMs: number | undefined;
  dispose(): void;
}

/** A call limited by the deadline (and the run's cancellation), and by `callMs` of its own. */
export class CallBounds {
  constructor(
    private readonly bounds: GitHubBounds,
    private readonly clock: Clock,
    private readonly callMs: number,
  ) {}

  /** Milliseconds left before the deadline (Infinity without one). */
  left(): number {
    return this.bounds.deadline === undefined ? Infinity : this.bounds.deadline - this.clock.now();
  }

  /** Throw when no call may start: cancelled, or the deadline has passed. */
  check(what: string): void {
    if (this.bounds.signal?.aborted)
      throw new GitHubError(`${what}: not sent: the run was cancelled`, 'deadline');
    if (this.left() <= 0) throw new GitHubError(`${what}: not sent: the deadline has passed`, 'deadline');
  }

  /** Whether a wait of `ms` ends before the deadline; else the words for stopping instead. */
  tooLong(ms: number, why: string): string | undefined {
    const left = this.left();
    if (ms < left) return undefined;
    return `${why}, asked to wait ${Math.ceil(ms / 1000)} s with ${Math.max(0, Math.floor(left / 1000))} s left before the deadline`;
  }

  /** Sleep `ms` (known to end before the deadline); the run's cancellation ends it early, and then throws. */
  async sleep(what: string, ms: number): Promise<void> {
    await this.clock.sleep(ms, this.bounds.signal);
    this.check(what);
  }

  /** A signal that aborts at the call's own limit, at the deadline, or when the run is cancelled. */
  call(): CallLimit {
    const left = this.left();
    const ms = Math.max(1, Math.min(this.callMs, left));
    const limit = new AbortController();
    const timer = setTimeout(
      () => limit.abort(new DOMException(`no answer within ${formatDuration(ms)}`, 'TimeoutError')),
      ms,
    );
    const cancel = this.bounds.signal;
    const onCancel = (): void => limit.abort(cancel?.reason);
    cancel?.addEventListener('abort', onCancel, { once: true });
    return {
      signal: limit.signal,
      ownMs: this.callMs < left ? this.callMs : undefined,
      dispose: () => {
        clearTimeout(timer);
        cancel?.removeEventListener('abort', onCancel);
      },
    };
  }

  /** The failure of a call whose signal aborted: cancelled, past the deadline, or over its own limit (retried). */
  stopped(what: string, limit: CallLimit): GitHubError | { timedOut: string } {
    if (this.bounds.signal?.aborted) return new GitHubError(`${what}: the run was cancelled`, 'deadline');
    if (limit.ownMs === undefined || this.left() <= 0)
      return new GitHubError(`${what}: no answer from GitHub before the deadline`, 'deadline');
    return { timedOut: `${what}: no answer from GitHub within ${formatDuration(limit.ownMs)}` };
  }
}
