import { compareText } from '../../shared/compare.js';
import { formatSeconds } from '../../shared/duration.js';
import { objectTarget, waitingReason } from '../finalizers.js';
import { objectRef, stampWithAge, secondsBetween } from '../refs.js';
import { forceFinalizersPolicy, patchObjectFinalizersCommand } from '../remedy.js';
import type { Evidence, Finding, Leftover, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'object-finalizers';

/** Every leftover object that holds finalizers: which, since when, owned by whom, and how to remove them. */
export function objectFinalizers(s: Snapshot): Finding[] {
  return s.leftovers
    .filter((l) => l.meta.finalizers.length > 0)
    .sort((a, b) => compareText(objectRef(a), objectRef(b)))
    .map((l) => oneObject(s, l));
}

function oneObject(s: Snapshot, l: Leftover): Finding {
  const ref = objectRef(l);
  const target = objectTarget(s, l);
  const removable = l.meta.finalizers.filter((f) => !target.waiting.includes(f));
  const age = secondsBetween(l.meta.deletionTimestamp, s.takenAt);
  const since = age === undefined ? 'not deleted yet' : `deleting for ${formatSeconds(age)}`;
  const allWaiting = removable.length === 0;
  return {
    id: ID,
    severity: allWaiting ? 'notice' : 'warning',
    summary: `${ref} holds finalizer(s) ${l.meta.finalizers.join(', ')} (${since})${allWaiting ? ', all legitimately waiting' : ''}`,
    evidence: objectEvidence(s, l, target.waiting),
    remedy: allWaiting
      ? {
          commands: [],
          note: 'Built-in finalizers waiting on something real; removing them would break what they protect.',
        }
      : {
          commands: [patchObjectFinalizersCommand(l, removable)],
          policy: forceFinalizersPolicy(removable),
          note: 'Removing a finalizer skips its controller’s cleanup; see finalizer-owner-gone for whether that controller still runs.',
        },
    leaked: false,
    targets: [target],
  };
}

function objectEvidence(s: Snapshot, l: Leftover, waiting: string[]): Evidence[] {
  const ref = objectRef(l);
  const stamp = l.meta.deletionTimestamp;
  return [
    { object: ref, field: 'metadata.finalizers', value: JSON.stringify(l.meta.finalizers) },
    {
      object: ref,
      field: 'metadata.deletionTimestamp',
      value: stamp ? stampWithAge(stamp, s.takenAt) : '(not set)',
    },
    ...l.meta.ownerReferences.map((o) => {
      const flags = `${o.controller ? ', controller' : ''}${o.blockOwnerDeletion ? ', blockOwnerDeletion' : ''}`;
      return {
        object: ref,
        field: 'metadata.ownerReferences',
        value: `${o.kind}/${o.name} (${o.apiVersion}, uid ${o.uid}${flags})`,
      };
    }),
    ...waiting.map((f) => ({ object: ref, field: `waiting on ${f}`, value: waitingReason(s, l, f) ?? '' })),
  ];
}
