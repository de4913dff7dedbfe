/**
 * "Predicted before deleting": one line per prediction, grouped over the namespaces it held for, with whether it came
 * true; and one notice annotation per certain hang. Pure.
 */
import type { Prediction, Settlement } from '../model/prevention.js';
import type { RunReport } from '../model/run.js';
import { listNames } from './brief.js';
import { md } from './escape.js';

/** At most this many prediction lines; the rest are in the JSON report. */
const MAX_LINES = 20;
/** At most this many namespaces named on one line. */
const MAX_NAMES = 8;

const RESULT_WORDS: Record<Settlement, string> = {
  'came-true': 'came true',
  'did-not-happen': 'did not happen',
  avoided: 'avoided',
  unknown: 'cannot tell',
};

interface Group {
  prediction: Prediction;
  /** Namespace → its prediction (settled). */
  namespaces: { name: string; p: Prediction }[];
}

/** The summary with the namespace's own name replaced, so one line can stand for several namespaces. */
const generic = (p: Prediction, ns: string): string => p.summary.split(`${ns}/`).join('‹namespace›/');

/** Predictions grouped by what they say, certain hangs first, in a stable order. */
export function groupPredictions(report: RunReport): Group[] {
  const groups = new Map<string, Group>();
  for (const t of report.targets) {
    for (const p of t.preMortem?.predictions ?? []) {
      const key = `${p.key}\u0000${generic(p, t.name)}`;
      const g = groups.get(key) ?? { prediction: { ...p, summary: generic(p, t.name) }, namespaces: [] };
      g.namespaces.push({ name: t.name, p });
      groups.set(key, g);
    }
  }
  return [...groups.values()].sort(
    (a, b) =>
      Number(b.prediction.hang) - Number(a.prediction.hang) || b.namespaces.length - a.namespaces.length,
  );
}

function names(list: readonly string[]): string {
  return listNames(
    list.map((n) => md(n, 80)),
    MAX_NAMES,
  );
}

/** `→ came true: stuck on it` when all agree, else `came true: a, b · did not happen: c`. */
function outcomeWords(g: Group): string {
  const byResult = new Map<Settlement, string[]>();
  for (const { name, p } of g.namespaces) {
    const r = p.settled?.result ?? 'unknown';
    byResult.set(r, [...(byResult.get(r) ?? []), name]);
  }
  if (byResult.size === 1) {
    const first = g.namespaces[0]!.p.settled;
    const words = first ? first.words.replace(/ in [\d.]+ ?\w+$/, '') : 'cannot tell';
    return `${names(g.namespaces.map((n) => n.name))} → ${md(words, 120)}`;
  }
  return [...byResult].map(([r, list]) => `${RESULT_WORDS[r]}: ${names(list)}`).join(' · ');
}

/** The section, or '' when nothing was predicted. */
export function renderPredictions(report: RunReport): string {
  const groups = groupPredictions(report);
  if (groups.length === 0) return '';
  const lines = groups.slice(0, MAX_LINES).map((g) => {
    const icon = g.prediction.hang ? '🔮' : '⏳';
    return `- ${icon} ${md(g.prediction.summary, 300)} — ${outcomeWords(g)}`;
  });
  if (groups.length > MAX_LINES) lines.push(`- … and ${groups.length - MAX_LINES} more in the JSON report`);
  return ['### Predicted before deleting', '', ...lines].join('\n');
}
