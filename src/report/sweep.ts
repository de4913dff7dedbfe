/** The sweep's section of the job summary: what would go or went, and what was kept and why. Pure. */
import { formatAge } from '../shared/duration.js';
import type { SweepEntry, SweepReport } from '../model/sweep.js';
import type { Outcome, RunReport } from '../model/run.js';
import { OUTCOME_WORDS } from './words.js';
import { md, mdLink } from './escape.js';

/** Above this many kept namespaces, their table is folded. */
const FOLD_KEPT_OVER = 10;
/** Rows of each table; the rest are counted (every entry is in the JSON report, `sweep.entries`). */
const SWEEP_ROWS = 200;

function pullCell(e: SweepEntry, origin: string | undefined): string {
  if (e.pr === undefined) return e.label !== undefined ? `\`${md(e.label, 63)}\`` : '—';
  const state = e.pull ? (e.pull.state === 'missing' ? 'not found' : e.pull.state) : 'not asked';
  return `${mdLink(`#${e.pr}`, e.prUrl, origin)} ${state}`;
}

function ageCell(e: SweepEntry, now: number): string {
  const created = e.createdAt ? Date.parse(e.createdAt) : NaN;
  return Number.isNaN(created) ? '' : formatAge(Math.max(0, now - created));
}

function decisionCell(e: SweepEntry, mode: SweepReport['mode'], outcomes: Map<string, Outcome>): string {
  if (e.decision === 'keep') {
    if (e.invalidLabel) return '⚠️ kept (label not a PR number)';
    if (e.invalidAnnotation) return '⚠️ kept (expiry unreadable)';
    return e.keptBy !== undefined ? '📌 kept' : 'kept';
  }
  if (e.protected) return '⛔ protected, untouched';
  if (e.missingLabel !== undefined) return `⛔ no label <code>${md(e.missingLabel, 63)}</code>, untouched`;
  if (mode === 'plan') return '🗑️ would go';
  const outcome = outcomes.get(e.namespace);
  return outcome ? OUTCOME_WORDS[outcome].swept : 'chosen';
}

/** The reason, with a keep label shown as the label it is. */
function whyCell(e: SweepEntry): string {
  if (e.keptBy !== undefined && e.pr !== undefined)
    return `kept by label <code>${md(e.keptBy, 60)}</code> on #${e.pr}`;
  return md(e.reason, 300);
}

function table(
  entries: SweepEntry[],
  cell: (e: SweepEntry) => string,
  now: number,
  origin: string | undefined,
): string {
  const rows = entries
    .slice(0, SWEEP_ROWS)
    .map(
      (e) =>
        `| ${md(e.namespace, 80)} | ${cell(e)} | ${pullCell(e, origin)} | ${whyCell(e)} | ${ageCell(e, now)} |`,
    );
  const more =
    entries.length > SWEEP_ROWS
      ? `\n\n…and ${entries.length - SWEEP_ROWS} more, in the JSON report (\`sweep.entries\`).`
      : '';
  return (
    ['| Namespace | Decision | Pull request | Why | Age |', '| --- | --- | --- | --- | --- |', ...rows].join(
      '\n',
    ) + more
  );
}

/** Counts in words: kept / would go (plan) or went (on). */
export function sweepCounts(sweep: SweepReport): string {
  const fenced = (e: SweepEntry): boolean => e.missingLabel !== undefined;
  const go = sweep.entries.filter((e) => e.decision === 'go' && !e.protected && !fenced(e)).length;
  const guarded = sweep.entries.filter((e) => e.protected).length;
  const unlabelled = sweep.entries.filter(fenced).length;
  const kept = sweep.entries.length - go - guarded - unlabelled;
  const invalid = sweep.entries.filter((e) => e.invalidLabel).length;
  const unreadable = sweep.entries.filter((e) => e.invalidAnnotation).length;
  const byLabel = sweep.entries.filter((e) => e.keptBy !== undefined).length;
  const expired = sweep.entries.filter(
    (e) => e.expired && e.decision === 'go' && !e.protected && !fenced(e),
  ).length;
  const parts = [`${go} ${sweep.mode === 'plan' ? 'would go' : 'chosen to go'}`, `${kept} kept`];
  if (expired) parts[0] += ` (${expired} expired)`;
  if (guarded) parts.push(`${guarded} protected`);
  if (unlabelled) parts.push(`${unlabelled} without the target label`);
  if (byLabel) parts.push(`${byLabel} kept by label`);
  if (invalid) parts.push(`${invalid} with a label that is not a PR number`);
  if (unreadable) parts.push(`${unreadable} with an expiry annotation that does not parse`);
  return parts.join(', ');
}

/** Render the sweep section; empty when the run was not a sweep. */
export function renderSweep(report: RunReport): string {
  const sweep = report.sweep;
  if (!sweep) return '';
  const now = Date.parse(report.finishedAt);
  const outcomes = new Map(report.targets.map((t) => [t.name, t.outcome]));
  const cell = (e: SweepEntry): string => decisionCell(e, sweep.mode, outcomes);
  const going = sweep.entries.filter((e) => e.decision === 'go');
  const kept = sweep.entries.filter((e) => e.decision === 'keep');
  const flagged = (e: SweepEntry): number => Number(!!e.invalidLabel || !!e.invalidAnnotation);
  kept.sort((a, b) => flagged(b) - flagged(a));
  const title = sweep.mode === 'plan' ? 'Sweep plan (nothing deleted)' : 'Sweep';
  const lines = [
    `### ${title}: ${sweepCounts(sweep)}`,
    `<sub>${md(sweep.repository)} · label \`${md(sweep.prLabel)}\` · closed for ${sweep.closedFor}` +
      (sweep.maxAge ? ` · unlabelled after ${sweep.maxAge}` : '') +
      (sweep.lifetime ? ` · max-age ${sweep.lifetime}` : '') +
      (sweep.keepLabel ? ` · keep label <code>${md(sweep.keepLabel, 60)}</code>` : '') +
      ` · ${sweep.entries.length} candidate(s), ${sweep.pulls} pull request(s), ${sweep.githubRequests} GitHub request(s)` +
      (sweep.githubApi === 'rest' ? ' (REST: GraphQL refused)' : '') +
      (sweep.unmatched
        ? ` · ${sweep.unmatched} more listed that do not match \`${md(sweep.listedBy)}\`: not candidates`
        : '') +
      '</sub>',
  ];
  if (going.length) {
    lines.push(`#### ${sweep.mode === 'plan' ? 'Would go' : 'Chosen to go'} (${going.length})`);
    lines.push(table(going, cell, now, report.context.serverUrl));
  }
  if (kept.length) {
    const keptTable = table(kept, cell, now, report.context.serverUrl);
    lines.push(`#### Kept (${kept.length})`);
    lines.push(
      kept.length > FOLD_KEPT_OVER
        ? `<details><summary>Show the ${kept.length} kept</summary>\n\n${keptTable}\n\n</details>`
        : keptTable,
    );
  }
  return lines.join('\n\n');
}
