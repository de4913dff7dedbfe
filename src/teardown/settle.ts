/**
 * When a stuck namespace is settled under `wait: settled`: every finding's verdict is one nothing in the cluster will
 * change, forcing has nothing left to do in this run, and the namespace has been quiet long enough for its
 * controller to have passed over it again. Pure.
 */
import type { NamespaceState } from '../model/cluster.js';
import type { Finding, Leftover, Verdict } from '../model/findings.js';
import type { AuditEntry, ForcePolicy, Plan } from '../model/force.js';
import type { RuleId } from '../diagnosis/index.js';
import { decide, NODE_LOST_AFTER_MS } from '../force/index.js';
import { formatDuration } from '../shared/duration.js';

/**
 * How long neither the namespace nor its controller's conditions may change before it can be settled. A pass of the
 * namespace controller that changes nothing writes nothing, so a pass is seen only through the write it makes: a
 * new resourceVersion of the namespace (its five conditions, whose messages carry the remaining counts; their
 * lastTransitionTime moves only when a condition flips, not when a count changes, and is the server's clock in whole
 * seconds). Every write of a deleting namespace queues it again after 5 s (kube-controller-manager's fixed
 * namespaceDeletionGracePeriod), so the pass after the one that wrote starts within 5 s; the other 5 s are for that
 * pass to run (discovery and one list per type). Quiet this long means the conditions and counts one pass wrote were
 * found the same by the next one: unchanged across two passes.
 */
export const SETTLE_MS = 10_000;

/** What a finding does to the wait: ends it once nothing else holds (`settles`), keeps it (`waits`), or neither. */
export type Settling = 'settles' | 'waits' | 'neutral';

/** What each verdict does to the wait under `wait: settled`, and why: the one table the wait reads. */
export const VERDICT_SETTLING: Record<Verdict, { settling: Settling; why: string }> = {
  leaked: { settling: 'settles', why: 'no live actor can release it' },
  deadlock: {
    settling: 'settles',
    why: 'its only actor goes with the namespace (while that actor still runs, it waits: see keepsWaiting)',
  },
  down: {
    settling: 'settles',
    why: 'its actor is installed but not alive, and nothing in the cluster brings it back (a node NotReady for less than the eviction time waits: see keepsWaiting)',
  },
  'refused-on-purpose': {
    settling: 'settles',
    why: 'a policy that is up refuses the deletes: only its owner or a change of the object helps',
  },
  'cannot-evaluate': {
    settling: 'settles',
    why: 'a policy that cannot evaluate refuses the deletes: no change of the object helps',
  },
  'backend-down': {
    settling: 'settles',
    why: 'a webhook or API that must answer cannot: as for an actor that is down, only its owner brings it back',
  },
  waiting: { settling: 'waits', why: 'a live actor is working on it' },
  unknown: { settling: 'waits', why: 'what would tell whether anything releases it could not be read' },
  'outcome-unknown': { settling: 'waits', why: 'this run lost the right to look' },
  'will-recreate': {
    settling: 'neutral',
    why: 'it says what happens once the namespace is gone, not what holds it',
  },
};

/** Findings without a verdict that say the namespace is still going the normal way: they keep the wait. */
const PROGRESS: ReadonlySet<RuleId | string> = new Set<RuleId>(['still-progressing']);

/** Settled (with the verdicts and the words of what settles it), or why not, and when to look again at the latest. */
export type Settledness =
  { settled: true; verdicts: Verdict[]; reason: string } | { settled: false; why: string; lookAt?: number };

/** Why one finding keeps the wait going, whatever its verdict's row says; undefined when it does not. */
export function keepsWaiting(f: Finding, now: number): { why: string; lookAt?: number } | undefined {
  if (PROGRESS.has(f.id)) return { why: 'its content is still being removed' };
  const row = f.verdict ? VERDICT_SETTLING[f.verdict] : undefined;
  if (row?.settling === 'waits') return { why: row.why };
  // "No actor in the cluster can change it" is false while one that releases it runs (a deadlock's operator before
  // its pod is gone).
  const live = f.actors?.find((a) => a.role === 'releases' && a.live === 'live');
  if (live) return { why: `${live.name} is alive and may still release it` };
  for (const t of f.targets ?? []) {
    if (t.kind !== 'pod-on-lost-node' || !t.nodeExists) continue;
    // Kubernetes itself waits this long before it evicts the pods of a NotReady node: it may come back.
    const since = t.readySince === undefined ? NaN : Date.parse(t.readySince);
    if (Number.isNaN(since))
      return { why: `node ${t.node} is NotReady since a time not read: it may come back` };
    const lookAt = since + NODE_LOST_AFTER_MS;
    if (now < lookAt)
      return {
        why: `node ${t.node} has been NotReady for ${formatDuration(now - since)}, under the ${formatDuration(NODE_LOST_AFTER_MS)} after which Kubernetes evicts: it may come back`,
        lookAt,
      };
  }
  return undefined;
}

