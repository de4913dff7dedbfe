/** One target's report, from what its wait recorded and what its inspector found and did. Pure. */
import type { NamespaceState } from '../model/cluster.js';
import type { Outcome, TargetReport } from '../model/run.js';
import type { Inspection } from './inspect.js';
import { recreatedNote } from './last-read.js';
import type { WaitRecord } from './wait.js';
import type { Resolved } from '../targets/resolve.js';

const iso = (ms: number): string => new Date(ms).toISOString();

function outcomeOf(record: WaitRecord, requested: boolean): Outcome {
  if (record.recreatedUid !== undefined) return 'recreated';
  if (record.goneAt !== undefined) return 'gone';
  // An accepted DELETE means it is being deleted, even when no later read showed the deletionTimestamp.
  return record.last.deletionTimestamp === undefined && !requested ? 'active' : 'stuck';
}

/**
 * When the namespace started Terminating: when we sent the DELETE, else its deletionTimestamp (someone else
 * deleted it), else undefined (not deleted).
 */
export function terminatingSince(state: NamespaceState, requestedMs: number | undefined): number | undefined {
  if (requestedMs !== undefined) return requestedMs;
  const fromServer = state.deletionTimestamp ? Date.parse(state.deletionTimestamp) : NaN;
  return Number.isNaN(fromServer) ? undefined : fromServer;
}

/** The report of a target whose wait ran: its outcome, times and transitions as the wait recorded them. */
export function reportFromWait(
  record: WaitRecord,
  requestedMs: number | undefined,
  now: number,
): TargetReport {
  const ns = record.last;
  const outcome = outcomeOf(record, requestedMs !== undefined);
  const since = terminatingSince(ns, requestedMs);
  return {
    name: ns.name,
    uid: ns.uid,
    outcome,
    labels: ns.labels,
    requestedAt: since !== undefined ? iso(since) : undefined,
    goneAt: record.goneAt !== undefined ? iso(record.goneAt) : undefined,
    durationMs:
      record.goneAt !== undefined && since !== undefined ? Math.max(0, record.goneAt - since) : undefined,
    terminatingForMs: outcome === 'stuck' && since !== undefined ? Math.max(0, now - since) : undefined,
    transitions: record.transitions.map((t) => ({ phase: t.phase, at: iso(t.at) })),
    conditions: ns.conditions,
    recreatedUid: record.recreatedUid,
    note: record.recreatedUid ? recreatedNote(record.recreatedUid) : undefined,
    watchRestarts: record.restarts,
    findings: [],
  };
}

/** The report of a target that ended without a wait: refused, unreadable, not found, cancelled or failed. */
export function simpleReport(
  name: string,
  outcome: Outcome,
  note: string,
  state?: NamespaceState,
): TargetReport {
  return {
    name,
    uid: state?.uid,
    outcome,
    labels: state?.labels,
    transitions: [],
    conditions: state?.conditions ?? [],
    watchRestarts: { expired: 0, reset: 0 },
    findings: [],
    note,
  };
}

/** The report of a target refused before any write: protected, or without the run's target label (named). */
export function refusedReport(
  t: Pick<Resolved, 'name' | 'state' | 'missingLabel'>,
  why: string,
): TargetReport {
  const report = simpleReport(t.name, 'refused', why, t.state);
  return t.missingLabel !== undefined ? { ...report, missingLabel: t.missingLabel } : report;
}

/** A target listed Terminating that later reads show Active: which answer to believe, and what was done. */
export function listedTerminating(report: TargetReport): string {
  const forced = report.force?.audit.some((a) => a.writes > 0) === true;
  return `listed Terminating, but read Active (no deletionTimestamp): not being deleted${forced ? '' : ', nothing forced'}`;
}

/** What the inspector found and forced, onto the target's report; `gone` after a forced write is `forced`. */
export function applyInspection(report: TargetReport, result: Inspection): void {
  report.findings = result.findings;
  report.diagnosedBecause = result.findings.length ? result.diagnosedBecause : undefined;
  if (result.scan) report.scan = result.scan;
  if (result.unread.length) report.unread = result.unread;
  if (result.plan) report.force = { plan: result.plan, passes: result.plans, audit: result.audit };
  if (result.forcedWrites && report.outcome === 'gone') report.outcome = 'forced';
}
