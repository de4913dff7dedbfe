/**
 * What the identity could not read (403, a type that failed to list) for the terminal: on stdout beside the verdicts,
 * not only in the log, with the verdicts it leaves unknown. Pure.
 */
import type { RunReport, TargetReport } from '../model/run.js';
import { verdictOf } from './causes.js';
import { wrap } from './columns.js';

/** Unread items shown per namespace before the rest are counted (the JSON report has them all). */
const UNREAD_SHOWN = 3;

/** The verdicts what could not be read leaves unknown: findings that say so, or a verdict that is only the controller's words. */
function leftUnknown(t: TargetReport): string[] {
  const unknown = t.findings.filter((f) => f.verdict === 'unknown' || f.verdict === 'outcome-unknown');
  const said = unknown.map((f) => f.summary);
  const v = verdictOf(t);
  if (v?.generic && !unknown.includes(v))
    said.unshift(
      `what holds ${t.name}, and whether anything will release it: no finding names a culprit, only the namespace controller's words say what remains`,
    );
  return said;
}

/** What this identity could not read, per namespace, and the verdicts that leaves unknown, within `width` cells. */
export function notReadLines(report: RunReport, width: number, bold: (text: string) => string): string[] {
  const lines: string[] = [];
  const hang = (text: string, first = ''): string[] =>
    wrap(text, width - 4).map((l, i) => (i ? '    ' : first) + l);
  for (const t of report.targets) {
    const unread = t.unread ?? [];
    if (unread.length === 0) continue;
    for (const u of unread.slice(0, UNREAD_SHOWN)) lines.push(...hang(`${t.name}: ${u.what} — ${u.error}`));
    if (unread.length > UNREAD_SHOWN)
      lines.push(...hang(`${t.name}: … and ${unread.length - UNREAD_SHOWN} more in the JSON report`));
    for (const said of leftUnknown(t)) lines.push(...hang(`Unknown: ${said}`, '  '));
  }
  return lines.length ? [bold('Not read, so unknown to this diagnosis'), ...lines] : [];
}
