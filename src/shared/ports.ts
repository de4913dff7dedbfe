/** Ports the domain code gets instead of importing @actions/core or timers directly. */

/** Where the engine writes its log; the action maps it to @actions/core, tests record it. */
export interface Logger {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
  /** Run `fn` inside a collapsible log group. */
  group<T>(title: string, fn: () => Promise<T>): Promise<T>;
}

/** Time source, injected so waiting logic can be tested with a fake clock. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      // setTimeout fires at once for more than 2^31-1 ms (~24.8 days): hold the longest a timer can instead.
      const timer = setTimeout(done, Math.min(ms, 2 ** 31 - 1));
      function done(): void {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    }),
};

/** A logger that records lines, for tests and for the CLI's quiet mode. */
export class RecordingLogger implements Logger {
  readonly lines: string[] = [];
  info(message: string): void {
    this.lines.push(message);
  }
  warning(message: string): void {
    this.lines.push(`warning: ${message}`);
  }
  debug(message: string): void {
    this.lines.push(`debug: ${message}`);
  }
  async group<T>(title: string, fn: () => Promise<T>): Promise<T> {
    this.lines.push(`## ${title}`);
    return fn();
  }
}
