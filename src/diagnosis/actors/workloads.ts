/**
 * Workloads as actors on a finalizer: tied to the objects by RBAC (who may update them or their `/finalizers`) and by
 * managedFields (who set the finalizer), alive by a Lease their pod renews or by their ready replicas. Names alone
 * never tie a workload to a finalizer: a verdict must survive renaming everything that is not an API name. Pure.
 */
import { compareText } from '../../shared/compare.js';
import { formatSeconds } from '../../shared/duration.js';
import type { Leftover } from '../../model/findings.js';
import { READ_AREA } from '../snapshot/read-paths.js';
import type { Snapshot, WorkloadState } from '../types.js';
import { accessGrants } from './access.js';
import { describeLease, leasesOf } from './leases.js';
import { grantsFor, runsAs, type Grant } from './rbac.js';
import type { Actor, Actors, Liveness, Reach, Unread } from './actor-types.js';

/** What the release actors are read from: workloads, RBAC, Leases, the authorizer's answers, what failed. */
export type ActorView = Pick<Snapshot, 'takenAt' | 'workloads' | 'rbac' | 'leases' | 'readErrors' | 'access'>;

/** The objects holding a finalizer: their types (for RBAC), UIDs (for progress) and who set it (managedFields). */
export interface Holders {
  types: readonly { group: string; resource: string }[];
  uids: readonly string[];
  /** managedFields managers that own the objects' finalizers. */
  managers?: readonly string[];
}

/** The Holders of a finalizer, from the leftovers that hold it. */
export function heldBy(objects: readonly Leftover[]): Holders {
  const types = [
    ...new Map(objects.map((l) => [`${l.resource.resource}.${l.resource.group}`, l.resource])).values(),
  ];
  const managers = [...new Set(objects.flatMap((l) => l.meta.finalizerManagers ?? []))].sort();
  return { types, uids: objects.map((l) => l.meta.uid), ...(managers.length ? { managers } : {}) };
}

/** `Deployment kiali-operator/kiali-operator (1 ready)`. */
export function describeWorkload(w: WorkloadState): string {
  const state = w.deleting ? 'deleting' : `${w.readyReplicas} ready`;
  return `${w.kind} ${w.namespace}/${w.name} (${state})`;
}

/**
 * Whether a workload is alive now. A leader-elected controller acts only while its pod holds a fresh Lease, so a Lease
 * its pod holds decides; without one, its ready replicas do (status.readyReplicas); being deleted is not alive. Ready
 * replicas beside an expired Lease conflict, and the conflict is said: running but not leading.
 */
export function workloadLiveness(s: Pick<Snapshot, 'takenAt' | 'leases'>, w: WorkloadState): Liveness {
  const ref = `${w.kind} ${w.namespace}/${w.name}`;
  if (w.deleting) return { state: 'down', evidence: [`${ref} is being deleted`] };
  const ready = `${ref}: ${w.readyReplicas} ready replica(s)`;
  const leases = leasesOf(s, w).sort((a, b) => (a.renewedAgo ?? Infinity) - (b.renewedAgo ?? Infinity));
  const lease = leases[0];
  if (lease?.fresh) return { state: 'live', evidence: [describeLease(lease), ready] };
  if (lease && w.readyReplicas > 0) {
    const when =
      lease.renewedAgo === undefined
        ? 'never renewed'
        : `last renewed ${formatSeconds(lease.renewedAgo)} ago`;
    const l = `${lease.lease.namespace}/${lease.lease.name}`;
    return {
      state: 'down',
      evidence: [
        `${ref} is running but not leading (Lease ${l} ${when}): ${w.readyReplicas} ready replica(s)`,
      ],
      notLeading: {
        lease: l,
        ...(lease.renewedAgo !== undefined ? { renewedAgo: lease.renewedAgo } : {}),
        ready: w.readyReplicas,
      },
    };
  }
  if (lease) return { state: 'down', evidence: [describeLease(lease), ready] };
  return { state: w.readyReplicas > 0 ? 'live' : 'down', evidence: [ready] };
}

function workloadActor(s: ActorView, w: WorkloadState, link: string, reach: Reach): Actor {
  return {
    name: `${w.kind} ${w.namespace}/${w.name}`,
    kind: 'workload',
    role: 'releases',
    link,
    reach,
    liveness: workloadLiveness(s, w),
    namespace: w.namespace,
    workload: w,
  };
}

