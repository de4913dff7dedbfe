/**
 * The verdict on a finalizer, derived from its actors alone: at work, waiting on a live actor, deadlocked inside the
 * namespace, installed but down, leaked (no actor can release it), or unknown (what would tell could not be read). Pure.
 */
import { secondsBetween } from '../refs.js';
import type { Snapshot } from '../types.js';
import { accessCoverage } from './access.js';
import type { Actor } from './actor-types.js';
import { releasers, settersOf, unreadWords, type Holders } from './workloads.js';

/** What the actors say about a finalizer; `actors` are the ones it rests on, `via` the evidence in words. */
export type ReleaseVerdict = (
  | { kind: 'working'; released: number; of: number; since: string }
  | { kind: 'running' }
  | { kind: 'not-running' }
  | { kind: 'deadlock'; clue: string }
  | { kind: 'absent'; detail: string }
  | { kind: 'unknown'; reason: string }
) & {
  actors: Actor[];
  via: string[];
  /** The holding type's CRD is itself being deleted (its deletionTimestamp): the type is going away. */
  typeGoing?: string;
};

const live = (a: Actor): boolean => a.liveness.state === 'live';
/** A link that names the objects' type (or its group), not merely every resource in the cluster. */
const tied = (a: Actor): boolean => a.reach !== 'any';
const evidenceOf = (as: readonly Actor[]): string[] => [
  ...new Set(as.slice(0, 3).flatMap((a) => [a.link, ...a.liveness.evidence])),
];

/** Objects that held the finalizer at the earlier diagnosis and no longer do: an actor is at work. */
function progress(s: Snapshot, finalizer: string, held: Holders) {
  const before = s.earlier?.holders[finalizer];
  if (!s.earlier || !before?.length || held.uids.length === 0) return undefined;
  const now = new Set(held.uids);
  const released = before.filter((uid) => !now.has(uid)).length;
  return released > 0 ? { released, of: before.length, since: s.earlier.takenAt } : undefined;
}

/** The CRD of a holding type that is being deleted, in words. */
function typeGoing(s: Snapshot, held: Holders): string | undefined {
  const names = new Set(held.types.map((t) => `${t.resource}.${t.group}`));
  const crd = s.crds.find((c) => names.has(c.name) && c.deleting);
  return crd && `CRD ${crd.name} is itself being deleted (deletionTimestamp ${crd.deleting})`;
}

/** A Helm release in this very namespace installed the type's CRD: its controller lived here and is going. */
function helmClue(s: Snapshot, held: Holders): string | undefined {
  const releaseNs = `meta.helm.sh/release-namespace=${s.namespace.name}`;
  const groups = held.types.map((x) => x.group);
  const crd = s.crds.find((c) => groups.includes(c.group) && c.hints?.includes(releaseNs));
  return crd && `CRD ${crd.name} was installed by a Helm release in this namespace (${releaseNs})`;
}

/** The verdict on `finalizer` held by `held`, from the actors this run read and their liveness. */
export function releaseVerdict(s: Snapshot, finalizer: string, held: Holders): ReleaseVerdict {
  const found = releasers(s, held);
  const going = typeGoing(s, held);
  const extra = going ? { typeGoing: going } : {};
  const ns = s.namespace.name;
  const linked = found.actors.filter(tied);
  const inside = linked.filter((a) => a.namespace === ns);
  const outside = linked.filter((a) => a.namespace !== ns);
  const seen = progress(s, finalizer, held);
  if (seen) {
    const ago = secondsBetween(seen.since, s.takenAt) ?? 0;
    const line = `${seen.released} of ${seen.of} object(s) released ${finalizer} since the diagnosis ${ago}s earlier`;
    const actors = outside.filter(live);
    return { kind: 'working', ...seen, actors, via: [line, ...evidenceOf(actors)], ...extra };
  }
  const running = outside.filter(live);
  if (running.length > 0) return { kind: 'running', actors: running, via: evidenceOf(running), ...extra };
  if (inside.length > 0) {
    const a = inside.find(live) ?? inside[0]!;
    const clue = `${a.name} (${a.liveness.state === 'live' ? 'alive' : 'not alive'}) lives in the namespace being deleted`;
    return { kind: 'deadlock', clue, actors: inside, via: evidenceOf(inside), ...extra };
  }
  const clue = helmClue(s, held);
  if (clue) return { kind: 'deadlock', clue, actors: [], via: [clue], ...extra };
  return notLive(s, found, outside, held, extra);
}

