/** The run as plain text for a terminal: headline, one aligned table, then per cause the verdict and the fix. Pure. */
import { styleText } from 'node:util';
import { resultText, whoPutBack } from '../force/index.js';
import { formatDuration } from '../shared/duration.js';
import type { Outcome, RunReport, TargetReport } from '../model/run.js';
import { causesOf, verdictOf, type Cause } from './causes.js';
import { layoutScript } from './commands.js';
import { breakCommands, visible } from './escape.js';
import { counts, OUTCOME_COUNT } from './headline.js';
import { compareText } from '../shared/compare.js';
import { sweepCounts } from './sweep.js';
import { table, wrap, type Cell } from './columns.js';
import { conditionWords } from './words.js';
import { notReadLines } from './not-read.js';
import { planLines } from './plan-text.js';
import { settledWords, waitSentence } from './wait-words.js';

/** How to render: the terminal's width, and whether to colour (a TTY without NO_COLOR; the caller decides). */
export interface TextOptions {
  width: number;
  color: boolean;
  reportPath?: string;
  /** A LABELS column: every label of each namespace, as `kubectl get --show-labels` shows them. */
  showLabels?: boolean;
}

/** A terminal style, as `util.styleText` takes it. */
export type Style = Parameters<typeof styleText>[0];
/** Paints text in a style, or leaves it plain. */
export type Paint = (style: Style, text: string) => string;

/** Rows of gone namespaces shown before the rest are counted: the JSON report has them all. */
const GONE_ROWS = 10;
const INDENT = '   ';

/** The colour of each outcome. */
export const OUTCOME_STYLE: Record<Outcome, Style> = {
  error: 'red',
  stuck: 'red',
  refused: 'yellow',
  active: 'yellow',
  forced: 'yellow',
  recreated: 'cyan',
  gone: 'green',
  'already-gone': 'green',
  planned: 'cyan',
};

/** A painter that colours, or one that leaves text plain. */
export function painter(color: boolean): Paint {
  // styleText checks process.stdout itself; the caller has decided for the stream this text goes to.
  return color ? (style, text) => styleText(style, text, { validateStream: false }) : (_style, text) => text;
}

function headline(report: RunReport, o: TextOptions, paint: Paint): string[] {
  const fails = report.failures.length > 0;
  const forced = report.targets.some((t) => t.outcome === 'forced');
  const [mark, style]: [string, Style] = fails ? ['✗', 'red'] : forced ? ['!', 'yellow'] : ['✓', 'green'];
  const cancelled = report.cancelled ? ' (cancelled)' : '';
  const sweep = report.sweep ? ` · sweep: ${sweepCounts(report.sweep)}` : '';
  const title = `${mark} Namespace teardown${cancelled}: ${counts(report)}${sweep}`;
  const lines = wrap(title, o.width).map((l) => paint(['bold', style], l));
  const k = report.context.cluster;
  if (k?.context || k?.server) {
    const own = k.name && k.name !== k.context && k.name !== k.server ? `${k.name}: ` : '';
    lines.push(...wrap(`Cluster ${own}${[k.context, k.server].filter(Boolean).join(' at ')}`, o.width));
  }
  const check = fails ? `The check fails: ${report.failures.join('; ')}.` : 'The check passes.';
  lines.push(...wrap(check, o.width));
  if (report.error && !fails) lines.push(...wrap(`Error: ${report.error}`, o.width));
  const wait = waitSentence(report);
  if (wait) lines.push(...wrap(wait, o.width));
  return lines;
}

function why(t: TargetReport): string {
  const v = verdictOf(t);
  if (v) return v.summary;
  // A namespace that went needs no reason; its note (e.g. recreated) is still worth a line.
  const gone = t.outcome === 'gone' || t.outcome === 'already-gone' || t.outcome === 'forced';
  return [t.note, gone ? '' : conditionWords(t.conditions)].filter(Boolean).join('; ');
}

/**
 * Every label of a namespace, sorted, as `kubectl get --show-labels` prints them (`k=v,k2=v2`), but for
 * kubernetes.io/metadata.name, which only repeats the name.
 */
