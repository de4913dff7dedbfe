/** The fleet's first screen, for the summary and the PR comment: headline, one row per cluster, fix first. Pure. */
import type { ClusterResult, FleetCluster, FleetReport } from '../model/fleet.js';
import { formatDuration } from '../shared/duration.js';
import { listNames } from './brief.js';
import { layoutScript } from './commands.js';
import { fence, md } from './escape.js';
import { fleetCauses, fleetScript, type FleetCause } from './fleet-causes.js';
import {
  causeNotes,
  contextLine,
  countTargets,
  evidenceLine,
  lastResortDetails,
  shortReason,
  verdictLine,
} from './headline.js';

/** A cluster's result in words, most urgent last. */
export const RESULT_WORDS: Record<ClusterResult, string> = {
  skipped: '⏭️ skipped',
  planned: '📝 planned',
  clean: '✅ clean',
  forced: '⚠️ forced',
  stuck: '❌ stuck',
  error: '❌ error',
  unknown: '❔ unknown',
};

/** Causes on the first screen; the rest are in the tables below. */
const MAX_CAUSES = 8;
/** Failure reasons in the headline; the rest are in the clusters table. */
const MAX_REASONS = 10;
/** Clusters named in a cause's line; the rest are counted (all are in the tables below). */
const CLUSTERS_NAMED = 8;
/** Namespaces named per cluster in a cause's line. */
const NAMES_PER_CLUSTER = 6;

/** Every target of the fleet, for counting. */
export const fleetTargets = (fleet: FleetReport) => fleet.clusters.flatMap((c) => c.report?.targets ?? []);

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The headline: namespaces counted over every cluster, the clusters not known, and whether the check fails. */
export function fleetHeadline(fleet: FleetReport): string {
  const fails = fleet.failures.length > 0;
  const unknown = fleet.clusters.filter((c) => c.result === 'unknown').length;
  const forced = fleet.clusters.some((c) => c.result === 'forced');
  const icon = fails ? '❌' : unknown ? '❔' : forced ? '⚠️' : '✅';
  const head = `## ${icon} Namespace teardown on ${plural(fleet.clusters.length, 'cluster')}: ${countTargets(fleetTargets(fleet))}${unknown ? ` · ${unknown} unknown` : ''}`;
  const shown = fleet.failures.slice(0, MAX_REASONS).map(shortReason);
  const more = fleet.failures.length - shown.length;
  const check = fails
    ? `**The check fails:** ${shown.join('; ')}${more > 0 ? `; and ${more} more (see the clusters below)` : ''}.`
    : '**The check passes.**';
  return [head, contextLine(fleet.context), check].filter(Boolean).join('\n\n');
}

/** Where a cluster's run went, or why nothing is known of it. */
function whereCell(c: FleetCluster): string {
  if (!c.report) return md(c.why ?? '', 300);
  const k = c.report.context.cluster;
  const at = [k?.context ? `<code>${md(k.context, 100)}</code>` : '', k?.server ? md(k.server, 100) : '']
    .filter(Boolean)
    .join(' at ');
  const settled =
    c.report.wait?.ended === 'settled' ? `wait settled after ${formatDuration(c.report.wait.afterMs)}` : '';
  const said = [settled, c.report.cancelled ? 'cancelled' : '', c.report.error ? md(c.report.error, 300) : '']
    .filter(Boolean)
    .join('; ');
  return [at, said].filter(Boolean).join(' · ');
}

/** The clusters table's header and one row per cluster. */
export const CLUSTER_HEADER = [
  '| Cluster | Result | Namespaces | Where, or why unknown |',
  '| --- | --- | --- | --- |',
];

/** One cluster's row. */
export function clusterRow(c: FleetCluster): string {
  const counted = c.report ? countTargets(c.report.targets) : '—';
  return `| **${md(c.name, 100)}** | ${RESULT_WORDS[c.result]} | ${counted} | ${whereCell(c)} |`;
}

function whoLine(cause: FleetCause, n: number): string {
  const objects =
    cause.objects && cause.objects > 1 ? ` (${cause.objects.toLocaleString('en-US')} objects)` : '';
  const per = cause.members.map(
    (m) =>
      `${md(m.cluster, 100)}: ${listNames(
        m.cause.targets.map((t) => md(t.name, 80)),
        NAMES_PER_CLUSTER,
      )}`,
  );
  const first = cause.members[0]!;
  if (cause.namespaces === 1)
    return `**${n}.** **${md(first.cause.targets[0]!.name, 80)}** on ${md(first.cluster, 100)}${objects}`;
  if (cause.members.length === 1)
    return `**${n}. Same cause in ${cause.namespaces} namespaces on ${md(first.cluster, 100)}${objects}:** ${per[0]!.slice(per[0]!.indexOf(': ') + 2)}`;
  return `**${n}. Same cause in ${cause.members.length} clusters, ${cause.namespaces} namespaces${objects}:** ${per.slice(0, CLUSTERS_NAMED).join(' · ')}${per.length > CLUSTERS_NAMED ? ` · and ${per.length - CLUSTERS_NAMED} more clusters` : ''}`;
}

function fleetCauseBlock(cause: FleetCause, n: number): string {
  const layout = (s: string): string => layoutScript(s);
  const command = fleetScript(cause.members, (c) => c.command, layout);
  // The evidence is the first cluster's: the others' verdicts rest on the same kind of reading, each in its summary.
  const parts = [
    whoLine(cause, n),
    verdictLine(cause.verdict.severity, cause.summary),
    evidenceLine(cause.verdict),
  ];
  if (command) parts.push(fence(command, 'sh'));
  else {
    const look = fleetScript(
      cause.members,
      (c) => (c.lookups.length ? c.lookups.join('\n') : undefined),
      layout,
    );
    if (look) parts.push(`To look closer:\n\n${fence(look, 'sh')}`);
  }
  const risk = cause.members.find((m) => m.cause.lastResort)?.cause.lastResort?.risk;
  const resort = fleetScript(cause.members, (c) => c.lastResort?.command, layout);
  if (risk && resort) parts.push(lastResortDetails(resort, risk));
  const last = risk && resort ? { command: resort, risk } : undefined;
  parts.push(causeNotes({ verdict: cause.verdict, command, lastResort: last }));
  return parts.filter(Boolean).join('\n\n');
}

/** Per cause across the fleet: who it blocks in which cluster, the verdict, one script reaching every cluster. */
export function renderFleetFixFirst(fleet: FleetReport, causes = fleetCauses(fleet)): string {
  if (causes.length === 0) return '';
  const blocks = causes.slice(0, MAX_CAUSES).map((c, i) => fleetCauseBlock(c, i + 1));
  if (causes.length > MAX_CAUSES)
    blocks.push(`…and ${causes.length - MAX_CAUSES} more causes: see the namespaces below.`);
  return ['### Fix first', ...blocks].join('\n\n');
}
