/**
 * The fleet's job summary: headline, one row per cluster, causes across clusters, then one table per outcome with the
 * cluster as a column, gone ones folded. Within the same byte budget as one run's summary; what is cut is named. Pure.
 */
import type { FleetReport } from '../model/fleet.js';
import type { Outcome, TargetReport } from '../model/run.js';
import { formatDuration } from '../shared/duration.js';
import { Budget, cutLine } from './budget.js';
import { md, visible } from './escape.js';
import { CLUSTER_HEADER, clusterRow, fleetHeadline, renderFleetFixFirst } from './fleet-blocks.js';
import { fleetCauses, type FleetCause } from './fleet-causes.js';
import { OUTCOME_COUNT } from './headline.js';
import { GONE_ROWS, ownerCell, STILL_ROWS, SUMMARY_BUDGET, SUMMARY_LIMIT, whyCell } from './markdown.js';
import { OUTCOME_WORDS, targetWords } from './words.js';
import { settledWords } from './wait-words.js';

/** Rows of the clusters table; more are counted. */
export const CLUSTER_ROWS = 200;

const GONE: ReadonlySet<Outcome> = new Set<Outcome>(['gone', 'already-gone']);
/** The outcomes that get a table of their own, most urgent first. */
const TABLED = (Object.keys(OUTCOME_COUNT) as Outcome[])
  .filter((o) => !GONE.has(o))
  .sort((a, b) => OUTCOME_COUNT[a].rank - OUTCOME_COUNT[b].rank);

interface Row {
  cluster: string;
  t: TargetReport;
  selector?: string;
}

/** Cluster → namespace → the number of its cause in the fix-first block, for causes of several namespaces. */
function causeNumbers(causes: FleetCause[]): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  causes.forEach((c, i) => {
    if (c.namespaces < 2) return;
    for (const m of c.members) {
      const map = out.get(m.cluster) ?? new Map<string, number>();
      for (const t of m.cause.targets) map.set(t.name, i + 1);
      out.set(m.cluster, map);
    }
  });
  return out;
}

function rowsOf(fleet: FleetReport, keep: (o: Outcome) => boolean): Row[] {
  return fleet.clusters.flatMap((c) =>
    (c.report?.targets ?? [])
      .filter((t) => keep(t.outcome))
      .map((t) => ({ cluster: c.name, t, selector: c.report!.settings.selector })),
  );
}

function outcomeTables(fleet: FleetReport, b: Budget, numbers: Map<string, Map<string, number>>): void {
  const none = new Map<string, number>();
  for (const outcome of TABLED) {
    const rows = rowsOf(fleet, (o) => o === outcome);
    if (!rows.length) continue;
    const clusters = new Set(rows.map((r) => r.cluster)).size;
    b.add(
      `### ${OUTCOME_WORDS[outcome].target}: ${rows.length} in ${clusters} cluster${clusters === 1 ? '' : 's'}`,
    );
    b.table(
      `rows of the ${outcome} table`,
      ['| Cluster | Namespace | Owner | For | Why |', '| --- | --- | --- | --- | --- |'],
      rows,
      ({ cluster, t, selector }) => {
        const time = t.terminatingForMs ?? t.durationMs;
        const when = [time !== undefined ? formatDuration(time) : '', settledWords(t)].filter(Boolean);
        const why = whyCell(t, numbers.get(cluster) ?? none);
        return `| ${md(cluster, 100)} | ${md(t.name, 80)} | ${ownerCell(t, selector)} | ${when.join(' · ')} | ${why} |`;
      },
      STILL_ROWS,
    );
  }
}

function goneTable(fleet: FleetReport, b: Budget): void {
  const rows = rowsOf(fleet, (o) => GONE.has(o));
  if (!rows.length) return;
  b.table(
    'rows of the table of namespaces gone',
    ['| Cluster | Namespace | Outcome | Took |', '| --- | --- | --- | --- |'],
    rows,
    ({ cluster, t }) =>
      `| ${md(cluster, 100)} | ${md(t.name, 80)} | ${targetWords(t)} | ${t.durationMs !== undefined ? formatDuration(t.durationMs) : ''} |`,
    GONE_ROWS,
    [
      `<details><summary>✅ ${rows.length} namespace${rows.length === 1 ? '' : 's'} gone</summary>`,
      '</details>',
    ],
  );
}

/** The reports that could not be used, and what is worth a line. */
function problemsBlock(fleet: FleetReport, b: Budget): void {
  if (fleet.problems.length) {
    b.add(`### ⚠️ Reports not used (${fleet.problems.length.toLocaleString('en-US')})`);
    b.table(
      'rows of the table of reports not used',
      ['| Report | Cluster | Problem |', '| --- | --- | --- |'],
      fleet.problems,
      (p) => `| <code>${md(p.source, 200)}</code> | ${md(p.cluster ?? '', 100)} | ${md(p.problem, 300)} |`,
      STILL_ROWS,
    );
  }
  for (const note of fleet.notes) if (!b.add(`> ℹ️ ${md(note, 600)}`)) b.cut.push('a note');
}

/** Render the fleet's summary within `limit` bytes; what does not fit is named, and is in the JSON at `reportPath`. */
export function renderFleetSummary(
  fleet: FleetReport,
  reportPath?: string,
  opts: { overflow?: number; limit?: number } = {},
): string {
  const limit = Math.min(opts.limit ?? SUMMARY_BUDGET, SUMMARY_LIMIT);
  const b = new Budget(limit - 2_000);
  const causes = fleetCauses(fleet);
  b.add(fleetHeadline(fleet));
  b.table('rows of the clusters table', CLUSTER_HEADER, fleet.clusters, clusterRow, CLUSTER_ROWS);
  problemsBlock(fleet, b);
  if (!b.add(renderFleetFixFirst(fleet, causes))) b.cut.push('the fix-first block');
  outcomeTables(fleet, b, causeNumbers(causes));
  goneTable(fleet, b);
  if (opts.overflow)
    b.add(
      `<sub>${opts.overflow} annotation(s) over GitHub's limits were not emitted; what they say is above and in the JSON report.</sub>`,
    );
  if (b.cut.length) b.parts.push(cutLine(b.cut, limit, reportPath));
  b.parts.push(
    `<sub>result <code>${fleet.result}</code> · ${fleet.clusters.length} clusters · fail-on ${md(fleet.failOn)} · each cluster's own summary has its details</sub>`,
  );
  return visible(b.parts.join('\n\n') + '\n', true);
}
