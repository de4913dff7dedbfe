/** Finalizers as the rules see them: which are Kubernetes' own, what one waits on, its force target. Pure. */
import { builtInActor } from './actors/control-plane.js';
import { objectLabel } from './refs.js';
import type { ForceTarget, Leftover } from '../model/findings.js';
import type { PodState, Snapshot } from './types.js';

/** The force target for one object's finalizers. */
export type ObjectTarget = Extract<ForceTarget, { kind: 'object-finalizers' }>;

/** Finalizers that Kubernetes' own controllers handle, with the controller that removes each. */
export const BUILT_IN_FINALIZERS: Readonly<Record<string, string>> = {
  kubernetes: 'namespace controller (kube-controller-manager)',
  orphan: 'garbage collector (kube-controller-manager)',
  foregroundDeletion: 'garbage collector (kube-controller-manager)',
  'kubernetes.io/pvc-protection': 'pvc-protection controller (kube-controller-manager)',
  'kubernetes.io/pv-protection': 'pv-protection controller (kube-controller-manager)',
  'service.kubernetes.io/load-balancer-cleanup': 'service controller (cloud-controller-manager)',
  'batch.kubernetes.io/job-tracking': 'job controller (kube-controller-manager)',
  'resource.kubernetes.io/delete-protection': 'resourceclaim controller (kube-controller-manager)',
};

/** Whether a finalizer belongs to Kubernetes itself rather than to an installed controller. */
export function isBuiltInFinalizer(finalizer: string): boolean {
  return Object.hasOwn(BUILT_IN_FINALIZERS, finalizer);
}

/** Pods still in the namespace: the full pod reads, else what the metadata scan saw. */
export function remainingPods(s: Snapshot): PodState[] {
  if (s.pods.length > 0) return s.pods;
  return s.leftovers
    .filter((l) => l.resource.group === '' && l.resource.resource === 'pods')
    .map((l) => ({
      name: l.meta.name,
      uid: l.meta.uid,
      phase: 'Unknown',
      deletionTimestamp: l.meta.deletionTimestamp,
      terminationGracePeriodSeconds: l.meta.deletionGracePeriodSeconds,
      finalizers: l.meta.finalizers,
      claims: [],
    }));
}

/**
 * Why a built-in finalizer on this object is legitimately still there (a pod still mounts the claim, dependents
 * remain, a cloud load balancer is being deleted), or undefined when nothing visible is worth waiting for.
 */
export function waitingReason(s: Snapshot, l: Leftover, finalizer: string): string | undefined {
  switch (finalizer) {
    case 'kubernetes.io/pvc-protection':
      return claimUsers(s, l);
    case 'foregroundDeletion':
    case 'orphan': {
      const dependents = s.leftovers.filter((o) => o.meta.ownerReferences.some((r) => r.uid === l.meta.uid));
      if (dependents.length === 0) return undefined;
      return `${dependents.length} dependent(s) remain: ${dependents
        .slice(0, 5)
        .map((l) => objectLabel(l.resource, l.meta.name))
        .join(', ')}`;
    }
    case 'service.kubernetes.io/load-balancer-cleanup':
    case 'batch.kubernetes.io/job-tracking':
      return aliveActor(s, finalizer);
    default:
      return undefined;
  }
}

/** A finalizer whose only wait is its controller's own work: worth waiting for only while that controller is alive. */
function aliveActor(s: Snapshot, finalizer: string): string | undefined {
  const a = builtInActor(s, finalizer, BUILT_IN_FINALIZERS[finalizer] ?? 'kube-controller-manager');
  if (a.liveness.state !== 'live') return undefined;
  return `${a.name} is alive (${a.liveness.evidence[0] ?? ''}) and removes it once its work is done`;
}

function claimUsers(s: Snapshot, l: Leftover): string | undefined {
  if (l.resource.group !== '' || l.resource.resource !== 'persistentvolumeclaims') return undefined;
  const users = s.pods.filter((p) => p.claims.includes(l.meta.name)).map((p) => p.name);
  if (users.length > 0) return `still mounted by pod(s) ${users.join(', ')}`;
  // Pod bodies were not read but pods remain: assume they may use the claim rather than call it a leak.
  if (s.pods.length === 0 && remainingPods(s).length > 0)
    return 'pods remain in the namespace (their volumes were not read)';
  return undefined;
}

/** The load balancer read for a leftover Service, if any. */
const lb = (s: Snapshot, l: Leftover): string[] | undefined =>
  l.resource.group === '' && l.resource.resource === 'services' ? s.loadBalancers?.[l.meta.name] : undefined;

/** The force-planner target for one leftover: all its finalizers, and those legitimately waiting. */
export function objectTarget(s: Snapshot, l: Leftover): ObjectTarget {
  return {
    kind: 'object-finalizers',
    resource: l.resource,
    name: l.meta.name,
    uid: l.meta.uid,
    resourceVersion: l.meta.resourceVersion,
    deleting: l.meta.deletionTimestamp !== undefined,
    finalizers: [...l.meta.finalizers],
    waiting: l.meta.finalizers.filter((f) => waitingReason(s, l, f) !== undefined),
    ...(lb(s, l) ? { loadBalancer: lb(s, l) } : {}),
  };
}
