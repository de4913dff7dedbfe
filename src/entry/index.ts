/**
 * The action's entry point: the main thread supervises, the worker thread runs the action (`run` in action.ts tells
 * the run step by step).
 */
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  // The run goes in a worker thread with a bounded heap (see supervise.ts); this thread passes on a cancel and
  // publishes a result if the run ends without one.
  const { supervise } = await import('./supervise.js');
  process.exitCode = await supervise({ entry: process.argv[1]! });
} else {
  const { run } = await import('./action.js');
  await run();
  // The result is published: a connection the server never answers (a watch still opening) must not hold the step.
  setTimeout(() => process.exit(), 500).unref();
}
