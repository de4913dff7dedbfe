/**
 * Cluster reports → one fleet answer: every expected cluster present (`unknown` when no readable report says what
 * happened there), the worst result, and the check decided by the merge's own `fail-on` across every cluster. Pure.
 */
import {
  CLUSTER_RESULTS,
  FLEET_VERSION,
  type ClusterResult,
  type FleetCluster,
  type FleetReport,
  type ReportProblem,
} from '../model/fleet.js';
import type { RunContext, RunReport } from '../model/run.js';
import type { FailOn } from '../settings/settings.js';
import { unreadPulls } from '../sweep/unread.js';
import { failuresOf } from '../teardown/run-teardown.js';
import { clusterNameOf } from './cluster-identity.js';
import type { Checked } from './validate.js';

/** One report file as read: where it came from and what checking it gave. */
export interface Found {
  source: string;
  checked: Checked;
}

/** What a fleet is merged from. */
export interface MergeInput {
  /** The clusters the workflow ran, in its order; empty = whatever reports were found. */
  expected: readonly string[];
  found: readonly Found[];
  failOn: FailOn;
  context: RunContext;
  now: number;
}

/** Said of a cluster that has no report at all. */
export const NO_REPORT = 'no report (its job failed before writing one, was cancelled, or never ran)';

/** The worst of some results (`clean` for none; `skipped` only when every one was skipped). */
export function worstOf(results: readonly ClusterResult[]): ClusterResult {
  if (results.length === 0) return 'clean';
  return results.reduce((worst, r) =>
    CLUSTER_RESULTS.indexOf(r) > CLUSTER_RESULTS.indexOf(worst) ? r : worst,
  );
}

interface Named {
  name: string;
  report: RunReport;
  source: string;
}

/**
 * Reports by cluster name. Two reports of one name from different API servers are two clusters, told apart by the
 * server; of the same server (a re-run job), the one that finished last is used and the other is noted.
 */
function byName(valid: Named[], notes: string[]): Map<string, Named> {
  const groups = new Map<string, Named[]>();
  for (const r of valid) groups.set(r.name, [...(groups.get(r.name) ?? []), r]);
  const out = new Map<string, Named>();
  for (const [name, group] of groups) {
    const servers = new Set(group.map((r) => r.report.context.cluster?.server ?? ''));
    if (servers.size > 1) {
      notes.push(
        `${group.length} reports name their cluster "${name}" but talked to different API servers: told apart by server; give each job its own \`cluster-name\`.`,
      );
      for (const r of group) {
        const renamed = `${name} (${r.report.context.cluster?.server ?? 'no server'})`;
        out.set(renamed, { ...r, name: renamed });
      }
      continue;
    }
    const sorted = [...group].sort((a, b) => (a.report.finishedAt < b.report.finishedAt ? 1 : -1));
    out.set(name, sorted[0]!);
    for (const older of sorted.slice(1))
      notes.push(
        `Cluster "${name}" has more than one report: ${sorted[0]!.source} (finished ${sorted[0]!.report.finishedAt}) is used, not ${older.source} (finished ${older.report.finishedAt}).`,
      );
  }
  return out;
}

/** Why the check fails for one cluster, under the merge's `fail-on`. */
function clusterFailures(c: FleetCluster, failOn: FailOn): string[] {
  if (failOn === 'never') return [];
  if (!c.report) return [`${c.name}: unknown, ${c.why ?? NO_REPORT}`];
  const r = c.report;
  return [
    ...failuresOf({ failOn, sweep: r.sweep }, r.targets, { error: r.error, cancelled: r.cancelled }),
    ...unreadPulls(failOn, r.sweep?.entries ?? []),
  ].map((f) => `${c.name}: ${f}`);
}

/** Merge the reports found into the fleet's one answer. */
export function mergeFleet(input: MergeInput): FleetReport {
  const notes: string[] = [];
  const problems: ReportProblem[] = [];
  const valid: Named[] = [];
  for (const { source, checked } of input.found) {
    if ('report' in checked)
      valid.push({ name: clusterNameOf(checked.report) ?? source, report: checked.report, source });
    else
      problems.push({
        source,
        ...(checked.cluster ? { cluster: checked.cluster } : {}),
        problem: checked.problem,
      });
  }
  const reports = byName(valid, notes);
  const expected = new Set(input.expected);
  const extra = [...reports.keys()].filter((n) => !expected.has(n)).sort();
  if (input.expected.length > 0)
    for (const name of extra) notes.push(`Cluster "${name}" reported but is not in the \`clusters\` list.`);
  const clusters = [...input.expected, ...extra].map((name): FleetCluster => {
    const found = reports.get(name);
    if (found) return { name, result: found.report.result, report: found.report, source: found.source };
    const bad = problems.find((p) => p.cluster === name);
    return {
      name,
      result: 'unknown',
      why: bad ? `its report ${bad.source} is unusable: ${bad.problem}` : NO_REPORT,
    };
  });
  const explained = new Set(clusters.filter((c) => !c.report).map((c) => c.name));
  // A problem no unknown cluster explains may be a cluster nobody listed: it counts on its own.
  const loose = problems.filter((p) => !p.cluster || !explained.has(p.cluster));
  return {
    version: FLEET_VERSION,
    kind: 'fleet',
    context: input.context,
    finishedAt: new Date(input.now).toISOString(),
    failOn: input.failOn,
    clusters,
    problems,
    notes,
    result: worstOf([...clusters.map((c) => c.result), ...(loose.length ? ['unknown' as const] : [])]),
    failures: [
      ...clusters.flatMap((c) => clusterFailures(c, input.failOn)),
      ...(input.failOn === 'never' ? [] : loose.map((p) => `report ${p.source} is unusable: ${p.problem}`)),
    ],
  };
}

/** What every report agrees on about the workflow (repository, pull request, commit, run), for a merge outside one. */
export function commonContext(reports: readonly RunReport[]): RunContext {
  const keys = ['repository', 'ref', 'sha', 'pullRequest', 'runUrl', 'serverUrl', 'workflow'] as const;
  const out: RunContext = {};
  for (const key of keys) {
    const values = new Set(reports.map((r) => JSON.stringify(r.context[key] ?? null)));
    const value = reports[0]?.context[key];
    if (values.size === 1 && value !== undefined) Object.assign(out, { [key]: value });
  }
  return out;
}
