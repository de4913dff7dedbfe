/**
 * Plan mode's word on forcing: for each hang the pre-mortem predicts, whether the force policy would let forcing get
 * past it once the namespace hangs. A prediction from an Active namespace, never a plan: forcing decides only on what
 * it reads once the namespace is Terminating past `force-after`. Pure.
 */
import type { ForcePolicy } from '../model/force.js';
import type { ForcingForecast } from '../model/plan.js';
import type { Prediction } from '../model/prevention.js';
import { Inputs } from '../settings/action-names.js';
import { formatDuration } from '../shared/duration.js';
import { judge } from './judge.js';
import { NODE_LOST_AFTER_MS } from './plan-pods.js';

const FINALIZE = `${Inputs.forceFinalizeNamespace}: true`;

/** The last resort for a hang no finalizer removal can end, in words, allowed or not. */
function lastResort(policy: ForcePolicy, p: Prediction, why: string): ForcingForecast {
  if (policy.finalizeNamespace)
    return {
      about: p.subject,
      would: true,
      words: `${why}: only the last resort would finish it, a PUT to /finalize (${FINALIZE}), which leaves what is still in the namespace in storage`,
    };
  return {
    about: p.subject,
    would: false,
    words: `${why}; ${Inputs.forceFinalizeNamespace} is false: nothing would be forced`,
  };
}

/** What forcing would do about one predicted hang. */
function forecastOne(policy: ForcePolicy, p: Prediction): ForcingForecast {
  const after = formatDuration(policy.afterMs);
  const objects = `${p.objects.length} object${p.objects.length === 1 ? '' : 's'}`;
  switch (p.kind) {
    case 'leak':
    case 'in-namespace-controller': {
      const verdict = judge(p.subject, false, policy.finalizerPatterns);
      if ('removal' in verdict) {
        const by =
          verdict.removal.allowedBy.input === 'force-finalizers' ? verdict.removal.allowedBy.pattern : '';
        const risk = verdict.removal.risk ? ` (risk: ${verdict.removal.risk})` : '';
        return {
          about: p.subject,
          would: true,
          words: `would remove ${p.subject} from ${objects} once they hang ${after} after the DELETE (${Inputs.forceFinalizers} "${by}")${risk}`,
        };
      }
      return {
        about: p.subject,
        would: false,
        words: `${verdict.refusal.reason}: ${verdict.refusal.remedy}`,
      };
    }
    case 'lost-node':
      return policy.deletePods === 'lost-nodes'
        ? {
            about: p.subject,
            would: true,
            words: `would delete its ${p.objects.length} pod(s) with grace period 0 once the node has been lost ${formatDuration(NODE_LOST_AFTER_MS)} (${Inputs.forceDeletePods}: lost-nodes)`,
          }
        : {
            about: p.subject,
            would: false,
            words: `${Inputs.forceDeletePods} is off: its pods would hold the namespace`,
          };
    case 'apiservice':
      return lastResort(policy, p, 'discovery fails while it is down');
    case 'webhook':
      return lastResort(policy, p, 'it refuses the deletes of what is in the namespace');
    case 'slow-cleanup':
      return { about: p.subject, would: false, words: 'slow, not stuck: nothing to force' };
  }
}

/**
 * What forcing would change about each predicted hang under `policy`, and a note when there is nothing to say for
 * each (force off, a protected namespace, nothing predicted to hang, no pre-mortem).
 */
export function forecastForcing(
  policy: ForcePolicy,
  predictions: readonly Prediction[] | undefined,
  isProtected: boolean,
): { forcing: ForcingForecast[]; forcingNote?: string } {
  if (predictions === undefined)
    return {
      forcing: [],
      forcingNote: 'no pre-mortem was read: what forcing would change cannot be foreseen',
    };
  const hangs = predictions.filter((p) => p.hang);
  if (hangs.length === 0)
    return { forcing: [], forcingNote: 'no hang is predicted: forcing would have nothing to do' };
  if (isProtected) return { forcing: [], forcingNote: 'a protected namespace is never forced' };
  if (policy.mode === 'off')
    return {
      forcing: [],
      forcingNote: `${Inputs.force} is off: a predicted hang would stay until fixed by hand`,
    };
  const forcing = hangs.map((p) => forecastOne(policy, p));
  const note =
    policy.mode === 'dry-run'
      ? `${Inputs.force} is dry-run: forcing would only be reported, never done`
      : undefined;
  return { forcing, ...(note ? { forcingNote: note } : {}) };
}
