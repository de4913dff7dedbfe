/**
 * What a later forcing pass does not try again: a removal the server answered, twice, with the finalizer still there
 * is refused with who put it back and what to change, and /finalize is refused around it (it would strand what that
 * webhook or controller insists on). Pure.
 */
import type { AuditEntry, ForceStep, PutBack, Refusal } from '../model/force.js';
import { sorted } from './plan-objects.js';
import { whoInShort } from './put-back-words.js';

/** The planned part of one kind of step, as `decide` builds it. */
interface Planned<S extends ForceStep> {
  step?: S;
  refusals: Refusal[];
  keep?: string[];
}

/** The put-back entry of an earlier pass for this object and field. */
const putBackOf = (held: readonly AuditEntry[], step: ForceStep): PutBack | undefined => {
  const e = held.find(
    (x) => x.object === step.object && x.field === step.field && x.result === 'not-removed',
  );
  return e?.result === 'not-removed' ? e.putBack : undefined;
};

function refusalOf(step: ForceStep, finalizer: string, p: PutBack): Refusal {
  return {
    object: step.object,
    finalizer,
    reason: `not written again: the server answered ${p.writes} write(s) removing it with it still in ${p.field}, put back by ${whoInShort(p)}`,
    remedy: `fix ${whoInShort(p)}, not the finalizer (see finalizer-put-back)`,
  };
}

/** The plan without what an earlier pass found put back: refused, kept, and the step dropped when nothing is left. */
export function withoutPutBack<S extends ForceStep, P extends Planned<S>>(
  plan: P,
  held: readonly AuditEntry[],
): P {
  const step = plan.step;
  const p = step && putBackOf(held, step);
  if (!step || !p) return plan;
  const back = step.remove.filter((r) => p.kept.includes(r.finalizer));
  if (back.length === 0) return plan;
  const remove = step.remove.filter((r) => !p.kept.includes(r.finalizer));
  const kept = back.map((r) => r.finalizer);
  const { step: _dropped, ...rest } = plan;
  const next = remove.length ? { ...step, remove, keep: sorted([...step.keep, ...kept]) } : undefined;
  return {
    ...rest,
    ...(next ? { step: next } : {}),
    refusals: [...plan.refusals, ...back.map((r) => refusalOf(step, r.finalizer, p))],
    ...(plan.keep ? { keep: sorted([...plan.keep, ...kept]) } : {}),
  } as P;
}

/** /finalize refused around what an earlier pass found put back: it would go around what insists on it. */
export function finalizeAround<P extends Planned<ForceStep>>(plan: P, held: readonly AuditEntry[]): P {
  const step = plan.step;
  if (!step) return plan;
  const other = held.find(
    (e) => e.result === 'not-removed' && !(e.object === step.object && e.field === step.field),
  );
  const p = other?.result === 'not-removed' ? other.putBack : undefined;
  if (!other || !p) return plan;
  const { step: _dropped, ...rest } = plan;
  const refusal: Refusal = {
    object: step.object,
    reason: `/finalize would go around ${whoInShort(p)}, which puts ${p.kept.join(', ')} back on ${other.object}: what it insists on would stay in storage`,
    remedy: `fix ${whoInShort(p)} first (see finalizer-put-back)`,
  };
  return { ...rest, refusals: [...plan.refusals, refusal] } as P;
}
