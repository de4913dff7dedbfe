/** The merge action's entry point: the main thread supervises, the worker thread merges the reports. */
import { isMainThread } from 'node:worker_threads';

// The merge action's bundle (merge/action.yml): files and GitHub only, no cluster. As for the teardown, the work goes
// in a worker thread whose young generation is bounded: merging 10,000 targets then peaks near 180 MiB instead of 240.
if (isMainThread) {
  const { superviseMerge } = await import('./merge-supervise.js');
  process.exitCode = await superviseMerge(process.argv[1]!);
} else {
  const { runMerge } = await import('./merge-action.js');
  await runMerge();
}
