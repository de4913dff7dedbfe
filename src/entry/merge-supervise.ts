/** The merge action's main thread: the merge runs in a worker with a bounded heap; a worker that dies fails the step. */
import * as core from '@actions/core';
import { Worker } from 'node:worker_threads';
import { ENGINE_HEAP_MB, whyStopped } from './worker-limits.js';

/** The young generation, small like the teardown's: the short-lived pieces of JSON are collected young. */
const MERGE_YOUNG_MB = 8;

/** Run the merge in a worker; the exit code for the process. */
export async function superviseMerge(entry: string): Promise<number> {
  const worker = new Worker(entry, {
    // The inputs and the runner's files as this thread sees them, as for the teardown's worker.
    env: process.env,
    resourceLimits: { maxOldGenerationSizeMb: ENGINE_HEAP_MB, maxYoungGenerationSizeMb: MERGE_YOUNG_MB },
  });
  const ended = await new Promise<{ code: number; error?: unknown }>((resolve) => {
    worker.on('error', (error) => resolve({ code: 1, error }));
    worker.on('exit', (code) => resolve({ code }));
  });
  if (ended.error === undefined) return ended.code;
  core.setFailed(`The merge did not finish: ${whyStopped(ended.error, ENGINE_HEAP_MB)}`);
  return 1;
}
