/** SIGINT and SIGTERM (a runner's cancel, a Ctrl-C) turned into an abort of the run. */

/**
 * Abort `cancel` on the first SIGINT or SIGTERM, after `first` has said so; a later one goes to `again` (ignored
 * without it). Returns the function that stops listening.
 */
export function cancelOnSignals(
  cancel: AbortController,
  first: (signal: NodeJS.Signals) => void,
  again?: (signal: NodeJS.Signals) => void,
): () => void {
  const handler = (signal: NodeJS.Signals): void => {
    if (cancel.signal.aborted) {
      again?.(signal);
      return;
    }
    first(signal);
    cancel.abort();
  };
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
