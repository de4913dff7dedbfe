/** The actor model's words: who can release, recreate or refuse a blocker, why, and whether it is alive now. */
import type { WorkloadState } from '../types.js';

/** What an actor can do to a blocker: remove its finalizer, bring the namespace back, or refuse the deletes. */
export type ActorRole = 'releases' | 'recreates' | 'refuses';

/** Alive now, not alive, or not told by what this run could read. */
export type LiveState = 'live' | 'down' | 'unknown';

/**
 * Running but not leading: its pods are ready, and the leader-election Lease they hold expired — a hung controller,
 * which releases nothing until it is restarted (or takes the Lease again).
 */
export interface NotLeading {
  /** `namespace/name` of the Lease. */
  lease: string;
  /** Seconds since its last renewal, when it was ever renewed. */
  renewedAgo?: number;
  ready: number;
}

/** Whether an actor is alive, and what this run read that says so (a 403 or a timeout quoted when it could not). */
export interface Liveness {
  state: LiveState;
  /** One line each: `Deployment a/b: 1 ready replica`, `Lease kube-system/kube-controller-manager renewed 2s ago`. */
  evidence: string[];
  /** The evidence conflicts: ready replicas, expired Lease (then the state is `down`). */
  notLeading?: NotLeading;
}

/**
 * How precisely the link names the blocker: `specific` (its resource, `/finalizers`, its manager, its target),
 * `group` (every resource of the API group), `any` (every resource of every group, as cluster-admin).
 */
export type Reach = 'specific' | 'group' | 'any';

/** One actor tied to one blocker. */
export interface Actor {
  /** `Deployment platform/zeta-manager`, `kube-controller-manager`, `Kustomization flux-system/previews`. */
  name: string;
  kind: 'workload' | 'control-plane' | 'gitops-owner';
  role: ActorRole;
  /** Why it acts on this blocker, as read: the RBAC chain, the managedFields entry, the owner object's target. */
  link: string;
  reach: Reach;
  liveness: Liveness;
  /** The namespace it runs in, when it runs in one: inside the namespace being deleted it dies with it. */
  namespace?: string;
  /** The workload, for commands (`kubectl logs`). */
  workload?: WorkloadState;
  /**
   * A GitOps owner's reach beyond this namespace: the other namespaces it applies, or why that could not be read.
   * Stopping such an owner stops it there too, so no remedy does that.
   */
  beyond?: { namespaces: string[]; unread?: string };
  /**
   * The object that generates a GitOps owner (`ApplicationSet argocd/previews`, from its ownerReferences): what to
   * change, since it writes the owner back over any patch of it.
   */
  generator?: { kind: string; namespace: string; name: string };
}

/** A read the actor links depend on that failed: which, and the error as the server gave it. */
export interface Unread {
  area: 'workloads' | 'rbac' | 'leases';
  error: string;
}

/** What the run read about the actors of one blocker: who, and what it could not read (then the verdict is unknown). */
export interface Actors {
  actors: Actor[];
  /** Reads the links depend on that failed. */
  unread: Unread[];
  /** Links that lead nowhere: a ServiceAccount with the rights that no workload runs as. */
  orphans: string[];
}
