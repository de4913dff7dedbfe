/**
 * The action's main thread: the run itself goes in a worker thread with a bounded heap, and this thread only passes
 * on a cancel and makes sure a result is published. A bound below 1 GiB makes V8 grow the heap by less than 2× its
 * live size instead of 4× (5,000 targets: about 230 MiB peak RSS instead of 450); and a run that still reaches the
 * bound ends here with a summary, outputs and a report saying so, instead of a process killed without a word.
 */
import * as core from '@actions/core';
import { Worker } from 'node:worker_threads';
import { safeLog } from '../report/escape.js';
import { messageOf } from '../shared/errors.js';
import { systemClock } from '../shared/ports.js';
import { cancelOnSignals } from './signals.js';
import { CANCEL_BUDGET_MS } from './budgets.js';

/** The run's heap: about five times what 5,000 targets need at their peak. */
export const ENGINE_HEAP_MB = 512;
/** The young generation: small, so the bursts of a big run are collected young instead of growing the heap. */
const ENGINE_YOUNG_MB = 12;
/** After a cancel, how long the run has to publish before it is stopped and the state is published from here. */
const CANCEL_BACKSTOP_MS = CANCEL_BUDGET_MS + 3_000;

/** What the worker tells the main thread. */
export type EngineMessage = { type: 'done' };
/** What the main thread tells the worker. */
export type SupervisorMessage = { type: 'cancel'; signal: string };

export interface SuperviseOptions {
  /** The script the worker runs (the bundle itself). */
  entry: string;
  heapMb?: number;
  youngMb?: number;
  /** Publish a failed run's report (loaded only when needed). */
  publishFailure?: (error: string, cancelled: boolean, started: number) => Promise<void>;
}

/** Why the worker ended without finishing, in words for the summary. */
export function whyStopped(error: unknown, heapMb: number): string {
  if ((error as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the run ran out of memory: its heap is bounded to ${heapMb} MiB; nothing after that point is known`;
  }
  return `the run stopped unexpectedly: ${messageOf(error)}`;
}

/** Run the action in a worker; the exit code for the process. */
export async function supervise(opts: SuperviseOptions): Promise<number> {
  const started = systemClock.now();
  const heapMb = opts.heapMb ?? ENGINE_HEAP_MB;
  const worker = new Worker(opts.entry, {
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: opts.youngMb ?? ENGINE_YOUNG_MB,
    },
  });
  let done = false;
  let cancelled = false;
  worker.on('message', (m: EngineMessage) => {
    if (m?.type === 'done') done = true;
  });
  const cancel = new AbortController();
  let backstop: NodeJS.Timeout | undefined;
  const release = cancelOnSignals(cancel, (signal) => {
    cancelled = true;
    worker.postMessage({ type: 'cancel', signal } satisfies SupervisorMessage);
    // A run that does not stop in time (a stuck thread) is stopped; the state is then published from here.
    backstop = setTimeout(() => void worker.terminate(), CANCEL_BACKSTOP_MS);
    backstop.unref();
  });
  const ended = await new Promise<{ code: number; error?: unknown }>((resolve) => {
    worker.on('error', (error) => resolve({ code: 1, error }));
    worker.on('exit', (code) => resolve({ code }));
  });
  clearTimeout(backstop);
  release();
  if (done) return ended.code;
  const why =
    ended.error !== undefined
      ? whyStopped(ended.error, heapMb)
      : cancelled
        ? 'the run did not stop in time after cancellation'
        : `the run stopped unexpectedly (exit code ${ended.code})`;
  try {
    await (opts.publishFailure ?? publishFailure)(why, cancelled, started);
  } catch (error) {
    core.setFailed(safeLog(`${why}; no report could be written: ${messageOf(error)}`));
  }
  return 1;
}

/** The report of a run that did not finish, published like any other. */
async function publishFailure(error: string, cancelled: boolean, started: number): Promise<void> {
  const [{ readSettings }, { readRunContext }, { failedReport }, { publishRun }] = await Promise.all([
    import('../settings/settings.js'),
    import('./context.js'),
    import('../teardown/run.js'),
    import('../report/publish.js'),
  ]);
  const settings = readSettings((name) => core.getInput(name));
  const report = failedReport(settings, readRunContext(process.env), started, error, cancelled, systemClock);
  await publishRun(report, started);
}
