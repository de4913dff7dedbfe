/** The run's deadline and cancellation as requests see them: time left, cut-short waits, their KubeErrors. */
import { KubeError } from './port.js';
import type { Req } from './request.js';

/** After cancellation, how long a write already sent may take to finish. */
export const WRITE_GRACE_MS = 2_000;
/** Timers fire a little early or late: this close to the deadline counts as past it. */
export const DEADLINE_SLACK_MS = 50;

/** What the limits are made of (the matching fields of `TransportSettings`). */
export interface DeadlineSettings {
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  /** Epoch ms of the run's one deadline: no request is sent, waited for or retried past it. */
  deadline?: number;
  /** Cancellation: no new request; reads in flight stop at once, a write in flight gets WRITE_GRACE_MS. */
  signal?: AbortSignal;
  /** The time; injectable for tests. */
  now: () => number;
}

/** The deadline and cancellation of one run, for the requests of one transport. */
export class Deadline {
  /** Aborted WRITE_GRACE_MS after cancellation, for writes in flight. */
  private readonly writeSignal: AbortSignal | undefined;
  private readonly waitLimits = new Map<'read' | 'write', AbortSignal>();

  constructor(private readonly s: DeadlineSettings) {
    this.writeSignal = s.signal && graced(s.signal, WRITE_GRACE_MS);
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  left(): number {
    return this.s.deadline === undefined ? Infinity : this.s.deadline - this.s.now();
  }

  /** What cancels `req` once sent: the run's signal for a read, the later one for a write. */
  cancelOf(req: Req): AbortSignal | undefined {
    return req.method === 'GET' ? this.s.signal : this.writeSignal;
  }

  /** Throw when no new request may start: cancelled, or the deadline has passed. */
  check(req: Req): void {
    if (this.s.signal?.aborted) throw stopped(req, 'the run was cancelled', 'Cancelled');
    if (this.left() <= 0) throw stopped(req, "the run's deadline has passed", 'DeadlineExceeded');
  }

  /** Wait `ms` before trying again, unless that would pass the deadline (then stop) or the run is cancelled. */
  async pause(req: Req, ms: number, why: string): Promise<void> {
    if (ms >= this.left()) {
      const left = Math.max(0, Math.round(this.left() / 1000));
      throw stopped(
        req,
        `${why}, asked to wait ${Math.ceil(ms / 1000)} s with ${left} s left before the deadline`,
        'DeadlineExceeded',
      );
    }
    const { signal } = this.s;
    if (!signal) {
      await this.s.sleep(ms);
    } else {
      // Cancellation ends the wait at once; the listener goes with the wait.
      let onAbort = (): void => undefined;
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([this.s.sleep(ms), aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    this.check(req);
  }

  /**
   * What ends a wait for a slot: the deadline or `cancel`. One signal per kind of request for the whole run, made
   * at the first wait: thousands of queued requests then hold no timer or signal of their own.
   */
  waitLimit(cancel: AbortSignal | undefined): AbortSignal | undefined {
    const key = cancel === this.writeSignal ? 'write' : 'read';
    const made = this.waitLimits.get(key);
    if (made) return made;
    const left = this.left();
    const limits = [
      ...(Number.isFinite(left) ? [AbortSignal.timeout(Math.max(1, left))] : []),
      ...(cancel ? [cancel] : []),
    ];
    const limit = limits.length > 1 ? AbortSignal.any(limits) : limits[0];
    if (limit) this.waitLimits.set(key, limit);
    return limit;
  }

  /** `work`, or a KubeError when the deadline or cancellation comes first. */
  async bounded<T>(req: Req, work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const { signal } = this.s;
    const limit = new Promise<never>((_, reject) => {
      const fail = (): void =>
        reject(
          signal?.aborted
            ? stopped(req, 'the run was cancelled', 'Cancelled')
            : stopped(req, `${what} took until the run's deadline`, 'DeadlineExceeded'),
        );
      timer = setTimeout(fail, Math.max(0, Math.min(this.s.timeoutMs, this.left())));
      signal?.addEventListener('abort', fail, { once: true });
    });
    try {
      return await Promise.race([work, limit]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A KubeError for a request that was not sent or not waited for: cancelled, or past the deadline. */
export function stopped(req: Req, why: string, reason: 'Cancelled' | 'DeadlineExceeded'): KubeError {
  return new KubeError(`${req.verb} ${req.resource ?? req.path}: ${why}`, 0, reason, req.verb, req.resource);
}

/** `work`, or the signal's reason as soon as it aborts. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** A signal that aborts `ms` after `signal` does. */
function graced(signal: AbortSignal, ms: number): AbortSignal {
  const later = new AbortController();
  signal.addEventListener('abort', () => setTimeout(() => later.abort(signal.reason), ms).unref(), {
    once: true,
  });
  return later.signal;
}
