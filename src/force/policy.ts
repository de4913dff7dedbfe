/** Which forced changes are allowed: the pure decision per namespace under the user's force policy. */
import type { AuditEntry, ForcePolicy, Plan, Refusal } from '../model/force.js';
import { finalizeAround, withoutPutBack } from './plan-held.js';
import type { Finding, Leftover } from '../model/findings.js';
import { formatDuration } from '../shared/duration.js';
import { namespaceLabel } from './labels.js';
import { planFinalize } from './plan-finalize.js';
import { lostPods, planPods } from './plan-pods.js';
import { blockedObjects, planNamespaceMetadata, planObject, sorted } from './plan-objects.js';
import { Inputs } from '../settings/action-names.js';
import type { NamespaceState } from '../model/cluster.js';

type Gate = Pick<Plan, 'decision' | 'waitMs' | 'refusals' | 'notes'>;

/** The reasons to force nothing at all, checked before any finding is looked at. */
function gate(
  policy: ForcePolicy,
  ns: NamespaceState,
  now: number,
  isProtected: (name: string) => boolean,
): Gate | undefined {
  if (policy.mode === 'off')
    return { decision: 'off', refusals: [], notes: ['force is off: nothing is forced'] };
  if (isProtected(ns.name)) {
    const reason = `${ns.name} is a protected namespace; protected namespaces are never forced`;
    const refusal: Refusal = {
      object: namespaceLabel(ns.name),
      reason,
      remedy: 'resolve the findings by hand',
    };
    return { decision: 'protected', refusals: [refusal], notes: [] };
  }
  const since = ns.deletionTimestamp === undefined ? NaN : Date.parse(ns.deletionTimestamp);
  if (Number.isNaN(since)) {
    const note = `${ns.name} is not terminating (no deletionTimestamp); only a namespace being deleted is forced`;
    return { decision: 'not-terminating', refusals: [], notes: [note] };
  }
  const terminatingMs = Math.max(0, now - since);
  if (terminatingMs < policy.afterMs) {
    const waitMs = policy.afterMs - terminatingMs;
    const note = `terminating for ${formatDuration(terminatingMs)}; ${Inputs.forceAfter} is ${formatDuration(policy.afterMs)}, ${formatDuration(waitMs)} left`;
    return { decision: 'not-yet', waitMs, refusals: [], notes: [note] };
  }
  return undefined;
}

/** Notes on patterns that allowed nothing, so a typo in force-finalizers is visible. */
function patternNotes(
  patterns: readonly string[],
  plan: Pick<Plan, 'steps'>,
  blocking: readonly string[],
): string[] {
  if (blocking.length === 0) return [];
  const used = new Set(
    plan.steps.flatMap((s) =>
      s.remove.flatMap((r) => (r.allowedBy.input === 'force-finalizers' ? [r.allowedBy.pattern] : [])),
    ),
  );
  const unused = patterns.filter((p) => !used.has(p));
  const found = `blocking finalizers: ${sorted(blocking).join(', ')}`;
  if (patterns.length === 0)
    return [`${Inputs.forceFinalizers} is empty, so no finalizer may be removed; ${found}`];
  if (used.size === 0) {
    return [
      `nothing matched: no ${Inputs.forceFinalizers} pattern (${patterns.join(', ')}) allows removing a blocking finalizer; ${found}`,
    ];
  }
  return unused.map((p) => `${Inputs.forceFinalizers} pattern "${p}" matched no finalizer it may remove`);
}

/** The decision once the steps are known; `waitMs` when only pods inside the node-lost threshold remain. */
function decisionOf(
  steps: number,
  refusals: number,
  waitMs: number | undefined,
): Pick<Plan, 'decision' | 'waitMs'> {
  if (steps > 0) return { decision: 'force' };
  if (waitMs !== undefined) return { decision: 'not-yet', waitMs };
  return { decision: refusals > 0 ? 'nothing-allowed' : 'nothing-to-force' };
}

/**
 * Decide what to force for one terminating namespace: pods on lost nodes first, then object finalizers, then the
 * namespace's metadata.finalizers, then /finalize as a last resort — only what `policy` allows, never a protected
 * namespace. `leftovers` (what the scan saw) lets the plan list what /finalize would leave in storage; `putBack` (the
 * audit of earlier passes) holds back what the server put back each time, and /finalize around it.
 */
export function decide(
  policy: ForcePolicy,
  ns: NamespaceState,
  findings: readonly Finding[],
  now: number,
  isProtected: (name: string) => boolean,
  leftovers: readonly Leftover[] = [],
  putBack: readonly AuditEntry[] = [],
): Plan {
  const base = { namespace: ns.name, uid: ns.uid, mode: policy.mode, steps: [] };
  const stop = gate(policy, ns, now, isProtected);
  if (stop) return { ...base, ...stop };
  const patterns = policy.finalizerPatterns;
  const pods = planPods(policy.deletePods, ns.name, lostPods(findings), now);
  const planned = blockedObjects(findings).map((o) => planObject(o, ns.name, patterns));
  const objects = planned.map((o) => withoutPutBack(o, putBack));
  const metaPlanned = planNamespaceMetadata(ns, findings, patterns);
  const meta = withoutPutBack(metaPlanned, putBack);
  const earlier = { leftovers, podsHandled: pods.handled };
  const last = planFinalize(policy.finalizeNamespace, ns, findings, objects, meta.keep, earlier);
  const fin = finalizeAround(withoutPutBack(last, putBack), putBack);
  const steps = [
    ...pods.steps,
    ...objects.flatMap((o) => (o.step ? [o.step] : [])),
    ...(meta.step ? [meta.step] : []),
    ...(fin.step ? [fin.step] : []),
  ];
  const refusals = [
    ...pods.refusals,
    ...objects.flatMap((o) => o.refusals),
    ...meta.refusals,
    ...fin.refusals,
  ];
  const blocking = [...objects.flatMap((o) => o.object.finalizers), ...ns.metadataFinalizers];
  // A pattern that allowed a removal the server put back was used all the same.
  const allowed = [...planned, metaPlanned].flatMap((o) => (o.step ? [o.step] : []));
  const notes = [...pods.notes, ...patternNotes(patterns, { steps: allowed }, blocking), ...fin.notes];
  const decided = decisionOf(steps.length, refusals.length, pods.waitMs);
  if (decided.decision === 'nothing-to-force')
    notes.push('nothing blocks the namespace that forcing could change');
  return { ...base, ...decided, steps, refusals, notes };
}
