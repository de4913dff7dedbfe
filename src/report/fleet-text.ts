/** The fleet as plain text for a terminal: headline, one row per cluster, what needs a person, causes across clusters. Pure. */
import type { ClusterResult, FleetReport } from '../model/fleet.js';
import { formatDuration } from '../shared/duration.js';
import { verdictOf } from './causes.js';
import { table, wrap, type Cell } from './columns.js';
import { layoutScript } from './commands.js';
import { breakCommands, visible } from './escape.js';
import { fleetTargets } from './fleet-blocks.js';
import { fleetCauses, fleetScript, type FleetCause } from './fleet-causes.js';
import { countTargets, OUTCOME_COUNT } from './headline.js';
import { OUTCOME_STYLE, painter, type Paint, type Style, type TextOptions } from './text.js';
import { settledReason, settledWords } from './wait-words.js';
import type { TargetReport } from '../model/run.js';

const INDENT = '   ';
/** Rows of namespaces that need a person before the rest are counted: the JSON report has them all. */
const ROWS = 50;

const RESULT_STYLE: Record<ClusterResult, Style> = {
  skipped: 'dim',
  planned: 'cyan',
  clean: 'green',
  forced: 'yellow',
  stuck: 'red',
  error: 'red',
  unknown: 'magenta',
};

function headline(fleet: FleetReport, width: number, paint: Paint): string[] {
  const fails = fleet.failures.length > 0;
  const unknown = fleet.clusters.filter((c) => c.result === 'unknown').length;
  const [mark, style]: [string, Style] = fails ? ['✗', 'red'] : unknown ? ['?', 'magenta'] : ['✓', 'green'];
  const n = fleet.clusters.length;
  const title = `${mark} Namespace teardown on ${n} cluster${n === 1 ? '' : 's'}: ${countTargets(fleetTargets(fleet))}${unknown ? ` · ${unknown} unknown` : ''}`;
  const check = fails ? `The check fails: ${fleet.failures.join('; ')}.` : 'The check passes.';
  return [...wrap(title, width).map((l) => paint(['bold', style], l)), ...wrap(check, width)];
}

function clusterTable(fleet: FleetReport, width: number, paint: Paint): string[] {
  const rows = fleet.clusters.map((c): Cell[] => {
    const k = c.report?.context.cluster;
    const where = c.report
      ? [
          [k?.context, k?.server].filter(Boolean).join(' at '),
          c.report.wait?.ended === 'settled'
            ? `wait settled after ${formatDuration(c.report.wait.afterMs)}`
            : '',
          c.report.error,
        ]
          .filter(Boolean)
          .join(' · ')
      : (c.why ?? '');
    return [
      { text: c.name, paint: (s) => paint('bold', s) },
      { text: c.result, paint: (s) => paint(RESULT_STYLE[c.result] ?? 'reset', s) },
      { text: c.report ? countTargets(c.report.targets) : '—' },
      { text: where },
    ];
  });
  return table(['CLUSTER', 'RESULT', 'NAMESPACES', 'WHERE, OR WHY UNKNOWN'], rows, width, (s) =>
    paint('dim', s),
  );
}

function attentionTable(fleet: FleetReport, width: number, paint: Paint): string[] {
  const rows = fleet.clusters
    .flatMap((c) => (c.report?.targets ?? []).map((t) => ({ cluster: c.name, t })))
    .filter(({ t }) => t.outcome !== 'gone' && t.outcome !== 'already-gone')
    .sort((a, b) => OUTCOME_COUNT[a.t.outcome].rank - OUTCOME_COUNT[b.t.outcome].rank);
  if (!rows.length) return [];
  const cells = rows.slice(0, ROWS).map(({ cluster, t }): Cell[] => {
    const time = t.terminatingForMs ?? t.durationMs;
    return [
      { text: cluster },
      { text: t.name, paint: (s) => paint('bold', s) },
      { text: OUTCOME_COUNT[t.outcome].words, paint: (s) => paint(OUTCOME_STYLE[t.outcome], s) },
      { text: [time !== undefined ? formatDuration(time) : '', settledWords(t)].filter(Boolean).join(', ') },
      { text: whyText(t) },
    ];
  });
  const lines = table(['CLUSTER', 'NAMESPACE', 'OUTCOME', 'FOR', 'WHY'], cells, width, (s) =>
    paint('dim', s),
  );
  if (rows.length > ROWS) lines.push(`… and ${rows.length - ROWS} more: see the JSON report`);
  return lines;
}

