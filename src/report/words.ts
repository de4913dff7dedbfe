/** Plain words for what the namespace controller reports, and for each outcome. Pure. */
import type { Condition } from '../model/cluster.js';
import { mayRecreate, recreatesIt } from '../diagnosis/index.js';
import type { Outcome, TargetReport } from '../model/run.js';

/** The failing conditions in plain words, or what the healthy ones say. */
export function conditionWords(conditions: Condition[]): string {
  const failing = conditions.filter((c) => c.status === 'True' && c.message);
  if (failing.length > 0) return failing.map((c) => c.message!).join('; ');
  return conditions.length > 0 ? 'no failure reported by the namespace controller' : '';
}

/** An outcome in words: in the table of targets, and in the sweep's table of the namespaces it chose. */
export const OUTCOME_WORDS: Record<Outcome, { target: string; swept: string }> = {
  gone: { target: '✅ gone', swept: '✅ went' },
  'already-gone': { target: '✅ already gone', swept: '✅ went (already gone)' },
  recreated: { target: '♻️ recreated (new UID, untouched)', swept: '♻️ recreated, untouched' },
  stuck: { target: '❌ stuck', swept: '❌ stuck' },
  active: { target: '⚠️ not deleted (still Active)', swept: '⚠️ not deleted' },
  refused: { target: '⛔ refused, not touched', swept: '⛔ refused, untouched' },
  forced: { target: '⚠️ forced, then gone', swept: '⚠️ went after forcing' },
  error: { target: '❌ error', swept: '❌ error' },
  planned: { target: '📝 planned (dry run, nothing changed)', swept: '📝 planned, nothing changed' },
};

/** A target's outcome in the table: a namespace gone only to be applied again says so, never just "gone". */
export function targetWords(t: Pick<TargetReport, 'outcome' | 'findings'>): string {
  if (t.findings.some(recreatesIt) && t.outcome !== 'stuck') return '♻️ gone, a live owner applies it again';
  if (t.findings.some(mayRecreate) && t.outcome !== 'stuck')
    return '♻️ gone, an owner may apply it again (whether it runs is unknown)';
  return OUTCOME_WORDS[t.outcome].target;
}
