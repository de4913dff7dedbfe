/** The pull-request comment's body: the headline, what to fix first, and a link to the run. Pure. */
import type { RunReport, TargetReport } from '../outcome.js';
import { md } from './escape.js';
import { sweepCounts } from './sweep.js';

/** A fence longer than any backtick run in `text`, so cluster text cannot close it. */
function fenced(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}sh\n${text}\n${fence}`;
}

function headline(report: RunReport): string {
  const counts = new Map<string, number>();
  for (const t of report.targets) counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1);
  const parts = [...counts.entries()].sort().map(([o, n]) => `${n} ${o}`);
  if (report.sweep) parts.push(`sweep: ${sweepCounts(report.sweep)}`);
  const verdict = report.failures.length
    ? `**${report.result} — the check fails:** ${report.failures.map((f) => md(f, 300)).join('; ')}`
    : `**${report.result}**`;
  return `### Namespace teardown: ${parts.join(', ') || 'no targets'}\n\n${verdict}`;
}

function fixOne(t: TargetReport): string {
  const top = t.findings[0];
  const verdict = top
    ? md(top.summary, 300)
    : t.outcome === 'stuck'
      ? 'still Terminating; nothing found'
      : t.outcome;
  const commands = top?.remedy.commands ?? [];
  const block = commands.length ? `\n\n${fenced(commands.join('\n'))}` : '';
  return `**${md(t.name, 80)}** (${t.outcome}): ${verdict}${block}`;
}

function fixFirst(report: RunReport): string {
  const needing = report.targets.filter(
    (t) => t.outcome === 'stuck' || t.outcome === 'forced' || t.findings.some((f) => f.leaked),
  );
  if (needing.length === 0) return '';
  return ['#### Fix first', ...needing.map(fixOne)].join('\n\n');
}

/** The comment body (without the hidden marker, which the poster adds). */
export function renderComment(report: RunReport): string {
  const run = report.context.runUrl
    ? `[Workflow run and full summary](${encodeURI(report.context.runUrl)})`
    : '';
  return [headline(report), fixFirst(report), run].filter((s) => s.length > 0).join('\n\n') + '\n';
}
