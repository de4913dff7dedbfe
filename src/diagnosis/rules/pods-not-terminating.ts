/** Rule: pods that cannot finish terminating (node lost or NotReady, grace period past or very long). Pure. */
import { compareText } from '../../shared/compare.js';
import { formatSeconds } from '../../shared/duration.js';
import { remainingPods } from '../finalizers.js';
import { secondsBetween } from '../refs.js';
import { forceDeletePodCommand } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding } from '../../model/findings.js';
import type { NodeState, PodState, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'pods-not-terminating';

// A grace period this long holds the rest of the namespace back (pods are deleted first) long enough to report.
const LONG_GRACE_SECONDS = 300;

const FORCE_RISK =
  'Force deletion removes the pod from the API without waiting for the kubelet: if the node is only partitioned, ' +
  'its containers may keep running (a StatefulSet may then run two pods with one identity, volumes may stay ' +
  'attached). Do it only when the node is really gone or the pod’s work is disposable. With force-delete-pods: ' +
  'lost-nodes this action does it for pods whose node is gone or NotReady for 5 minutes.';

/** Pods that cannot finish terminating (node gone or NotReady, past their grace period, very long grace), and pods-first ordering. */
export function podsNotTerminating(s: Snapshot): Finding[] {
  const pods = [...remainingPods(s)].sort((a, b) => compareText(a.name, b.name));
  const stuck = pods.flatMap((p) => stuckPod(s, p) ?? []);
  const order = podsFirst(s, pods, stuck.length);
  return order ? [...stuck, order] : stuck;
}

function stuckPod(s: Snapshot, p: PodState): Finding | undefined {
  if (!p.deletionTimestamp || p.phase === 'Succeeded' || p.phase === 'Failed') return undefined;
  const node = p.nodeName ? s.nodes.find((n) => n.name === p.nodeName) : undefined;
  const overdue = secondsBetween(p.deletionTimestamp, s.takenAt) ?? 0;
  const grace = p.terminationGracePeriodSeconds ?? 0;
  let severity: Finding['severity'] = 'warning';
  let why: string;
  let cause: string;
  let lost = false;
  const force = forceDeletePodCommand(s.namespace.name, p.name);
  const look = shellCommand('kubectl', 'describe', 'pod', p.name, '-n', s.namespace.name);
  // Force deletion is the fix only where no kubelet can confirm anything any more: the node is gone from the API.
  let remedy: Finding['remedy'] = {
    commands: [look],
    lastResort: { commands: [force], risk: KUBELET_RISK },
    note: FORCE_RISK,
  };
  if (node && !node.exists) {
    lost = true;
    severity = 'error';
    cause = `pod-node-gone:${node.name}`;
    why = `its node ${node.name} no longer exists, so no kubelet will ever confirm it stopped`;
    remedy = { commands: [force], note: FORCE_RISK };
  } else if (node && node.ready !== 'True') {
    lost = true;
    severity = 'error';
    cause = `pod-node-not-ready:${node.name}`;
    why = `its node ${node.name} is NotReady (Ready=${node.ready}), so the kubelet cannot confirm it stopped`;
    remedy = { commands: [look], lastResort: { commands: [force], risk: PARTITION_RISK }, note: FORCE_RISK };
  } else if (overdue > 0 && p.finalizers.length === 0) {
    cause = 'pod-overdue';
    why = `it is ${formatSeconds(overdue)} past its grace period on ${p.nodeName ? `node ${p.nodeName}` : 'no node'}`;
  } else if (overdue <= 0 && grace >= LONG_GRACE_SECONDS) {
    cause = 'pod-long-grace';
    why = `it has a long grace period (${grace}s), ${formatSeconds(-overdue)} left`;
  } else {
    return undefined;
  }
  // The pod's actor is its node's kubelet: a node gone or not Ready is that actor read down in this run.
  const kubelet = node
    ? `node ${node.name}: ${node.exists ? `Ready=${node.ready}${node.readySince ? ` since ${node.readySince}` : ''}` : 'gone from the API'}`
    : undefined;
  return {
    id: ID,
    severity,
    ...(lost
      ? { verdict: node?.exists ? ('down' as const) : ('leaked' as const) }
      : { verdict: 'waiting' as const }),
    basis: [
      `pod ${p.name}: deletionTimestamp ${p.deletionTimestamp}, grace ${grace}s`,
      ...(kubelet ? [kubelet] : []),
    ],
    cause,
    summary: `pod ${p.name} is not terminating: ${why}`,
    causeSummary: `pods are not terminating: ${CAUSE_WORDS[cause.split(':')[0]!] ?? why}${node ? ` (node ${node.name})` : ''}`,
    evidence: podEvidence(p, node),
    leaked: false,
    remedy,
    ...(lost && node ? { targets: [lostNodeTarget(p, node)] } : {}),
  };
}

/** The reasons in words for several pods at once (a shared cause names no pod). */
const CAUSE_WORDS: Record<string, string> = {
  'pod-node-gone': 'their node no longer exists, so no kubelet will ever confirm they stopped',
  'pod-node-not-ready': 'their node is NotReady, so the kubelet cannot confirm they stopped',
  'pod-overdue': 'they are past their grace period',
  'pod-long-grace': 'they have a long grace period',
};

const KUBELET_RISK =
  'its node is Ready, so its kubelet is still stopping the containers: force deletion removes the pod from the API before they are confirmed stopped';
const PARTITION_RISK =
  'the node may only be partitioned: its containers may keep running (a StatefulSet may then run two pods with one identity, volumes may stay attached)';

/** What the force planner needs to delete a pod whose node is lost: identity, node, and since when. */
function lostNodeTarget(p: PodState, node: NodeState): NonNullable<Finding['targets']>[number] {
  return {
    kind: 'pod-on-lost-node',
    name: p.name,
    uid: p.uid,
    node: node.name,
    nodeExists: node.exists,
    ready: node.exists ? node.ready : 'Unknown',
    ...(node.exists && node.readySince ? { readySince: node.readySince } : {}),
  };
}

function podEvidence(p: PodState, node: Snapshot['nodes'][number] | undefined): Evidence[] {
  const ref = `pods/${p.name}`;
  const evidence: Evidence[] = [
    { object: ref, field: 'metadata.deletionTimestamp', value: p.deletionTimestamp ?? '(not set)' },
    {
      object: ref,
      field: 'grace period seconds',
      value: String(p.terminationGracePeriodSeconds ?? '(unknown)'),
    },
    { object: ref, field: 'spec.nodeName', value: p.nodeName ?? '(none)' },
  ];
  if (node)
    evidence.push({
      object: `node/${node.name}`,
      field: 'Ready',
      value: node.exists ? node.ready : '(node not found)',
    });
  if (p.finalizers.length > 0)
    evidence.push({ object: ref, field: 'metadata.finalizers', value: JSON.stringify(p.finalizers) });
  return evidence;
}

/** Other content waits for the pods; on 1.33+ NamespaceContentRemaining misleadingly reads "All content successfully removed". */
function podsFirst(s: Snapshot, pods: PodState[], stuck: number): Finding | undefined {
  const others = s.leftovers.filter((l) => !(l.resource.group === '' && l.resource.resource === 'pods'));
  const misleading = s.namespace.conditions.find(
    (c) => c.type === 'NamespaceContentRemaining' && c.status === 'False',
  );
  if (pods.length === 0 || (!misleading && (stuck === 0 || others.length === 0))) return undefined;
  const evidence: Evidence[] = [
    {
      object: `namespace/${s.namespace.name}`,
      field: 'pods remaining',
      value: pods.map((p) => p.name).join(', '),
    },
    { object: `namespace/${s.namespace.name}`, field: 'other objects waiting', value: String(others.length) },
  ];
  const waiting =
    others.length > 0 ? `${others.length} other object(s) wait until ${pods.length} pod(s) are gone` : '';
  let summary = `pods are deleted first: ${waiting}`;
  if (misleading) {
    evidence.push({
      object: `namespace/${s.namespace.name}`,
      field: 'status.conditions[NamespaceContentRemaining]',
      value: `${misleading.status} ${misleading.reason ?? ''}: ${misleading.message ?? ''}`,
    });
    summary =
      `NamespaceContentRemaining says "${misleading.message ?? ''}" although ${pods.length} pod(s) remain ` +
      `(Kubernetes 1.33+ deletes pods first and reports the rest only afterwards)${waiting ? `; ${waiting}` : ''}`;
  }
  return {
    id: ID,
    severity: 'notice',
    cause: `pods-first${misleading ? ':misleading' : ''}`,
    summary,
    evidence,
    leaked: false,
    remedy: {
      commands: [],
      note: 'The namespace controller deletes pods before anything else; fix the pods and the rest follows.',
    },
  };
}
