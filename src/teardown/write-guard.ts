/**
 * The write guard on the Kube port: every write goes to a target this run read, under the UID it read, and one that
 * forces only while the last read shows that namespace being deleted; the one write outside the targets is to a
 * GitOps owner this run read and verified (its UID and resourceVersion, that it targets only targets, and for a
 * DELETE that its controller removes nothing beyond them). Any other write is refused with the reason.
 */
import { readsOf, UnverifiedWrite, type Kube } from '../kube/port.js';
import type { ApiResource, NamespaceState } from '../model/cluster.js';
import { identityProblem } from '../targets/resolve.js';
import { grantFor, reachProblem, type OwnerGrant } from './owner-grant.js';

export type { OwnerGrant } from './owner-grant.js';

type Res = Pick<ApiResource, 'group' | 'version' | 'resource'>;

/**
 * What a write must have verified about its namespace: `uid`, that it carries the UID read at the start (a DELETE
 * of the namespace, whose precondition the server checks); `reread`, also that a read since then shows that UID (a
 * write to an object inside it, which carries only the object's UID); `terminating`, also that this read shows it
 * being deleted (every forced write: removing finalizers of a namespace nobody deleted strands what it holds).
 */
type Need = 'uid' | 'reread' | 'terminating';

/** What the guard knows of one target. */
interface Known {
  uid: string;
  /** The last GET of the name since the targets were read, with the target's UID. */
  reread?: NamespaceState;
  /** Why no write may go to it any more; kept, as a UID never comes back. */
  lost?: Refusal;
}

/** The UID a write carries as its precondition: the namespace's own, or the object's inside it. */
type Carried = { namespaceUid: string } | { objectUid: string };

/** A refusal: whether the target is gone, another namespace holds its name, or the write is otherwise unverified. */
interface Refusal {
  because: 'gone' | 'recreated' | 'unverified';
  why: string;
}

const unverified = (why: string): Refusal => ({ because: 'unverified', why });

/** The targets' UIDs and what later reads showed of them; `refusal` says why a write may not go. */
class Targets {
  private readonly known = new Map<string, Known>();

  constructor(targets: readonly NamespaceState[]) {
    for (const t of targets) this.known.set(t.name, { uid: t.uid });
  }

  /** Whether `name` is a target of this run. */
  has(name: string): boolean {
    return this.known.has(name);
  }

  /** Take in a GET of a target (undefined = not found); an answer about another name proves nothing. */
  saw(name: string, state: NamespaceState | undefined): void {
    const k = this.known.get(name);
    if (!k || k.lost) return;
    if (state === undefined) {
      k.lost = { because: 'gone', why: `namespace "${name}" was read gone` };
    } else if (identityProblem(name, state) === undefined) {
      if (state.uid === k.uid) k.reread = state;
      else
        k.lost = {
          because: 'recreated',
          why: `namespace "${name}" is now another one (UID ${state.uid}, not ${k.uid} as read at the start)`,
        };
    }
  }

  /** Why a write to a GitOps owner may not go: one of the namespaces it targets is no target, or no longer ours. */
  ownerRefusal(grant: OwnerGrant): Refusal | undefined {
    for (const ns of grant.targets) {
      const k = this.known.get(ns);
      if (!k) return unverified(`it also targets namespace "${ns}", which is not a target of this run`);
      if (k.lost) return k.lost;
    }
    return undefined;
  }

  /** Why a write concerning `namespace` and carrying `carried` may not go; undefined when it may. */
  refusal(namespace: string, need: Need, carried: Carried): Refusal | undefined {
    const k = this.known.get(namespace);
    if (!k) return unverified(`namespace "${namespace}" is not a target of this run`);
    if (!k.uid) return unverified(`namespace "${namespace}" was read without a UID`);
    if (k.lost) return k.lost;
    const uid = 'namespaceUid' in carried ? carried.namespaceUid : carried.objectUid;
    if (!uid) return unverified('the write carries no UID precondition');
    if ('namespaceUid' in carried && uid !== k.uid)
      return unverified(`its UID precondition ${uid} is not ${k.uid}, the UID read`);
    if (need === 'uid') return undefined;
    if (!k.reread) return unverified(`namespace "${namespace}" was not read again before it`);
    if (need === 'terminating' && k.reread.deletionTimestamp === undefined)
      return unverified(
        `namespace "${namespace}" was last read Active (no deletionTimestamp): nothing is forced in a namespace that is not being deleted`,
      );
    return undefined;
  }
}

/** One write as the guard sees it: the target it concerns (undefined: none) and how it is named in a refusal. */
interface Write {
  verb: 'DELETE' | 'PATCH' | 'PUT';
  resource: string;
  what: string;
  namespace: string | undefined;
}

