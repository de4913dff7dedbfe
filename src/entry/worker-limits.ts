/** The heap a worker thread of either action gets, and why one ended without finishing. Pure. */
import { messageOf } from '../shared/errors.js';

/** The run's heap: about five times what 5,000 targets need at their peak. */
export const ENGINE_HEAP_MB = 512;

/** Why the worker ended without finishing, in words for the summary. */
export function whyStopped(error: unknown, heapMb: number): string {
  if ((error as { code?: unknown } | undefined)?.code === 'ERR_WORKER_OUT_OF_MEMORY') {
    return `the run ran out of memory: its heap is bounded to ${heapMb} MiB; nothing after that point is known`;
  }
  return `the run stopped unexpectedly: ${messageOf(error)}`;
}
