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
import { newPublishedFlag, publishedExitCode } from './published-flag.js';
import { ENGINE_HEAP_MB, whyStopped } from './worker-limits.js';

export { ENGINE_HEAP_MB, whyStopped };

/** The young generation: small, so the bursts of a big run are collected young instead of growing the heap. */
const ENGINE_YOUNG_MB = 12;
/** After a cancel, how long the run has to publish before it is stopped and the state is published from here. */
const CANCEL_BACKSTOP_MS = CANCEL_BUDGET_MS + 3_000;

/** After the report is published, how long what follows (the pull request comment) may take before it is stopped. */
export const AFTER_PUBLISH_MS = 60_000;
/**
 * How long a worker asked to stop may take before this thread goes on without it: one collecting garbage at its heap
 * bound heeds it only when it next runs code, minutes later; a stopped worker publishes nothing, so the failure is
 * published from here meanwhile (the process still ends only with the worker).
 */
const STOP_GRACE_MS = 2_000;

/**
 * What the worker tells the main thread: `published` as soon as the report, summary and outputs are written (with
 * the exit code they set), `done` when the run ended as it should.
 */
export type EngineMessage = { type: 'published'; exitCode: number } | { type: 'done' };
/** What the main thread tells the worker. */
export type SupervisorMessage = { type: 'cancel'; signal: string };

export interface SuperviseOptions {
  /** The script the worker runs (the bundle itself). */
  entry: string;
  heapMb?: number;
  youngMb?: number;
  /** Publish a failed run's report (loaded only when needed). */
  publishFailure?: (error: string, cancelled: boolean, started: number) => Promise<void>;
  /** See AFTER_PUBLISH_MS. */
  afterPublishMs?: number;
}

/** How the worker ended, and what it said before. */
interface Ended {
  code: number;
  error?: unknown;
  /** The exit code the published result set, once the worker said it has published. */
  published?: number;
  done: boolean;
  cancelled: boolean;
  /** Stopped by this thread: what followed publishing took longer than AFTER_PUBLISH_MS. */
  overdue: boolean;
}

/**
 * Run the action in a worker; the exit code for the process. Once the worker has published, nothing is published
 * here: whatever happens after (a crash, the heap bound, a step that does not end) is a warning in the step log, and
 * the exit code is the one the published result set.
 */
export async function supervise(opts: SuperviseOptions): Promise<number> {
  const started = systemClock.now();
  const heapMb = opts.heapMb ?? ENGINE_HEAP_MB;
  const ended = await runWorker(opts, heapMb);
  if (ended.published !== undefined) {
    const after = afterPublishing(ended, heapMb);
    if (after) core.warning(safeLog(`${after}; the result stands as published.`));
    return ended.published;
  }
  if (ended.done) return ended.code;
  const why =
    ended.error !== undefined
      ? whyStopped(ended.error, heapMb)
      : ended.cancelled
        ? 'the run did not stop in time after cancellation'
        : `the run stopped unexpectedly (exit code ${ended.code})`;
  try {
    await (opts.publishFailure ?? publishFailure)(why, ended.cancelled, started);
  } catch (error) {
    core.setFailed(safeLog(`${why}; no report could be written: ${messageOf(error)}`));
  }
  return 1;
}

/** Start the worker, pass on a cancel, stop it when it overstays, and resolve when it has ended (or will not). */
function runWorker(opts: SuperviseOptions, heapMb: number): Promise<Ended> {
  const published = newPublishedFlag();
  const worker = new Worker(opts.entry, {
    workerData: published.workerData,
    // The inputs and the runner's files as this thread sees them, even where `process.env` is not the process's own.
    env: process.env,
    resourceLimits: {
      maxOldGenerationSizeMb: heapMb,
      maxYoungGenerationSizeMb: opts.youngMb ?? ENGINE_YOUNG_MB,
    },
  });
  const state = { done: false, cancelled: false, overdue: false, published: undefined as number | undefined };
  const timers: NodeJS.Timeout[] = [];
  return new Promise<Ended>((resolve) => {
    const end = (how: { code: number; error?: unknown }): void => {
      timers.forEach(clearTimeout);
      release();
      // The flag, not the message, says whether the worker published: its message may still be on its way.
      resolve({ ...how, ...state, published: state.published ?? publishedExitCode(published.flag) });
    };
    const stopAfter = (ms: number, then: () => void): void => {
      const stop = (): void => {
        then();
        void worker.terminate();
        timers.push(setTimeout(() => end({ code: 1 }), STOP_GRACE_MS).unref());
      };
      timers.push(setTimeout(stop, ms).unref());
    };
    worker.on('message', (m: EngineMessage) => {
      if (m?.type === 'done') state.done = true;
      if (m?.type !== 'published' || state.published !== undefined) return;
      state.published = m.exitCode;
      stopAfter(opts.afterPublishMs ?? AFTER_PUBLISH_MS, () => (state.overdue = true));
    });
    const release = cancelOnSignals(new AbortController(), (signal) => {
      state.cancelled = true;
      worker.postMessage({ type: 'cancel', signal } satisfies SupervisorMessage);
      // A run that does not stop in time (a stuck thread) is stopped; the state is then published from here.
      stopAfter(CANCEL_BACKSTOP_MS, () => undefined);
    });
    worker.on('error', (error) => end({ code: 1, error }));
    worker.on('exit', (code) => end({ code }));
  });
}

/** What went wrong after the report was published, in words for the step log; undefined when nothing did. */
function afterPublishing(ended: Ended, heapMb: number): string | undefined {
  if (ended.overdue)
    return 'what follows the report (the pull request comment) did not end in time and was stopped';
  if (ended.error !== undefined) return `after the report was published, ${whyStopped(ended.error, heapMb)}`;
  if (ended.done) return undefined;
  if (ended.cancelled)
    return 'after the report was published, the run did not stop in time after cancellation';
  return `after the report was published, the run stopped unexpectedly (exit code ${ended.code})`;
}

/** The report of a run that did not finish, published like any other. */
async function publishFailure(error: string, cancelled: boolean, started: number): Promise<void> {
  const [{ readSettings }, { readRunContext }, { failedReport }, { publishRun }, { namedContext }] =
    await Promise.all([
      import('../settings/settings.js'),
      import('./context.js'),
      import('../teardown/run-teardown.js'),
      import('../report/publish.js'),
      import('../fleet/cluster-identity.js'),
    ]);
  const settings = readSettings((name) => core.getInput(name));
  const context = namedContext(readRunContext(process.env), settings.clusterName);
  const report = failedReport(settings, context, started, error, cancelled, systemClock);
  await publishRun(report, started);
}
