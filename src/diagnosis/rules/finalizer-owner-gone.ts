import { compareText } from '../../shared/compare.js';
import { BUILT_IN_FINALIZERS, isBuiltInFinalizer, objectTarget, waitingReason } from '../finalizers.js';
import { findOwner } from '../owner.js';
import { objectRef, stampWithAge } from '../refs.js';
import { forceFinalizersPolicy, patchObjectFinalizersCommand } from '../remedy.js';
import type { Evidence, Finding, Leftover, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { verdictParts } from './owner-verdict.js';

const ID: RuleId = 'finalizer-owner-gone';

/**
 * For each finalizer on leftover objects: is its controller running elsewhere (waiting), deleted with this very
 * namespace (deadlock), or gone (leaked)? Built-in finalizers with something real to wait for are not leaks.
 */
export function finalizerOwnerGone(s: Snapshot): Finding[] {
  const holders = new Map<string, Leftover[]>();
  for (const l of s.leftovers) {
    if (l.meta.finalizers.length === 0) continue;
    for (const f of new Set(l.meta.finalizers)) {
      const list = holders.get(f);
      if (list) list.push(l);
      else holders.set(f, [l]);
    }
  }
  return [...holders.keys()].sort().map((f) => {
    const objects = (holders.get(f) ?? []).sort((a, b) => compareText(objectRef(a), objectRef(b)));
    return isBuiltInFinalizer(f) ? builtIn(s, f, objects) : custom(s, f, objects);
  });
}

function holderEvidence(s: Snapshot, f: string, objects: Leftover[]): Evidence[] {
  return objects.map((l) => ({
    object: objectRef(l),
    field: 'metadata.finalizers',
    value: `${f}; deletionTimestamp ${l.meta.deletionTimestamp ? stampWithAge(l.meta.deletionTimestamp, s.takenAt) : '(not set)'}`,
  }));
}

function refs(objects: Leftover[]): string {
  const shown = objects.slice(0, 3).map(objectRef).join(', ');
  return objects.length > 3 ? `${shown} and ${objects.length - 3} more` : shown;
}

function builtIn(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const controller = BUILT_IN_FINALIZERS[f] ?? 'kube-controller-manager';
  const reasons = objects.map((l) => waitingReason(s, l, f));
  const stuck = objects.filter((_, i) => reasons[i] === undefined);
  const waitingEvidence = objects.flatMap((l, i) =>
    reasons[i] ? [{ object: objectRef(l), field: `waiting on ${f}`, value: reasons[i] }] : [],
  );
  const base = {
    id: ID,
    evidence: [...holderEvidence(s, f, objects), ...waitingEvidence],
    leaked: false,
    targets: objects.map((l) => objectTarget(s, l)),
  };
  if (stuck.length === 0) {
    return {
      ...base,
      severity: 'notice',
      summary: `${f} on ${refs(objects)} is waiting, not leaked: ${reasons[0] ?? ''}`,
      owner: { controller, present: true },
      remedy: {
        commands: [],
        note: 'Let it finish: the finalizer goes away on its own once what it waits for is gone.',
      },
    };
  }
  return {
    ...base,
    severity: 'warning',
    summary: `${f} on ${refs(stuck)}: nothing visible to wait for; the ${controller} should remove it`,
    owner: { controller, present: 'unknown' },
    remedy: {
      commands: stuck.map((l) => patchObjectFinalizersCommand(l, [f])),
      policy: forceFinalizersPolicy([f]),
      note: 'Check kube-controller-manager (and cloud-controller-manager) logs first; remove it only if they are healthy and it still stays.',
    },
  };
}

function custom(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const groups = [...new Set(objects.map((l) => l.resource.group).filter((g) => g !== ''))].sort();
  const parts = verdictParts(findOwner(s, f, groups), f);
  return {
    id: ID,
    severity: parts.severity,
    summary: `${f} on ${refs(objects)}: ${parts.phrase}`,
    evidence: [...holderEvidence(s, f, objects), ...parts.evidence],
    owner: parts.owner,
    confidence: parts.confidence,
    remedy: {
      commands: [...parts.inspect, ...objects.map((l) => patchObjectFinalizersCommand(l, [f]))],
      policy: forceFinalizersPolicy([f]),
      note: parts.leaked
        ? 'Its controller is gone, so nothing will ever remove this finalizer; removing it skips that controller’s cleanup (external resources it managed may be left behind).'
        : 'Prefer fixing the controller: removing the finalizer skips the cleanup it still intends to do.',
    },
    leaked: parts.leaked,
    targets: objects.map((l) => objectTarget(s, l)),
  };
}
