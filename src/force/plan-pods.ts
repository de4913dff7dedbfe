/** Step 0 of the plan: pods whose node is lost, and whether force-delete-pods allows deleting them now. Pure. */
import type { Finding, ForceTarget } from '../model/findings.js';
import { compareText } from '../shared/compare.js';
import { formatDuration } from '../shared/duration.js';
import { objectLabel } from '../diagnosis/index.js';
import { type PodDeleteStep, type Refusal } from '../model/force.js';
import { sorted } from './plan-objects.js';

/**
 * How long a node must have been NotReady (Ready `Unknown` or `False`) before its pods count as lost: the
 * `tolerationSeconds: 300` Kubernetes gives every pod for `node.kubernetes.io/unreachable` and `not-ready`, after
 * which it evicts them itself. A node gone from the API counts at once.
 */
export const NODE_LOST_AFTER_MS = 5 * 60_000;

/** What deleting a pod without the kubelet's confirmation risks. */
export const POD_DELETE_RISK =
  'the pod is removed from the API without its kubelet confirming that its containers stopped: on a node that is ' +
  'only partitioned they may keep running, a StatefulSet may start a second pod with the same identity, and ' +
  'volumes may stay attached';

const PODS = { group: '', version: 'v1', resource: 'pods', kind: 'Pod' } as const;

/** A terminating pod on a node that is gone or NotReady, as findings name it. */
export type LostPod = Omit<Extract<ForceTarget, { kind: 'pod-on-lost-node' }>, 'kind'> & {
  label: string;
  findings: Finding[];
};

/** Pods named by `pod-on-lost-node` targets, merged by UID and sorted by name. */
export function lostPods(findings: readonly Finding[]): LostPod[] {
  const byUid = new Map<string, LostPod>();
  for (const f of findings) {
    for (const t of f.targets ?? []) {
      if (t.kind !== 'pod-on-lost-node') continue;
      const { kind: _, ...pod } = t;
      const known = byUid.get(t.uid) ?? { ...pod, label: objectLabel(PODS, t.name), findings: [] };
      if (!known.findings.includes(f)) known.findings.push(f);
      byUid.set(t.uid, known);
    }
  }
  return [...byUid.values()].sort((a, b) => compareText(a.name, b.name) || compareText(a.uid, b.uid));
}

/** How the node of `pod` is lost, in words. */
export function nodeLoss(pod: LostPod): string {
  return pod.nodeExists
    ? `its node ${pod.node} is NotReady (Ready=${pod.ready})`
    : `its node ${pod.node} is gone from the API`;
}

/** How long the node has been lost, or undefined when that cannot be told (no Ready transition time). */
function lostForMs(pod: LostPod, now: number): number | undefined {
  if (!pod.nodeExists) return Infinity;
  const since = pod.readySince === undefined ? NaN : Date.parse(pod.readySince);
  return Number.isNaN(since) ? undefined : Math.max(0, now - since);
}

/** The plan for pods on lost nodes: steps, refusals, and those still inside the node-lost threshold. */
export interface PodPlan {
  steps: PodDeleteStep[];
  refusals: Refusal[];
  notes: string[];
  /** UIDs of pods that are deleted by a step or will be once the threshold passes: not /finalize reasons. */
  handled: Set<string>;
  /** Until the earliest pending pod passes the threshold. */
  waitMs?: number;
}

function step(namespace: string, pod: LostPod): PodDeleteStep {
  return {
    kind: 'pod-delete',
    object: pod.label,
    field: 'pod',
    finalizers: [],
    remove: [],
    keep: [],
    findings: sorted(pod.findings.map((f) => f.id)),
    reason: `${pod.label} cannot finish terminating: ${nodeLoss(pod)}`,
    namespace,
    name: pod.name,
    uid: pod.uid,
    node: pod.node,
    allowedBy: { input: 'force-delete-pods', value: 'lost-nodes' },
    risk: POD_DELETE_RISK,
  };
}

/** Step 0: with `lost-nodes`, delete each pod whose node is gone or NotReady for NODE_LOST_AFTER_MS. */
export function planPods(
  mode: 'off' | 'lost-nodes',
  namespace: string,
  pods: readonly LostPod[],
  now: number,
): PodPlan {
  const plan: PodPlan = { steps: [], refusals: [], notes: [], handled: new Set() };
  for (const pod of pods) {
    if (mode === 'off') {
      plan.refusals.push({
        object: pod.label,
        reason: `${nodeLoss(pod)}, so no kubelet will confirm it stopped; force-delete-pods is off`,
        remedy: `set force-delete-pods: lost-nodes to delete it with grace period 0 (risk: ${POD_DELETE_RISK}), or bring the node back`,
      });
      continue;
    }
    const lostFor = lostForMs(pod, now);
    if (lostFor !== undefined && lostFor >= NODE_LOST_AFTER_MS) {
      plan.steps.push(step(namespace, pod));
      plan.handled.add(pod.uid);
    } else if (lostFor !== undefined) {
      const left = NODE_LOST_AFTER_MS - lostFor;
      plan.handled.add(pod.uid);
      plan.waitMs = Math.min(plan.waitMs ?? Infinity, left);
      plan.notes.push(
        `${pod.label}: ${nodeLoss(pod)} for ${formatDuration(lostFor)}; force-delete-pods deletes it once the node has been lost for ${formatDuration(NODE_LOST_AFTER_MS)} (${formatDuration(left)} left)`,
      );
    } else {
      plan.notes.push(
        `${pod.label}: ${nodeLoss(pod)} since an unknown time (no Ready transition time), so it is not deleted`,
      );
    }
  }
  return plan;
}
