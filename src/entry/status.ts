/** The CLI's stderr while it waits: a live status line on a terminal, else the log with a line per change. */
import { safeLog } from '../report/escape.js';
import type { Logger } from '../shared/ports.js';
import { progressWords, type Progress } from '../teardown/progress.js';

/** Where the CLI writes its progress: a stream like process.stderr. */
export interface StatusStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/** The log and the progress listener of one CLI run, and `done` to clear the status line at the end. */
export interface Status {
  logger: Logger;
  onProgress: (p: Progress) => void;
  done: () => void;
}

const debugOn = (env: NodeJS.ProcessEnv): boolean => Boolean(env.NAMESPACE_TEARDOWN_DEBUG);

/**
 * On a terminal, one line redrawn in place (every second, for the elapsed time) and only warnings above it: the
 * result printed at the end says the rest. Elsewhere (a pipe, a CI log) every log line, and a progress line
 * whenever the counts change.
 */
export function createStatus(stream: StatusStream, env: NodeJS.ProcessEnv, now = Date.now): Status {
  return stream.isTTY ? liveStatus(stream, env, now) : lineStatus(stream, env);
}

function lineStatus(stream: StatusStream, env: NodeJS.ProcessEnv): Status {
  let last = '';
  const line = (m: string): void => void stream.write(`${safeLog(m)}\n`);
  return {
    logger: plainLogger(line, env),
    onProgress: (p) => {
      // The elapsed time changes always; a line is due when the counts do.
      const words = progressWords({ ...p, elapsedMs: 0 });
      if (words === last || p.total === 0) return;
      last = words;
      line(`progress: ${progressWords(p)}`);
    },
    done: () => undefined,
  };
}

function liveStatus(stream: StatusStream, env: NodeJS.ProcessEnv, now: () => number): Status {
  let last: { p: Progress; at: number } | undefined;
  let shown = false;
  const clear = (): void => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  const draw = (): void => {
    if (!last || last.p.total === 0) return;
    const p = { ...last.p, elapsedMs: last.p.elapsedMs + (now() - last.at) };
    const width = Math.max(20, (stream.columns ?? 80) - 1);
    clear();
    stream.write(safeLog(progressWords(p)).slice(0, width));
    shown = true;
  };
  const timer = setInterval(draw, 1000);
  timer.unref();
  const above = (m: string): void => {
    clear();
    stream.write(`${safeLog(m)}\n`);
    draw();
  };
  const logger = plainLogger(above, env);
  return {
    logger: {
      ...logger,
      info: (m) => (debugOn(env) ? above(m) : undefined),
      group: (title, fn) => (debugOn(env) ? logger.group(title, fn) : fn()),
    },
    onProgress: (p) => {
      last = { p, at: now() };
      draw();
    },
    done: () => {
      clearInterval(timer);
      clear();
    },
  };
}

function plainLogger(line: (m: string) => void, env: NodeJS.ProcessEnv): Logger {
  return {
    info: line,
    warning: (m) => line(`warning: ${m}`),
    debug: (m) => (debugOn(env) ? line(`debug: ${m}`) : undefined),
    group: async (title, fn) => {
      line(`== ${title}`);
      return fn();
    },
  };
}
