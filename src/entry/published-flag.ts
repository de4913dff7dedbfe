/**
 * The worker's word that it has published, kept where no message ordering can lose it: a shared flag the worker sets
 * synchronously, which the main thread reads once the worker has ended. A message posted just before an uncaught
 * error can reach the main thread after the worker's `error` event, so a message alone could let the main thread
 * publish a second report.
 */
import { workerData } from 'node:worker_threads';

/** The key under which the flag travels in `workerData`. */
const KEY = 'namespaceTeardownPublished';

/** A new flag for one worker, and the `workerData` that hands it over. */
export function newPublishedFlag(): { flag: Int32Array; workerData: Record<string, SharedArrayBuffer> } {
  const buffer = new SharedArrayBuffer(8);
  return { flag: new Int32Array(buffer), workerData: { [KEY]: buffer } };
}

/** In the worker: record that the report is published, with the exit code it set (no-op outside a worker). */
export function markPublished(exitCode: number): void {
  const buffer = (workerData as Record<string, unknown> | null)?.[KEY];
  if (!(buffer instanceof SharedArrayBuffer)) return;
  const flag = new Int32Array(buffer);
  Atomics.store(flag, 1, exitCode);
  Atomics.store(flag, 0, 1);
}

/** In the main thread: the exit code the worker published with, or undefined when it has not published. */
export function publishedExitCode(flag: Int32Array): number | undefined {
  return Atomics.load(flag, 0) === 1 ? Atomics.load(flag, 1) : undefined;
}
