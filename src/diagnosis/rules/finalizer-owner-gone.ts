/** Rule: for each finalizer left, whether its controller is at work, waiting, deadlocked or gone. Pure. */
import { compareText } from '../../shared/compare.js';
import { BUILT_IN_FINALIZERS, isBuiltInFinalizer, objectTarget, waitingReason } from '../finalizers.js';
import { holderPhrase, listedEvidence, removalCommands } from '../holders.js';
import { builtInActor, heldBy, releaseVerdict, type Actor } from '../actors/index.js';
import { objectLabel, stampWithAge } from '../refs.js';
import { resourceName } from '../../kube/paths.js';
import { forceFinalizersPolicy } from '../remedy.js';
import type { Evidence, Finding, Leftover } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import type { RuleId } from './ids.js';
import { actorRecord, verdictParts } from './owner-verdict.js';

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
    const objects = (holders.get(f) ?? []).sort((a, b) =>
      compareText(objectLabel(a.resource, a.meta.name), objectLabel(b.resource, b.meta.name)),
    );
    return isBuiltInFinalizer(f) ? builtIn(s, f, objects) : custom(s, f, objects);
  });
}

function holderEvidence(s: Snapshot, f: string, objects: Leftover[]): Evidence[] {
  return listedEvidence(objects, (l) => [
    {
      object: objectLabel(l.resource, l.meta.name),
      field: 'metadata.finalizers',
      value: `${f}; deletionTimestamp ${l.meta.deletionTimestamp ? stampWithAge(l.meta.deletionTimestamp, s.takenAt) : '(not set)'}`,
    },
  ]);
}

/** The types holding a finalizer, sorted: part of what the cause is. */
const typesOf = (objects: Leftover[]): string[] =>
  [...new Set(objects.map((l) => resourceName(l.resource)))].sort();

/** A built-in finalizer: its actor is Kubernetes' own controller, alive by its Lease or pod as read in this run. */
function builtIn(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const controller = BUILT_IN_FINALIZERS[f] ?? 'kube-controller-manager';
  const actor = builtInActor(s, f, controller);
  const reasons = objects.map((l) => waitingReason(s, l, f));
  const stuck = objects.filter((_, i) => reasons[i] === undefined);
  const waitingEvidence = listedEvidence(
    objects.filter((_, i) => reasons[i]),
    (l) => [
      {
        object: objectLabel(l.resource, l.meta.name),
        field: `waiting on ${f}`,
        value: waitingReason(s, l, f) ?? '',
      },
    ],
  );
  const alive = actor.liveness.evidence;
  const base = {
    id: ID,
    evidence: [
      ...holderEvidence(s, f, objects),
      ...waitingEvidence,
      { object: 'actor', field: actor.name, value: `${actor.link}; ${alive.join('; ')}` },
    ],
    objects: objects.length,
    targets: objects.map((l) => objectTarget(s, l)),
    actors: [actorRecord(actor)],
  };
  const present = actor.liveness.state === 'unknown' ? ('unknown' as const) : actor.liveness.state === 'live';
  const owner = { controller: `${controller}`, present, ...(alive[0] ? { detail: alive[0] } : {}) };
  if (stuck.length === 0 && actor.liveness.state !== 'down') {
    const sure = actor.liveness.state === 'live';
    return {
      ...base,
      severity: sure ? 'notice' : 'warning',
      verdict: sure ? 'waiting' : 'unknown',
      basis: [reasons[0] ?? '', ...alive.slice(0, 1)],
      leaked: false,
      cause: `builtin-finalizer:${f}|${typesOf(objects).join(',')}|waiting|${actor.liveness.state}`,
      summary: `${f} on ${holderPhrase(objects)} is waiting, not leaked: ${reasons[0] ?? ''}${sure ? '' : `; whether ${actor.name} runs could not be told`}`,
      causeSummary: `${f} on ${typesOf(objects).join(', ')} objects is waiting, not leaked`,
      owner,
      remedy: {
        commands: [],
        note: 'Let it finish: the finalizer goes away on its own once what it waits for is gone.',
      },
    };
  }
  return builtInStuck(s, f, stuck.length ? stuck : objects, actor, { ...base, owner });
}