function labelsOf(t: TargetReport): string {
  const labels = Object.entries(t.labels ?? {})
    .filter(([k]) => k !== 'kubernetes.io/metadata.name')
    .map(([k, v]) => `${k}=${v}`);
  return labels.sort(compareText).join(',') || '<none>';
}

function row(t: TargetReport, paint: Paint, showLabels: boolean): Cell[] {
  const time = t.terminatingForMs ?? t.durationMs;
  return [
    { text: t.name, paint: (s) => paint('bold', s) },
    { text: OUTCOME_COUNT[t.outcome].words, paint: (s) => paint(OUTCOME_STYLE[t.outcome], s) },
    { text: [time !== undefined ? formatDuration(time) : '', settledWords(t)].filter(Boolean).join(', ') },
    { text: why(t) },
    ...(showLabels ? [{ text: labelsOf(t), paint: (s: string) => paint('dim', s) }] : []),
  ];
}

/**
 * One line per namespace, as `kubectl get` prints (the first word of each line is a name): a reason too long for
 * its column is cut there, and said in full below the table unless a cause under "Fix first" says it.
 */
function targetTable(report: RunReport, o: TextOptions, paint: Paint): string[] {
  const sorted = [...report.targets].sort(
    (a, b) => OUTCOME_COUNT[a.outcome].rank - OUTCOME_COUNT[b.outcome].rank || compareText(a.name, b.name),
  );
  const gone = sorted.filter((t) => t.outcome === 'gone' || t.outcome === 'already-gone');
  const shown = sorted.filter((t) => !gone.includes(t) || gone.indexOf(t) < GONE_ROWS);
  const header = ['NAMESPACE', 'OUTCOME', 'FOR', 'WHY', ...(o.showLabels ? ['LABELS'] : [])];
  const rows = shown.map((t) => row(t, paint, o.showLabels === true));
  const cut = new Set<TargetReport>();
  const lines = table(header, rows, o.width, (s) => paint('dim', s), {
    oneLine: true,
    cut: (i) => cut.add(shown[i]!),
    lastWhole: o.showLabels,
  });
  if (gone.length > GONE_ROWS) lines.push(`… and ${gone.length - GONE_ROWS} more gone`);
  const told = new Set(causesOf(report).flatMap((c) => c.targets));
  const full = shown.filter((t) => cut.has(t) && !told.has(t) && why(t));
  if (full.length)
    lines.push(
      '',
      paint('bold', 'Why, in full'),
      ...full.flatMap((t) => wrap(`${t.name}: ${why(t)}`, o.width - 2).map((l, i) => (i ? '  ' : '') + l)),
    );
  return lines;
}

/** A command laid out to paste: wrapped with ` \` within the line, indented, nothing else on its lines. */
export function commandLines(command: string, width: number): string[] {
  const clean = command
    .split('\n')
    .map((l) => visible(l))
    .join('\n');
  return layoutScript(clean, width)
    .split('\n')
    .map((l) => (l ? `${INDENT}${l}` : l));
}

function causeLines(cause: Cause, n: number, o: TextOptions, paint: Paint): string[] {
  const inner = o.width - INDENT.length;
  const names = cause.targets.map((t) => t.name);
  const who =
    names.length === 1 ? names[0]! : `same cause in ${names.length} namespaces: ${names.join(', ')}`;
  const lines = [paint('bold', `${n}. ${wrap(who, o.width - 3).join(`\n${INDENT}`)}`)];
  const text = (s: string, style?: Style): string[] =>
    wrap(s, inner).map((l) => INDENT + (style ? paint(style, l) : l));
  lines.push(...text(cause.summary));
  const v = cause.verdict;
  const basis = (v.basis ?? []).filter(Boolean).slice(0, 2);
  if (basis.length) lines.push(...text(`Evidence (read in this run): ${basis.join(' · ')}`));
  if (v.owner?.detail && !basis.includes(v.owner.detail))
    lines.push(...text(`Owner: ${v.owner.controller} — ${v.owner.detail}.`, 'dim'));
  if (cause.command) lines.push('', ...commandLines(cause.command, inner), '');
  else if (cause.lookups.length)
    lines.push(...text('To look closer:'), '', ...commandLines(cause.lookups.join('\n'), inner), '');
  if (v.remedy.note) lines.push(...text(v.remedy.note, 'dim'));
  if (cause.lastResort) {
    lines.push(...text(`Last resort, not the fix — ${cause.lastResort.risk}`, 'yellow'));
    lines.push('', ...commandLines(cause.lastResort.command, inner), '');
  }
  if (v.remedy.policy)
    lines.push(...text(`The command line can do this itself: ${policyFlags(v.remedy.policy)}`, 'dim'));
  return lines;
}

