/**
 * Which questions to put to the API server's authorizer for one diagnosis: for each type held by a custom finalizer
 * that no RBAC grant ties to a live workload outside the namespace, the ServiceAccounts of the workloads that RBAC does
 * not name — live ones first, at most `MAX_ASKED`. Where RBAC shows a live grant nothing is asked. Pure.
 */
import { compareText } from '../../shared/compare.js';
import { isBuiltInFinalizer } from '../finalizers.js';
import type { Leftover } from '../../model/findings.js';
import type { Snapshot } from '../types.js';
import { grantsFor, runsAs } from './rbac.js';
import { heldBy, releasers, workloadLiveness, type ActorView, type Holders } from './workloads.js';

/** At most this many ServiceAccounts are asked about per type in one diagnosis; more leave the verdict unknown. */
export const MAX_ASKED = 40;

/** One type to ask about, in the target namespace, and for whom. */
export interface AccessPlan {
  group: string;
  resource: string;
  namespace: string;
  accounts: { namespace: string; name: string }[];
  notAsked: number;
}

type PlanView = ActorView & Pick<Snapshot, 'namespace' | 'leftovers'>;

/** Every custom finalizer held in the namespace (on its objects, or the namespace itself) with what holds it. */
function customHolders(s: PlanView): Holders[] {
  const by = new Map<string, Leftover[]>();
  for (const l of s.leftovers)
    for (const f of new Set(l.meta.finalizers))
      if (!isBuiltInFinalizer(f)) by.set(f, [...(by.get(f) ?? []), l]);
  const own = s.namespace.metadataFinalizers.some((f) => !isBuiltInFinalizer(f));
  const spec = s.namespace.specFinalizers.some((f) => !isBuiltInFinalizer(f));
  const namespace: Holders[] = [
    ...(own ? [{ types: [{ group: '', resource: 'namespaces' }], uids: [] }] : []),
    // spec.finalizers go only through `/finalize`.
    ...(spec ? [{ types: [{ group: '', resource: 'namespaces/finalize' }], uids: [] }] : []),
  ];
  return [...[...by.values()].map(heldBy), ...namespace];
}

/** Whether a workload outside the namespace, tied by RBAC to the objects and alive, can release them. */
function liveGrant(s: PlanView, held: Holders): boolean {
  return releasers(s, held).actors.some(
    (a) => a.reach !== 'any' && a.liveness.state === 'live' && a.namespace !== s.namespace.name,
  );
}

/** The ServiceAccounts of the workloads that no RBAC grant over `type` names, live ones first. */
function unnamedAccounts(s: PlanView, type: { group: string; resource: string }): PlanView['workloads'] {
  const grants = grantsFor(s.rbac, type.group, type.resource);
  const seen = new Set<string>();
  const live = (w: PlanView['workloads'][number]): number =>
    workloadLiveness(s, w).state === 'live' ? 0 : 1;
  return [...s.workloads]
    .filter((w) => !grants.some((g) => runsAs(g, w)))
    .sort((a, b) => live(a) - live(b) || compareText(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`))
    .filter((w) => {
      const key = `${w.namespace}/${w.serviceAccount}`;
      return !seen.has(key) && Boolean(seen.add(key));
    });
}

/** The questions of one diagnosis, one plan per type; none where RBAC already shows a live grant. */
export function accessPlans(s: PlanView): AccessPlan[] {
  const types = new Map<string, { group: string; resource: string }>();
  for (const held of customHolders(s)) {
    if (liveGrant(s, held)) continue;
    for (const t of held.types)
      types.set(`${t.resource}.${t.group}`, { group: t.group, resource: t.resource });
  }
  return [...types.values()].map((t) => {
    const accounts = unnamedAccounts(s, t).map((w) => ({ namespace: w.namespace, name: w.serviceAccount }));
    return {
      ...t,
      namespace: s.namespace.name,
      accounts: accounts.slice(0, MAX_ASKED),
      notAsked: Math.max(0, accounts.length - MAX_ASKED),
    };
  });
}