/** A built-in finalizer with nothing visible to wait for, or whose controller is not alive. */
function builtInStuck(
  s: Snapshot,
  f: string,
  stuck: Leftover[],
  actor: Actor,
  base: Omit<Finding, 'severity' | 'cause' | 'summary' | 'remedy' | 'leaked'>,
): Finding {
  const removal = removalCommands(stuck, [f], s.namespace.name);
  const state = actor.liveness.state;
  const alive = actor.liveness.evidence;
  // No cloud controller at all: nothing will ever remove load-balancer-cleanup.
  const leaked = state === 'down' && actor.name !== 'kube-controller-manager';
  const words =
    state === 'live'
      ? `nothing visible to wait for; ${actor.name} is alive (${alive[0] ?? ''}) but has not removed it`
      : state === 'down'
        ? `${leaked ? 'leaked' : 'down'}: ${actor.name} is not alive (${alive.join('; ')}), so nothing removes it`
        : `nothing visible to wait for, and whether ${actor.name} runs could not be told (${alive.join('; ')})`;
  const verdict = leaked ? 'leaked' : state === 'down' ? 'down' : 'unknown';
  // The load balancer each Service's finalizer guards, from its status.loadBalancer: what is left in the cloud.
  const lbs = [...new Set(stuck.flatMap((l) => s.loadBalancers?.[l.meta.name] ?? []))];
  const lbWords = lbs.length ? ` (load balancer ${lbs.join(', ')})` : '';
  const left = lbs.length
    ? `its cloud load balancer ${lbs.join(', ')} is left in the cloud account: delete it there`
    : 'a cloud load balancer it created may be left; check the cloud console';
  const note = leaked
    ? `No controller that removes it runs in this cluster: removing it skips no cleanup that could still happen (${left}).`
    : `Check ${actor.name} first (its logs, or why it is not running); remove the finalizer only if it is healthy and it still stays.`;
  return {
    ...base,
    severity: state === 'down' ? 'error' : 'warning',
    verdict,
    basis: alive.slice(0, 2),
    leaked,
    cause: `builtin-finalizer:${f}|${typesOf(stuck).join(',')}|stuck|${state}`,
    summary: `${f} on ${holderPhrase(stuck)}${lbWords}: ${words}`,
    evidence: [
      ...base.evidence,
      ...stuck.flatMap((l) => {
        const at = s.loadBalancers?.[l.meta.name];
        return at
          ? [{ object: `service/${l.meta.name}`, field: 'status.loadBalancer.ingress', value: at.join(', ') }]
          : [];
      }),
    ],
    causeSummary: `${f} on ${typesOf(stuck).join(', ')} objects: ${words}`,
    remedy: leaked
      ? { commands: removal.commands, bulk: removal.bulk, policy: forceFinalizersPolicy([f]), note }
      : {
          commands: [],
          lastResort: {
            ...removal,
            risk: `${actor.name} may still be about to remove it; what ${f} protects is then not cleaned up`,
          },
          policy: forceFinalizersPolicy([f]),
          note,
        },
  };
}

function custom(s: Snapshot, f: string, objects: Leftover[]): Finding {
  const v = releaseVerdict(s, f, heldBy(objects));
  const parts = verdictParts(v, f);
  const removal = removalCommands(objects, [f], s.namespace.name);
  const who = v.kind === 'running' || v.kind === 'not-running' ? `|${parts.owner.controller}` : '';
  const going = v.typeGoing ? '|type-going' : '';
  const remedy: Finding['remedy'] =
    parts.removal === 'fix'
      ? { commands: [...parts.inspect, ...removal.commands], bulk: removal.bulk }
      : { commands: parts.inspect, lastResort: { ...removal, risk: parts.risk } };
  return {
    id: ID,
    severity: parts.severity,
    cause: `finalizer:${f}|${typesOf(objects).join(',')}|${v.kind}${who}${going}`,
    summary: `${f} on ${holderPhrase(objects)}: ${parts.phrase}`,
    // A deadlock's clue names this namespace's own controller; the shared words leave it out.
    causeSummary: `${f} on ${typesOf(objects).join(', ')} objects: ${v.kind === 'deadlock' ? 'deadlock: the controller lived in the namespace being deleted and can never remove its finalizer' : parts.phrase}`,
    verdict: parts.verdict,
    basis: parts.basis,
    actors: parts.actors,
    objects: objects.length,
    evidence: [...holderEvidence(s, f, objects), ...parts.evidence],
    owner: parts.owner,
    confidence: parts.confidence,
    remedy: {
      ...remedy,
      policy: forceFinalizersPolicy([f]),
      note: parts.note,
    },
    leaked: parts.leaked,
    targets: objects.map((l) => objectTarget(s, l)),
  };
}
