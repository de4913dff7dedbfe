/** Progress while waiting: counts for a live status line, and the log line the action prints on a timer. */
import { formatDuration } from '../shared/duration.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { Outcome } from '../model/run.js';
import type { WaitRecord } from './wait.js';

/** Where the run stands while it waits: every target counted once. */
export interface Progress {
  total: number;
  /** Targets seen gone (or gone after forcing, already gone, recreated under a new UID). */
  gone: number;
  /** Targets being waited on that are Terminating, with how long each has been. */
  terminating: { name: string; forMs: number }[];
  /** Targets being waited on that are not (yet) Terminating. */
  waitingOther: number;
  elapsedMs: number;
}

const GONE: ReadonlySet<Outcome> = new Set<Outcome>(['gone', 'forced', 'already-gone', 'recreated']);

/** `3 of 5 gone · 2 Terminating · 1m 12s`: the status line's words. Pure. */
export function progressWords(p: Progress): string {
  const parts = [`${p.gone} of ${p.total} gone`];
  if (p.terminating.length) parts.push(`${p.terminating.length} Terminating`);
  if (p.waitingOther) parts.push(`${p.waitingOther} not Terminating yet`);
  parts.push(formatDuration(p.elapsedMs));
  return parts.join(' · ');
}

/** The log line: the counts, then what is still Terminating and for how long (the first 10 by name). Pure. */
export function progressLogLine(p: Progress): string {
  const shown = [...p.terminating].sort((a, b) => (a.name < b.name ? -1 : 1)).slice(0, 10);
  const list = shown.map((t) => `${t.name} (${formatDuration(t.forMs)})`).join(', ');
  const more = p.terminating.length > shown.length ? ` and ${p.terminating.length - shown.length} more` : '';
  return `waiting: ${progressWords(p)}${list ? ` — still Terminating: ${list}${more}` : ''}`;
}

/** Keeps the counts of a run's wait and tells a listener about every change. */
export class ProgressTracker {
  private readonly waiting = new Map<string, WaitRecord>();
  /** The phase last told per target: a wait keeps mutating one record, so the record cannot tell a change. */
  private readonly phases = new Map<string, string>();
  private readonly done = new Map<string, Outcome>();
  private total = 0;

  constructor(
    private readonly clock: Clock,
    private readonly started: number,
    private readonly listener?: (p: Progress) => void,
  ) {}

  /** The number of targets, once they are resolved. */
  begin(total: number): void {
    this.total = total;
    this.notify();
  }

  /** A target's wait saw a change. */
  update(name: string, record: WaitRecord): void {
    const phase = `${record.last.phase}/${record.last.deletionTimestamp !== undefined}`;
    this.waiting.set(name, record);
    if (this.phases.get(name) === phase) return;
    this.phases.set(name, phase);
    this.notify();
  }

  /** A target's story ended. */
  finish(name: string, outcome: Outcome): void {
    this.waiting.delete(name);
    this.done.set(name, outcome);
    this.notify();
  }

  /** The counts now. */
  snapshot(): Progress {
    const now = this.clock.now();
    const terminating: Progress['terminating'] = [];
    let waitingOther = 0;
    for (const [name, r] of this.waiting) {
      if (r.last.phase !== 'Terminating' && r.last.deletionTimestamp === undefined) waitingOther++;
      else {
        const seen = r.transitions.find((t) => t.phase === 'Terminating')?.at ?? r.transitions[0]!.at;
        // Someone else's deletion (scope all-terminating) may be days old: its timestamp says since when.
        const stamped = r.last.deletionTimestamp ? Date.parse(r.last.deletionTimestamp) : NaN;
        const since = Number.isNaN(stamped) ? seen : Math.min(seen, stamped);
        terminating.push({ name, forMs: Math.max(0, now - since) });
      }
    }
    const gone = [...this.done.values()].filter((o) => GONE.has(o)).length;
    return { total: this.total, gone, terminating, waitingOther, elapsedMs: now - this.started };
  }

  private notify(): void {
    this.listener?.(this.snapshot());
  }
}

/** A log line every `everyMs` while anything is waited on; returns the stop function. */
export function logProgress(
  tracker: ProgressTracker,
  deps: { clock: Clock; logger: Logger },
  everyMs: number,
): () => void {
  const stop = new AbortController();
  void (async () => {
    // Due times on a fixed grid, so a slow line never pushes the next one past `everyMs`.
    let due = deps.clock.now();
    for (;;) {
      // A line that came late (a busy machine, a suspended runner) is not made up for with a burst of lines.
      due += everyMs * (Math.floor(Math.max(0, deps.clock.now() - due) / everyMs) + 1);
      await deps.clock.sleep(Math.max(0, due - deps.clock.now()), stop.signal);
      if (stop.signal.aborted) return;
      const p = tracker.snapshot();
      if (p.terminating.length + p.waitingOther > 0) deps.logger.info(progressLogLine(p));
    }
  })();
  return () => stop.abort();
}
