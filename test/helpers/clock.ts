import { systemClock, type Clock } from '../../src/shared/ports.js';

/** A manual clock: sleeps resolve only when `advance` moves time past them. */
export class FakeClock implements Clock {
  private current = Date.parse('2026-11-22T10:00:00Z');
  private sleepers: { until: number; resolve: () => void }[] = [];

  now(): number {
    return this.current;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const entry = { until: this.current + ms, resolve };
      this.sleepers.push(entry);
      signal?.addEventListener('abort', () => {
        this.sleepers = this.sleepers.filter((s) => s !== entry);
        resolve();
      });
    });
  }

  /** Move time forward in steps, letting promise chains run between them. */
  async advance(ms: number, step = 100): Promise<void> {
    const end = this.current + ms;
    while (this.current < end) {
      this.current = Math.min(end, this.current + step);
      const due = this.sleepers.filter((s) => s.until <= this.current);
      this.sleepers = this.sleepers.filter((s) => s.until > this.current);
      for (const s of due) s.resolve();
      for (let i = 0; i < 5; i++) await Promise.resolve();
      await new Promise((r) => setImmediate(r));
    }
  }
}

/**
 * The time a run starts at, standing still until the test moves it: `jump(ms)` moves it `ms` ahead, ends every sleep
 * that ends by then, and from then on it runs as real time does. A run's timeout then comes when an event the test
 * awaits has happened (the fake cluster has settled), never earlier because a busy machine was slow to get there;
 * what the run does after it (force, verify, diagnose) waits as it would.
 */
export class JumpClock implements Clock {
  private current = Date.now();
  /** Real time when the clock started running (after the jump), undefined while it stands still. */
  private runningSince: number | undefined;
  private readonly sleepers = new Set<{ until: number; wake: () => void }>();

  now(): number {
    return this.current + (this.runningSince === undefined ? 0 : Date.now() - this.runningSince);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.runningSince !== undefined) return systemClock.sleep(ms, signal);
    return new Promise((resolve) => {
      if (signal?.aborted || ms <= 0) return resolve();
      const entry = { until: this.current + ms, wake: (): void => undefined };
      entry.wake = () => {
        this.sleepers.delete(entry);
        signal?.removeEventListener('abort', entry.wake);
        resolve();
      };
      this.sleepers.add(entry);
      signal?.addEventListener('abort', entry.wake, { once: true });
    });
  }

  /**
   * Move time `ms` ahead; every sleep that ends by then ends now. The others go on in real time, or with `hold` wait,
   * the clock standing still again, for a next jump.
   */
  jump(ms: number, { hold = false } = {}): void {
    this.current += ms;
    if (!hold) this.runningSince = Date.now();
    for (const s of [...this.sleepers]) {
      if (s.until <= this.current) s.wake();
      else if (!hold) {
        this.sleepers.delete(s);
        void systemClock.sleep(s.until - this.current).then(s.wake);
      }
    }
  }
}
