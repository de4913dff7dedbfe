/** Rule: objects left in the namespace by their finalizers: which, since when, owned by whom. Pure. */
import { compareText } from '../../shared/compare.js';
import { formatSeconds } from '../../shared/duration.js';
import { objectTarget, waitingReason } from '../finalizers.js';
import { holderPhrase, listedEvidence, removalCommands } from '../holders.js';
import { objectLabel, secondsBetween, stampWithAge } from '../refs.js';
import { resourceName } from '../../kube/paths.js';
import { forceFinalizersPolicy } from '../remedy.js';
import type { Evidence, Finding, Leftover } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'object-finalizers';

/**
 * Leftover objects holding finalizers, one finding per type and finalizer list (thousands of objects with the same
 * finalizers are one finding): which, since when, owned by whom.
 */
export function objectFinalizers(s: Snapshot): Finding[] {
  const groups = new Map<string, Leftover[]>();
  for (const l of s.leftovers) {
    if (l.meta.finalizers.length === 0) continue;
    const waiting = l.meta.finalizers.filter((f) => waitingReason(s, l, f) !== undefined);
    const key = [
      resourceName(l.resource),
      [...l.meta.finalizers].sort().join(','),
      waiting.sort().join(','),
    ].join('|');
    const list = groups.get(key);
    if (list) list.push(l);
    else groups.set(key, [l]);
  }
  return [...groups.keys()].sort().map((k) =>
    oneGroup(
      s,
      k,
      groups
        .get(k)!
        .sort((a, b) =>
          compareText(objectLabel(a.resource, a.meta.name), objectLabel(b.resource, b.meta.name)),
        ),
    ),
  );
}

function oneGroup(s: Snapshot, key: string, objects: Leftover[]): Finding {
  const first = objects[0]!;
  const target = objectTarget(s, first);
  const removable = first.meta.finalizers.filter((f) => !target.waiting.includes(f));
  const allWaiting = removable.length === 0;
  const ages = objects.flatMap((l) => secondsBetween(l.meta.deletionTimestamp, s.takenAt) ?? []);
  const upTo = objects.length > 1 ? 'up to ' : '';
  const since =
    ages.length === 0 ? 'not deleted yet' : `deleting for ${upTo}${formatSeconds(Math.max(...ages))}`;
  const held = `holds finalizer(s) ${first.meta.finalizers.join(', ')}`;
  const subject =
    objects.length === 1
      ? `${objectLabel(first.resource, first.meta.name)} ${held}`
      : `${holderPhrase(objects)} each ${held}`;
  return {
    id: ID,
    severity: allWaiting ? 'notice' : 'warning',
    cause: `object-finalizers:${key}`,
    summary: `${subject} (${since})${allWaiting ? ', all legitimately waiting' : ''}`,
    causeSummary: `${resourceName(first.resource)} objects hold finalizer(s) ${first.meta.finalizers.join(', ')}${allWaiting ? ', all legitimately waiting' : ''}`,
    objects: objects.length,
    evidence: listedEvidence(objects, (l) => objectEvidence(s, l, target.waiting)),
    remedy: allWaiting
      ? {
          commands: [],
          note: 'Built-in finalizers waiting on something real; removing them would break what they protect.',
        }
      : {
          commands: [],
          lastResort: {
            ...removalCommands(objects, removable, s.namespace.name),
            risk: 'removing a finalizer skips its controller’s cleanup; see finalizer-owner-gone for whether that controller still runs',
          },
          policy: forceFinalizersPolicy(removable),
          note: 'Whether to remove them depends on their controller: see finalizer-owner-gone.',
        },
    leaked: false,
    targets: objects.map((l) => objectTarget(s, l)),
  };
}

function objectEvidence(s: Snapshot, l: Leftover, waiting: string[]): Evidence[] {
  const ref = objectLabel(l.resource, l.meta.name);
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