/**
 * A force policy in the action's words (`force-finalizers: a, b`, `force-finalize-namespace: true`) as the command
 * line's flags, with the `--force on` every one of them needs.
 */
function policyFlags(policy: string): string {
  const m = /^([a-z-]+): (.+)$/.exec(policy);
  if (!m) return policy;
  const value = m[2]!.split(/,\s*/).join(',');
  // A glob (`kiali.io/*`) is quoted, so a shell passes it as typed.
  const arg = /^[\w./,:=-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
  return `--force on --${m[1]}${value === 'true' ? '' : ` ${arg}`}`;
}

function forcingLines(report: RunReport, o: TextOptions): string[] {
  const lines: string[] = [];
  for (const t of report.targets)
    for (const a of t.force?.audit ?? []) {
      // What the step removed, as the answer shows it; what it set out to remove when the answer shows it kept.
      const kept = a.result === 'not-removed';
      const removed = kept ? a.allowed.map((r) => r.finalizer) : a.before.filter((f) => !a.after.includes(f));
      const what = a.field === 'pod' ? 'pod deleted' : `${a.field} −${removed.join(' −')}`;
      lines.push(...wrap(`${t.name}: ${a.object} ${what} · ${resultText(a)}`, o.width));
      if (a.result === 'not-removed' && a.putBack)
        lines.push(
          ...wrap(
            `${whoPutBack(a.putBack)}; fix that, not the finalizer: ${a.putBack.remedy}`,
            o.width - 3,
          ).map((l) => `${INDENT}${l}`),
        );
    }
  return lines.length ? ['Forcing', ...lines] : [];
}

/** The GitOps owners suspended or deleted first (`--gitops-owners`), one line each. */
function ownerLines(report: RunReport, o: TextOptions): string[] {
  const owners = report.lifecycle?.owners ?? [];
  const lines = owners.flatMap((a) => wrap(`${a.owner}: ${a.outcome} — ${a.note}`, o.width));
  return lines.length ? ['GitOps owners first', ...lines] : [];
}

/** Render the report for a terminal `width` cells wide; nothing in it is markup, nothing wider than the width. */
export function renderText(report: RunReport, o: TextOptions): string {
  const width = Math.max(40, Math.floor(o.width));
  const opts = { ...o, width };
  const paint = painter(o.color);
  const blocks: string[][] = [headline(report, opts, paint)];
  blocks.push(...planLines(report, width, (t) => paint('bold', t)));
  if (report.targets.length) blocks.push(targetTable(report, opts, paint));
  const causes = causesOf(report);
  if (causes.length) {
    const fix = causes.flatMap((c, i) => ['', ...causeLines(c, i + 1, opts, paint)]);
    blocks.push([paint('bold', 'Fix first'), ...fix]);
  }
  const unread = notReadLines(report, width, (t) => paint('bold', t));
  if (unread.length) blocks.push(unread);
  const owners = ownerLines(report, opts);
  if (owners.length) blocks.push(owners);
  const forcing = forcingLines(report, opts);
  if (forcing.length) blocks.push(forcing);
  if (o.reportPath) blocks.push(wrap(`Everything else is in the JSON report: ${o.reportPath}`, width));
  const text = blocks.map((b) => b.join('\n').replace(/\n{3,}/g, '\n\n')).join('\n\n');
  // The CLI may run inside a workflow step: no line of it may start a workflow command.
  return `${breakCommands(text)}\n`;
}
