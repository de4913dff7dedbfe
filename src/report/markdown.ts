/** The job summary as markdown: pure and deterministic. */
import { formatDuration } from '../duration.js';
import type { Condition } from '../kube/port.js';
import type { Outcome, RunReport, TargetReport } from '../outcome.js';
import { html, md } from './escape.js';
import { renderFindings } from './findings.js';

/** GitHub refuses step summaries over 1 MiB; stay well under it. */
export const SUMMARY_LIMIT = 1_000_000;

const OUTCOME_WORDS: Record<Outcome, string> = {
  gone: '✅ gone',
  'already-gone': '✅ already gone',
  recreated: '♻️ recreated (new UID, untouched)',
  stuck: '❌ stuck in Terminating',
  active: '⚠️ not deleted (still Active)',
  refused: '⛔ refused (protected)',
  forced: '⚠️ forced, then gone',
  error: '❌ error',
};

/** The failing conditions in plain words, or what the healthy ones say. */
export function conditionWords(conditions: Condition[]): string {
  const failing = conditions.filter((c) => c.status === 'True' && c.message);
  if (failing.length > 0) return failing.map((c) => c.message!).join('; ');
  return conditions.length > 0 ? 'no failure reported by the namespace controller' : '';
}

function headline(report: RunReport): string {
  const counts = new Map<Outcome, number>();
  for (const t of report.targets) counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1);
  const parts = [...counts.entries()].sort().map(([o, n]) => `${n} ${o}`);
  const cancelled = report.cancelled ? ' (cancelled)' : '';
  return `## Namespace teardown${cancelled}: ${parts.join(', ') || 'no targets'}`;
}

function contextLine(report: RunReport): string {
  const c = report.context;
  const parts: string[] = [];
  if (c.repository) parts.push(`**${md(c.repository)}**`);
  if (c.pullRequest) {
    const title = c.pullRequest.title ? ` ${md(c.pullRequest.title, 120)}` : '';
    parts.push(`pull request #${c.pullRequest.number}${title}`);
  } else if (c.ref) parts.push(`ref ${md(c.ref)}`);
  if (c.sha) parts.push(`commit ${md(c.sha.slice(0, 12))}`);
  if (c.runUrl) parts.push(`[workflow run](${encodeURI(c.runUrl)})`);
  return parts.join(' · ');
}

function timeCell(t: TargetReport): string {
  if (t.durationMs !== undefined) return formatDuration(t.durationMs);
  if (t.terminatingForMs !== undefined) return `${formatDuration(t.terminatingForMs)}+`;
  return '';
}

function statusTable(targets: TargetReport[]): string {
  const rows = targets.map((t) => {
    const words = t.note ? `${t.note}${t.conditions.length ? '; ' : ''}` : '';
    const cells = [
      md(t.name, 80),
      OUTCOME_WORDS[t.outcome],
      timeCell(t),
      md(words + conditionWords(t.conditions), 600),
    ];
    return `| ${cells.join(' | ')} |`;
  });
  return ['| Namespace | Outcome | Time | Last conditions |', '| --- | --- | --- | --- |', ...rows].join(
    '\n',
  );
}

function settingsLine(report: RunReport): string {
  const s = report.settings;
  const targets = [s.namespaces.length ? `namespaces ${s.namespaces.map((n) => md(n)).join(', ')}` : ''];
  if (s.selector) targets.push(`selector <code>${html(s.selector)}</code>`);
  return (
    `<sub>${targets.filter(Boolean).join(' + ')} · delete ${s.delete} · timeout ${s.timeout} · fail-on ${s.failOn}` +
    (report.cost
      ? ` · ${report.cost.requests} API requests, ${Math.round(report.cost.bytes / 1024)} KiB`
      : '') +
    '</sub>'
  );
}

function verdictLine(report: RunReport): string {
  // The run's own error is among the failures, unless fail-on is never.
  const error = report.error ? ` ${md(report.error, 600)}` : '';
  if (report.failures.length === 0) return `**Result: ${report.result}.**${error}`;
  return `**Result: ${report.result} — the check fails:** ${report.failures.map((f) => md(f, 300)).join('; ')}`;
}

/** Render the whole summary; `overflowNote` tells where the rest went when it had to be cut. */
export function renderSummary(report: RunReport, reportPath?: string): string {
  const sections = [
    headline(report),
    contextLine(report),
    verdictLine(report),
    statusTable(report.targets),
    ...report.targets.filter((t) => t.findings.length > 0 || t.force).map(renderFindings),
    settingsLine(report),
  ].filter((s) => s.length > 0);
  let text = sections.join('\n\n') + '\n';
  if (text.length > SUMMARY_LIMIT) {
    const where = reportPath ? ` The full report is in ${md(reportPath)}.` : '';
    text = text.slice(0, SUMMARY_LIMIT - 200) + `\n\n…summary cut at GitHub's size limit.${where}\n`;
  }
  return text;
}
