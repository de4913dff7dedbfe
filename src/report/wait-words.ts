/** What ended the wait, in words: settled (and why nothing will change what is left), or the timeout. Pure. */
import type { Finding } from '../model/findings.js';
import type { RunReport, TargetReport } from '../model/run.js';
import { formatDuration } from '../shared/duration.js';

/** Reasons (or namespaces still waited for) named in the sentence; the rest are counted. */
const SHOWN = 3;

/** `settled` for a target whose wait ended settled before the timeout (the tables show its time), '' otherwise. */
export function settledWords(t: Pick<TargetReport, 'settled'>): string {
  return t.settled ? 'settled' : '';
}

/** What settled a target, when the verdict shown for it does not already say it (its words are the same). */
export function settledReason(
  t: Pick<TargetReport, 'settled'>,
  shown: Pick<Finding, 'summary' | 'causeSummary'> | undefined,
): string {
  const reason = t.settled?.reason ?? '';
  return reason === shown?.causeSummary || reason === shown?.summary ? '' : reason;
}

/** Names grouped by the same text, in order of first appearance: `a, b: text`. */
function grouped(pairs: { name: string; text: string }[]): string[] {
  const by = new Map<string, string[]>();
  for (const p of pairs) by.set(p.text, [...(by.get(p.text) ?? []), p.name]);
  const lines = [...by].slice(0, SHOWN).map(([text, names]) => `${names.join(', ')}: ${text}`);
  const more = by.size - SHOWN;
  return more > 0 ? [...lines, `and ${more} more`] : lines;
}

/**
 * The sentence saying what ended the wait, plain text (the caller escapes it), or '' when nothing was left to wait
 * for: settled (when, and why nothing in the cluster will change what holds each one), or the timeout (and, under
 * `wait: settled`, why what was left was not settled).
 */
export function waitSentence(report: Pick<RunReport, 'wait' | 'targets' | 'settings'>): string {
  const w = report.wait;
  if (!w || w.ended === 'gone' || w.ended === 'cancelled') return '';
  const timeout = report.settings.timeout;
  if (w.ended === 'settled') {
    const left = report.targets.filter((t) => t.settled);
    const quiet = Math.min(...left.map((t) => t.settled!.quietMs));
    const lead = `The wait ended settled after ${formatDuration(w.afterMs)}, not at the ${timeout} timeout: nothing in the cluster will change what holds`;
    if (left.length === 1)
      return `${lead} ${left[0]!.name} (unchanged for ${formatDuration(quiet)}): ${left[0]!.settled!.reason}.`;
    const why = grouped(left.map((t) => ({ name: t.name, text: t.settled!.reason })));
    return `${lead} them (each unchanged for ${formatDuration(quiet)} or more) — ${why.join('; ')}.`;
  }
  if (w.mode === 'timeout') return `The wait ran to the ${timeout} timeout (wait: timeout).`;
  const held = report.targets.filter((t) => t.notSettled);
  if (held.length === 0) return `The wait ran to the ${timeout} timeout.`;
  const why = grouped(held.map((t) => ({ name: t.name, text: t.notSettled! })));
  return `The wait ran to the ${timeout} timeout, for what was not settled — ${why.join('; ')}.`;
}