/**
 * Whether the namespace, as `findings` (one diagnosis, taken after it was quiet for SETTLE_MS) describe it, is
 * settled: the controller has written its conditions, no finding keeps the wait, at least one settles it, and
 * `forcing` (what forcing may still do in this run, see forcingLeft) is nothing.
 */
export function settledness(
  ns: Pick<NamespaceState, 'conditions'>,
  findings: readonly Finding[],
  now: number,
  forcing?: { why: string; lookAt?: number },
): Settledness {
  if (ns.conditions.length === 0)
    return {
      settled: false,
      why: 'the namespace controller has written no conditions: no pass of it was seen',
    };
  const settles: Finding[] = [];
  for (const f of findings) {
    const hold = keepsWaiting(f, now);
    if (hold)
      return { settled: false, why: `${hold.why} (${f.causeSummary ?? f.summary})`, lookAt: hold.lookAt };
    if (f.verdict && VERDICT_SETTLING[f.verdict].settling === 'settles') settles.push(f);
  }
  if (settles.length === 0)
    return {
      settled: false,
      why: 'no finding names what holds it with a verdict nothing in the cluster changes',
    };
  if (forcing) return { settled: false, ...forcing };
  const first = settles[0]!;
  const verdicts = [...new Set(settles.map((f) => f.verdict!))].sort();
  return { settled: true, verdicts, reason: first.causeSummary ?? first.summary };
}

/** What forcing decides from, besides the namespace and its findings. */
export interface ForcingInputs {
  policy: ForcePolicy;
  isProtected: (name: string) => boolean;
  leftovers: readonly Leftover[];
  /** The inspector's forcing passes are over (none is left in this run). */
  over: boolean;
  /** When force-after is reached (epoch ms; Infinity when force is off). */
  forceAt: number;
  /** The forced writes of this run so far: a removal the server's answer showed put back is not planned again. */
  earlier: readonly AuditEntry[];
}

/**
 * What forcing may still do in this run, or undefined when nothing: the plan as it would be with force-after reached
 * has steps (or waits for a node-lost threshold), and the forcing passes are not over. A dry run counts too: its plan
 * is what the user asked to see, at force-after.
 */
export function forcingLeft(
  ns: NamespaceState,
  findings: readonly Finding[],
  now: number,
  f: ForcingInputs,
): { why: string; lookAt?: number } | undefined {
  if (f.policy.mode === 'off' || f.over) return undefined;
  const plan = decide({ ...f.policy, afterMs: 0 }, ns, findings, now, f.isProtected, f.leftovers, f.earlier);
  if (plan.decision === 'force')
    return {
      why: `forcing (${f.policy.mode}) has ${plan.steps.length} step(s) to take at force-after`,
      lookAt: Math.max(now, f.forceAt) + 1_000,
    };
  if (plan.decision === 'not-yet')
    return {
      why: 'forcing may delete pods of a lost node once it has been lost long enough',
      lookAt: now + (plan.waitMs ?? 0),
    };
  return undefined;
}

/**
 * The plan to record when the wait ended settled before force-after: what forcing would decide then, saying it was
 * not waited for; undefined when force is off, or when that plan has steps (it could not have settled then).
 */
export function settledPlan(
  policy: ForcePolicy,
  ns: NamespaceState,
  findings: readonly Finding[],
  now: number,
  isProtected: (name: string) => boolean,
  leftovers: readonly Leftover[],
  earlier: readonly AuditEntry[] = [],
): Plan | undefined {
  if (policy.mode === 'off') return undefined;
  const plan = decide({ ...policy, afterMs: 0 }, ns, findings, now, isProtected, leftovers, earlier);
  if (plan.steps.length > 0 || plan.decision === 'force' || plan.decision === 'not-yet') return undefined;
  const after = formatDuration(policy.afterMs);
  return {
    ...plan,
    notes: [
      `settled before force-after (${after}): forcing would change nothing, so it was not waited for`,
      ...plan.notes,
    ],
  };
}