/** What holds a namespace, and what settled it when the verdict does not already say so. */
function whyText(t: TargetReport): string {
  const v = verdictOf(t);
  const settled = settledReason(t, v);
  return [v?.summary ?? t.note ?? '', settled ? `settled: ${settled}` : ''].filter(Boolean).join(' · ');
}

function causeLines(cause: FleetCause, n: number, width: number, paint: Paint): string[] {
  const inner = width - INDENT.length;
  const who = cause.members
    .map((m) => `${m.cluster}: ${m.cause.targets.map((t) => t.name).join(', ')}`)
    .join('; ');
  const head =
    cause.namespaces === 1
      ? who
      : cause.members.length === 1
        ? `same cause in ${cause.namespaces} namespaces on ${who}`
        : `same cause in ${cause.members.length} clusters, ${cause.namespaces} namespaces: ${who}`;
  const lines = [paint('bold', `${n}. ${wrap(head, width - 3).join(`\n${INDENT}`)}`)];
  lines.push(...wrap(cause.summary, inner).map((l) => INDENT + l));
  const basis = (cause.verdict.basis ?? []).filter(Boolean).slice(0, 2);
  if (basis.length)
    lines.push(...wrap(`Evidence (read in this run): ${basis.join(' · ')}`, inner).map((l) => INDENT + l));
  const layout = (s: string): string =>
    layoutScript(
      s
        .split('\n')
        .map((l) => visible(l))
        .join('\n'),
      inner,
    );
  const script =
    fleetScript(cause.members, (c) => c.command, layout) ??
    fleetScript(cause.members, (c) => (c.lookups.length ? c.lookups.join('\n') : undefined), layout);
  if (script) lines.push('', ...script.split('\n').map((l) => (l ? INDENT + visible(l) : l)), '');
  const resort = fleetScript(cause.members, (c) => c.lastResort?.command, layout);
  const risk = cause.members.find((m) => m.cause.lastResort)?.cause.lastResort?.risk;
  if (resort && risk) {
    lines.push(...wrap(`Last resort, not the fix — ${risk}`, inner).map((l) => INDENT + paint('yellow', l)));
    lines.push('', ...resort.split('\n').map((l) => (l ? INDENT + visible(l) : l)), '');
  }
  return lines;
}

function problemLines(fleet: FleetReport, width: number): string[] {
  const lines = fleet.problems.flatMap((p) => wrap(`report not used: ${p.source}: ${p.problem}`, width));
  return [...lines, ...fleet.notes.flatMap((note) => wrap(`note: ${note}`, width))];
}

/** Render the fleet for a terminal `width` cells wide; nothing in it is markup, no line starts a workflow command. */
export function renderFleetText(fleet: FleetReport, o: TextOptions): string {
  const width = Math.max(40, Math.floor(o.width));
  const paint = painter(o.color);
  const blocks: string[][] = [headline(fleet, width, paint), clusterTable(fleet, width, paint)];
  const problems = problemLines(fleet, width);
  if (problems.length) blocks.push(problems);
  const attention = attentionTable(fleet, width, paint);
  if (attention.length) blocks.push(attention);
  const causes = fleetCauses(fleet);
  if (causes.length)
    blocks.push([
      paint('bold', 'Fix first'),
      ...causes.flatMap((c, i) => ['', ...causeLines(c, i + 1, width, paint)]),
    ]);
  if (o.reportPath) blocks.push(wrap(`Everything else is in the JSON report: ${o.reportPath}`, width));
  const text = blocks.map((b) => b.join('\n').replace(/\n{3,}/g, '\n\n')).join('\n\n');
  return `${breakCommands(text)}\n`;
}