// Managers that apply manifests rather than run as a controller: who set a finalizer through them says nothing.
const MANIFEST_TOOLS = /^(kubectl|helm|Go-http-client|argocd-|kustomize-controller$|helm-controller$)/;

/** The managedFields managers that set the finalizer and are controllers, not manifest tools. */
export function settersOf(held: Holders): string[] {
  return (held.managers ?? []).filter((m) => !MANIFEST_TOOLS.test(m));
}

/** Workloads whose managedFields manager name is the workload's or one of its containers'. */
function managedBy(s: ActorView, manager: string): WorkloadState[] {
  return s.workloads.filter((w) => w.name === manager || (w.containers ?? []).includes(manager));
}

/** A User that RBAC lets update the objects: a controller outside the cluster, whose liveness this run cannot read. */
function externalActor(g: Grant): Actor {
  return {
    name: `User ${g.user ?? ''}`,
    kind: 'workload',
    role: 'releases',
    link: `${g.chain}; User ${g.user ?? ''} is an identity outside the cluster`,
    reach: g.reach,
    liveness: {
      state: 'unknown',
      evidence: [`User ${g.user ?? ''} runs outside the cluster: whether it is alive cannot be read`],
    },
  };
}

const UNREAD_WORDS: Record<Unread['area'], string> = {
  workloads: 'workloads',
  rbac: 'roles',
  leases: 'Leases',
};

/** The reads the links depend on that failed. */
function unreadLinks(s: ActorView): Unread[] {
  return (['workloads', 'rbac', 'leases'] as const).flatMap((area) => {
    const e = s.readErrors.find((x) => x.what.startsWith(READ_AREA[area]));
    return e ? [{ area, error: e.error }] : [];
  });
}

/** `roles could not be read: 403 Forbidden: …`. */
export const unreadWords = (u: Unread): string => `${UNREAD_WORDS[u.area]} could not be read: ${u.error}`;

/**
 * The workloads that can release a finalizer held by these objects: those whose ServiceAccount RBAC lets update the
 * objects' type (or its `/finalizers`) — core types excepted, which nearly everything may update — or the API server
 * allows to where RBAC named nobody (SubjectAccessReview), and those whose name is the managedFields manager that set
 * it; the strongest link of each, best first.
 */
export function releasers(s: ActorView, held: Holders): Actors {
  const found = new Map<string, Actor>();
  const rank: Record<Reach, number> = { specific: 3, group: 2, any: 1 };
  const add = (a: Actor): void => {
    const known = found.get(a.name);
    if (!known || rank[known.reach] < rank[a.reach]) found.set(a.name, a);
  };
  for (const manager of held.managers ?? []) {
    for (const w of managedBy(s, manager))
      add(workloadActor(s, w, `managedFields: manager ${manager} set the finalizer`, 'specific'));
  }
  const orphans: string[] = [];
  for (const type of held.types) {
    // Core types but namespaces: nearly every controller may update them, so RBAC ties none of them to the objects.
    const rbac = type.group !== '' || type.resource.startsWith('namespaces');
    // RBAC first, the explanation; then what the authorizer allows where RBAC named nobody.
    const grants = rbac ? grantsFor(s.rbac, type.group, type.resource) : [];
    for (const g of [...grants, ...accessGrants(s, type)]) {
      if (g.user) {
        add(externalActor(g));
        continue;
      }
      const users = s.workloads.filter((w) => runsAs(g, w));
      const sa = `ServiceAccount ${g.serviceAccount.namespace}/${g.serviceAccount.name}`;
      for (const w of users)
        add(workloadActor(s, w, `${g.chain}; ${sa} runs ${w.kind} ${w.namespace}/${w.name}`, g.reach));
      if (users.length === 0 && g.reach !== 'any')
        orphans.push(`${g.chain}; no Deployment, StatefulSet or DaemonSet runs as ${sa}`);
    }
  }
  const actors = [...found.values()].sort(
    (a, b) =>
      rank[b.reach] - rank[a.reach] ||
      Number(b.liveness.state === 'live') - Number(a.liveness.state === 'live') ||
      compareText(a.name, b.name),
  );
  return { actors, unread: unreadLinks(s), orphans: [...new Set(orphans)] };
}
