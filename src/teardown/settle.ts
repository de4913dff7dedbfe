/** After the run: whether each prediction came true, from the target's outcome and findings. Pure. */
import { formatDuration } from '../shared/duration.js';
import type { Prediction, Settlement } from '../model/early.js';
import type { TargetReport } from '../model/run.js';

const settled = (result: Settlement, words: string): NonNullable<Prediction['settled']> => ({
  result,
  words,
});

/** Whether a finding of the final diagnosis is about the prediction's subject (finalizer, node, service, webhook). */
function mentioned(p: Prediction, t: TargetReport): boolean {
  return t.findings.some(
    (f) =>
      f.summary.includes(p.subject) ||
      f.evidence.some((e) => e.object.includes(p.subject) || e.value.includes(p.subject)),
  );
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
          : settled('came-true', 'came true: it went only after forcing'),
      };
    case 'stuck':
      if (mentioned(p, t)) return { ...p, settled: settled('came-true', 'came true: stuck on it') };
      if (p.kind === 'slow-cleanup') return { ...p, settled: settled('unknown', 'stuck on something else') };
      return { ...p, settled: settled('did-not-happen', 'did not happen: stuck, but on something else') };
    case 'recreated':
    case 'already-gone':
      return { ...p, settled: settled('unknown', 'it went away by other hands') };
    default:
      return { ...p, settled: settled('unknown', `cannot tell: the namespace ended ${t.outcome}`) };
  }
}