/** Throw the refusal `r` of a write: the message names the write and why it was not sent. */
function refuse(write: Write, r: Refusal | undefined): void {
  if (r === undefined) return;
  const message = `${write.verb} of ${write.what} not sent: ${r.why}`;
  throw new UnverifiedWrite(message, r.because, write.verb.toLowerCase(), write.resource);
}

/** Throw the refusal of a write, when there is one. */
function check(targets: Targets, write: Write, need: Need, carried: Carried): void {
  refuse(
    write,
    write.namespace === undefined
      ? { because: 'unverified' as const, why: 'a cluster-scoped object is outside every target' }
      : targets.refusal(write.namespace, need, carried),
  );
}

/**
 * A write to a GitOps owner: allowed only under its grant, at the version read, while every namespace it targets is
 * still a target, and for a DELETE only when its controller removes nothing beyond them.
 */
function checkOwner(
  targets: Targets,
  write: Write,
  grant: OwnerGrant | undefined,
  version: string | undefined,
): void {
  const none = unverified(
    'it is no GitOps owner this run read and verified under that UID, nor inside a target',
  );
  if (!grant) return refuse(write, none);
  const far = reachProblem(write.verb, grant, version);
  refuse(write, targets.ownerRefusal(grant) ?? (far === undefined ? undefined : unverified(far)));
}

/** How a refusal names the object: `kialis pr-7/kiali`, or `namespaces pr-7` for a cluster-scoped one. */
const inside = (res: Res, namespace: string | undefined, name: string): string =>
  `${res.resource} ${namespace === undefined ? name : `${namespace}/${name}`}`;

/**
 * `kube` whose writes go only to `targets` (the namespaces this run resolved, with the UIDs it read), each verified
 * for that write by the namespace GETs made through it, and to the GitOps owners of `owners`; reads pass through.
 */
export function guardWrites(
  kube: Kube,
  targets: readonly NamespaceState[],
  owners: readonly OwnerGrant[] = [],
): Kube {
  const known = new Targets(targets);
  const isTarget = (ns: string): boolean => known.has(ns);
  return {
    ...readsOf(kube),
    getNamespace: async (name) => {
      const state = await kube.getNamespace(name);
      known.saw(name, state);
      return state;
    },
    deleteNamespace: async (name, opts) => {
      const write = {
        verb: 'DELETE',
        resource: 'namespaces',
        what: `namespaces ${name}`,
        namespace: name,
      } as const;
      check(known, write, 'uid', { namespaceUid: opts?.uid ?? '' });
      return kube.deleteNamespace(name, opts);
    },
    deleteObject: async (res, namespace, name, guard) => {
      const write = {
        verb: 'DELETE',
        resource: res.resource,
        what: inside(res, namespace, name),
        namespace,
      } as const;
      const grant = isTarget(namespace) ? undefined : grantFor(owners, res, namespace, name, guard.uid);
      if (grant) checkOwner(known, write, grant, guard.resourceVersion);
      else check(known, write, 'reread', { objectUid: guard.uid });
      return kube.deleteObject(res, namespace, name, guard);
    },
    patchSpec: async (res, namespace, name, guard, spec) => {
      const write = {
        verb: 'PATCH',
        resource: res.resource,
        what: inside(res, namespace, name),
        namespace,
      } as const;
      // Only a GitOps owner's spec is ever patched (its suspension), never an object inside a target.
      checkOwner(known, write, grantFor(owners, res, namespace, name, guard.uid), guard.resourceVersion);
      return kube.patchSpec(res, namespace, name, guard, spec);
    },
    patchFinalizers: async (res, namespace, name, guard, finalizers) => {
      // The namespace itself is cluster-scoped: its own PATCH concerns the target of that name.
      const own = namespace === undefined && res.group === '' && res.resource === 'namespaces';
      const write = {
        verb: 'PATCH',
        resource: res.resource,
        what: inside(res, namespace, name),
        namespace: own ? name : namespace,
      } as const;
      check(known, write, 'terminating', own ? { namespaceUid: guard.uid } : { objectUid: guard.uid });
      return kube.patchFinalizers(res, namespace, name, guard, finalizers);
    },
    deletePod: async (namespace, name, uid) => {
      const write = {
        verb: 'DELETE',
        resource: 'pods',
        what: `pods ${namespace}/${name}`,
        namespace,
      } as const;
      check(known, write, 'terminating', { objectUid: uid });
      return kube.deletePod(namespace, name, uid);
    },
    finalizeNamespace: async (name, guard, specFinalizers) => {
      const write = {
        verb: 'PUT',
        resource: 'namespaces/finalize',
        what: `namespaces/finalize ${name}`,
        namespace: name,
      } as const;
      check(known, write, 'terminating', { namespaceUid: guard.uid });
      return kube.finalizeNamespace(name, guard, specFinalizers);
    },
  };
}
