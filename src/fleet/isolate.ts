/**
 * Several clusters' runs in one process, each bounded and isolated: its own cancel signal, its own time bound, its
 * own catch. A cluster that fails becomes that cluster's failed report; one that hangs past its bound is cancelled and
 * left behind with a report saying so, and never holds back the others.
 */
import type { RunReport } from '../model/run.js';
import { formatDuration } from '../shared/duration.js';
import type { Clock } from '../shared/ports.js';

/** One cluster's run: started with a signal of its own, which aborts at the bound or on the caller's cancel. */
export interface ClusterJob {
  name: string;
  run: (signal: AbortSignal) => Promise<RunReport>;
}

export interface IsolateOptions {
  /** The longest a cluster's run may take; past it the run is cancelled and reported as not finished. */
  boundMs: number;
  clock: Clock;
  /** The caller's cancel (Ctrl-C): passed on to every run. */
  signal?: AbortSignal;
  /** The report of a cluster whose run threw, or did not finish: `why` in words. */
  failed: (name: string, why: string | unknown, cancelled: boolean) => RunReport;
}

async function bounded(job: ClusterJob, o: IsolateOptions): Promise<RunReport> {
  const own = new AbortController();
  const cancel = (): void => own.abort();
  o.signal?.addEventListener('abort', cancel, { once: true });
  if (o.signal?.aborted) own.abort();
  const timer = new AbortController();
  const late = o.clock.sleep(o.boundMs, timer.signal).then(() => 'late' as const);
  try {
    const run = job.run(own.signal).catch((error: unknown) => o.failed(job.name, error, own.signal.aborted));
    const first = await Promise.race([run, late]);
    if (first !== 'late') return first;
    own.abort();
    return o.failed(
      job.name,
      `the run did not finish within ${formatDuration(o.boundMs)}: cancelled and left behind; the other clusters went on`,
      false,
    );
  } finally {
    timer.abort();
    o.signal?.removeEventListener('abort', cancel);
  }
}

/** Run every job at once, each bounded and isolated; the reports in the jobs' order. */
export async function runIsolated(
  jobs: readonly ClusterJob[],
  options: IsolateOptions,
): Promise<{ name: string; report: RunReport }[]> {
  return Promise.all(jobs.map(async (job) => ({ name: job.name, report: await bounded(job, options) })));
}
