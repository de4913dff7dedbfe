import type { Clock } from '../../src/shared/ports.js';

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
