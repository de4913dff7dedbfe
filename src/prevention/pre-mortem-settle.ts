/**
 * After the run: whether each prediction came true — only when the finding that held the namespace (its verdict, or
 * what forcing went past) is the predicted one; a namespace that hung on something else did not prove it. Pure.
 */
import { formatDuration } from '../shared/duration.js';
import type { Finding } from '../model/findings.js';
import type { Prediction, Settlement } from '../model/prevention.js';
import type { TargetReport } from '../model/run.js';

const settled = (result: Settlement, words: string): NonNullable<Prediction['settled']> => ({
  result,
  words,
});

/** The rule whose finding is the predicted blocker, and how its cause names the prediction's subject. */
const PREDICTED: Record<
  Prediction['kind'],
  { rule: string; names: (cause: string, subject: string) => boolean }
> = {
  leak: { rule: 'finalizer-owner-gone', names: (c, s) => c.startsWith(`finalizer:${s}|`) },
  'in-namespace-controller': {
    rule: 'finalizer-owner-gone',
    names: (c, s) => c.startsWith(`finalizer:${s}|`),
  },
  'slow-cleanup': { rule: 'finalizer-owner-gone', names: (c, s) => c.startsWith(`builtin-finalizer:${s}|`) },
  apiservice: { rule: 'apiservice-unavailable', names: (c, s) => c === `apiservice:${s}` },
  webhook: { rule: 'content-delete-refused', names: (c, s) => c.split(/[:,/]/).includes(s) },
  'lost-node': { rule: 'pods-not-terminating', names: (c, s) => c.includes(s) },
};

/** Whether a finding is the blocker the prediction named. */
function isPredicted(p: Prediction, f: Finding | undefined): boolean {
  const want = PREDICTED[p.kind];
  return f !== undefined && f.id === want.rule && want.names(f.cause, p.subject);
}

/** The findings that held the namespace: its verdict, and the other blockers of the same rank (errors first). */
function holding(t: TargetReport): Finding[] {
  const first = t.findings[0];
  if (!first) return [];
  return t.findings.filter((f) => f.severity === first.severity && !f.generic);
}

function forcedPast(p: Prediction, t: TargetReport): boolean {
  return (t.force?.audit ?? []).some(
    (a) => a.allowed.some((r) => r.finalizer === p.subject) || a.object.includes(p.subject),
  );
}

function whenGone(p: Prediction, t: TargetReport): NonNullable<Prediction['settled']> {
  const took = t.durationMs !== undefined ? ` in ${formatDuration(t.durationMs)}` : '';
  if (p.kind === 'slow-cleanup') {
    const slow = (t.durationMs ?? 0) >= 60_000;
    return settled(slow ? 'came-true' : 'did-not-happen', `${slow ? 'came true' : 'quick'}: gone${took}`);
  }
  if (p.kind === 'in-namespace-controller' && !p.hang) {
    return settled('avoided', `avoided: its resources went first while it ran; gone${took}`);
  }
  return settled('did-not-happen', `did not happen: gone${took}`);
}

function whenStuck(p: Prediction, t: TargetReport): NonNullable<Prediction['settled']> {
  if (holding(t).some((f) => isPredicted(p, f))) return settled('came-true', 'came true: stuck on it');
  const on = t.findings[0] ? `: ${t.findings[0].summary.slice(0, 160)}` : '';
  if (p.kind === 'slow-cleanup') return settled('unknown', `stuck on something else${on}`);
  return settled('did-not-happen', `did not happen: stuck, but on something else${on}`);
}

/** The prediction with `settled` filled in from how the target ended. */
export function settle(p: Prediction, t: TargetReport): Prediction {
  switch (t.outcome) {
    case 'gone':
      return { ...p, settled: whenGone(p, t) };
    case 'forced':
      return {
        ...p,
        settled: forcedPast(p, t)
          ? settled('came-true', 'came true: it went only after forcing past it')
          : holding(t).some((f) => isPredicted(p, f))
            ? settled('came-true', 'came true: it held the namespace until forcing')
            : settled('did-not-happen', 'did not happen: forcing went past something else'),
      };
    case 'stuck':
      return { ...p, settled: whenStuck(p, t) };
    case 'planned':
      // Nothing was deleted: a prediction of a plan stays a prediction.
      return p;
    case 'recreated':
    case 'already-gone':
      return { ...p, settled: settled('unknown', 'it went away by other hands') };
    default:
      return { ...p, settled: settled('unknown', `cannot tell: the namespace ended ${t.outcome}`) };
  }
}
