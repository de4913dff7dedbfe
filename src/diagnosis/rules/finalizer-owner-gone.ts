import { compareText } from '../../shared/compare.js';
import { BUILT_IN_FINALIZERS, isBuiltInFinalizer, objectTarget, waitingReason } from '../finalizers.js';
import { holderPhrase, listedEvidence, removalCommands } from '../holders.js';
import { findOwner, heldBy } from '../owner.js';
import { objectRef, resourceName, stampWithAge } from '../refs.js';
import { forceFinalizersPolicy } from '../remedy.js';
import type { Evidence, Finding, Leftover } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { verdictParts } from './owner-verdict.js';

const ID: RuleId = 'finalizer-owner-gone';

/**
 * For each finalizer on leftover objects: is its controller at work, running elsewhere (waiting), deleted with this
 * very namespace (deadlock), or gone (leaked)? Built-in finalizers with something real to wait for are not leaks.
 * One finding per finalizer, however many objects hold it.
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
  return listedEvidence(objects, (l) => [
    {
      object: objectRef(l),
      field: 'metadata.finalizers',
      value: `${f}; deletionTimestamp ${l.meta.deletionTimestamp ? stampWithAge(l.meta.deletionTimestamp, s.takenAt) : '(not set)'}`,
    },
  ]);
}

/** The types holding a finalizer, sorted: part of what the cause is. */
const typesOf = (objects: Leftover[]): string[] =>
  [...new Set(objects.map((l) => resourceName(l.resource)))].sort();

function builtIn(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const controller = BUILT_IN_FINALIZERS[f] ?? 'kube-controller-manager';
  const reasons = objects.map((l) => waitingReason(s, l, f));
  const stuck = objects.filter((_, i) => reasons[i] === undefined);
  const waitingEvidence = listedEvidence(
    objects.filter((_, i) => reasons[i]),
    (l) => [{ object: objectRef(l), field: `waiting on ${f}`, value: waitingReason(s, l, f) ?? '' }],
  );
  const base = {
    id: ID,
    evidence: [...holderEvidence(s, f, objects), ...waitingEvidence],
    leaked: false,
    objects: objects.length,
    targets: objects.map((l) => objectTarget(s, l)),
  };
  if (stuck.length === 0) {
    return {
      ...base,
      severity: 'notice',
      cause: `builtin-finalizer:${f}|${typesOf(objects).join(',')}|waiting`,
      summary: `${f} on ${holderPhrase(objects)} is waiting, not leaked: ${reasons[0] ?? ''}`,
      causeSummary: `${f} on ${typesOf(objects).join(', ')} objects is waiting, not leaked`,
      owner: { controller, present: true },
      remedy: {
        commands: [],
        note: 'Let it finish: the finalizer goes away on its own once what it waits for is gone.',
      },
    };
  }
  const removal = removalCommands(stuck, [f], s.namespace.name);
  return {
    ...base,
    severity: 'warning',
    cause: `builtin-finalizer:${f}|${typesOf(stuck).join(',')}|stuck`,
    summary: `${f} on ${holderPhrase(stuck)}: nothing visible to wait for; the ${controller} should remove it`,
    causeSummary: `${f} on ${typesOf(stuck).join(', ')} objects: nothing visible to wait for; the ${controller} should remove it`,
    owner: { controller, present: 'unknown' },
    remedy: {
      commands: [],
      lastResort: {
        ...removal,
        risk: `${controller} may still be about to remove it; what ${f} protects is then not cleaned up`,
      },
      policy: forceFinalizersPolicy([f]),
      note: 'Check kube-controller-manager (and cloud-controller-manager) logs first; remove it only if they are healthy and it still stays.',
    },
  };
}

function custom(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const v = findOwner(s, f, heldBy(objects));
  const parts = verdictParts(v, f);
  const removal = removalCommands(objects, [f], s.namespace.name);
  const who = v.kind === 'running' || v.kind === 'not-running' ? `|${parts.owner.controller}` : '';
  const remedy: Finding['remedy'] =
    parts.removal === 'fix'
      ? { commands: [...parts.inspect, ...removal.commands], bulk: removal.bulk }
      : { commands: parts.inspect, lastResort: { ...removal, risk: parts.risk } };
  return {
    id: ID,
    severity: parts.severity,
    cause: `finalizer:${f}|${typesOf(objects).join(',')}|${v.kind}${who}`,
    summary: `${f} on ${holderPhrase(objects)}: ${parts.phrase}`,
    // A deadlock's clue names this namespace's own controller; the shared words leave it out.
    causeSummary: `${f} on ${typesOf(objects).join(', ')} objects: ${v.kind === 'deadlock' ? 'deadlock: the controller lived in the namespace being deleted and can never remove its finalizer' : parts.phrase}`,
    objects: objects.length,
    evidence: [...holderEvidence(s, f, objects), ...parts.evidence],
    owner: parts.owner,
    confidence: parts.confidence,
    remedy: {
      ...remedy,
      policy: forceFinalizersPolicy([f]),
      note: parts.leaked
        ? 'Its controller is gone, so nothing will ever remove this finalizer; removing it skips that controller’s cleanup (external resources it managed may be left behind).'
        : 'Wait for its controller, or fix it: removing the finalizer skips the cleanup it still intends to do.',
    },
    leaked: parts.leaked,
    targets: objects.map((l) => objectTarget(s, l)),
  };
}