/**
 * No tied actor is alive outside the namespace: down, unknown, or leaked. Leaked only where the API server itself
 * answered for the ServiceAccount of every workload and allowed none of them: no grant visible in RBAC is not proof.
 */
function notLive(
  s: Snapshot,
  found: ReturnType<typeof releasers>,
  outside: Actor[],
  held: Holders,
  extra: { typeGoing?: string },
): ReleaseVerdict {
  const unknownActors = outside.filter((a) => a.liveness.state === 'unknown');
  if (unknownActors.length > 0) {
    const reason = `whether ${unknownActors[0]!.name} runs could not be told: ${unknownActors[0]!.liveness.evidence.join('; ')}`;
    return { kind: 'unknown', reason, actors: unknownActors, via: evidenceOf(unknownActors), ...extra };
  }
  if (outside.length > 0) return { kind: 'not-running', actors: outside, via: evidenceOf(outside), ...extra };
  const blind = found.unread.find((u) => u.area === 'workloads');
  if (blind) {
    const reason = `no actor was found, and ${unreadWords(blind)}: whether one can release it is unknown`;
    return { kind: 'unknown', reason, actors: [], via: [], ...extra };
  }
  const loose = found.actors.filter((a) => !tied(a) && live(a));
  const setters = settersOf(held);
  // managedFields name the controller that set the finalizer, and no workload is it: the broad rights of others
  // (cluster-admin tools) do not make them its actor.
  if (loose.length > 0 && setters.length === 0) {
    const reason = `nothing ties a controller to these objects, but ${loose.length} live workload(s) may update every resource and could release it (${loose[0]!.name})`;
    return { kind: 'unknown', reason, actors: loose, via: evidenceOf(loose), ...extra };
  }
  const asked = accessCoverage(s, held.types);
  if (!asked.complete) {
    const rbac = found.unread.find((u) => u.area === 'rbac');
    const seen = rbac
      ? unreadWords(rbac)
      : 'no RBAC grant this run read ties a running workload to these objects';
    const reason = `${seen}, and ${asked.why}: whether one can release it is unknown`;
    return { kind: 'unknown', reason, actors: [], via: [seen, asked.why], ...extra };
  }
  const named =
    found.actors.length + found.orphans.length > 0 ? ' RBAC does not name' : ' that workloads run as';
  const server =
    asked.denied === 0
      ? `no workload runs as a ServiceAccount that could be asked about ${asked.types.join(', ')}`
      : `the API server allows none of the ${asked.denied} ServiceAccount(s)${named} to update or patch ${asked.types.join(', ')} here (SubjectAccessReview)`;
  const setBy = setters.length
    ? `managedFields: ${setters.join(', ')} set the finalizer, and no workload runs as it`
    : undefined;
  // RBAC explains (a grant nothing runs as, who set it, or no grant at all); the server's answers prove it.
  const rbacUnread = found.unread.find((u) => u.area === 'rbac');
  const rbacSaid = rbacUnread
    ? undefined
    : held.types.some((t) => t.group !== '' || t.resource.startsWith('namespaces'))
      ? 'no ServiceAccount but Kubernetes’ own may update these objects or their finalizers, as RBAC reads'
      : undefined;
  const detail = found.orphans[0] ?? setBy ?? rbacSaid ?? server;
  return {
    kind: 'absent',
    detail,
    actors: [],
    via: [
      ...new Set([
        detail,
        ...found.orphans,
        ...(setBy ? [setBy] : []),
        server,
        ...(rbacUnread ? [unreadWords(rbacUnread)] : []),
      ]),
    ],
    ...extra,
  };
}
