/** Who may update a resource or remove its finalizers, read from RBAC: role → binding → ServiceAccount. Pure. */
import { compareText } from '../../shared/compare.js';
import type { BindingState, RbacRule, RoleState, Snapshot } from '../types.js';
import type { Reach } from './actor-types.js';

/**
 * One ServiceAccount (or every one of a namespace), or one User, that may update the objects, and the RBAC chain that
 * says so. A User is an identity outside the cluster (a controller run elsewhere): its liveness cannot be read here.
 */
export interface Grant {
  /** `name` is `*` for a binding to the group `system:serviceaccounts[:<namespace>]` (every one; namespace `*`: all). */
  serviceAccount: { namespace: string; name: string };
  /** Set instead when the subject is a User; `serviceAccount` is then empty. */
  user?: string;
  /** `ClusterRole zeta-manager may update gizmos.widgets.dev, bound by ClusterRoleBinding zeta`. */
  chain: string;
  reach: Reach;
}

const WRITE_VERBS = ['update', 'patch', '*'];
const RANK: Record<Reach, number> = { specific: 3, group: 2, any: 1 };

/** How precisely `rule` lets its holder remove finalizers from `resource` in `group`; undefined: not at all. */
function ruleReach(rule: RbacRule, group: string, resource: string): Reach | undefined {
  if (!rule.verbs.some((v) => WRITE_VERBS.includes(v))) return undefined;
  const groups = rule.apiGroups.includes(group);
  if (!groups && !rule.apiGroups.includes('*')) return undefined;
  const named = rule.resources.some(
    (r) => r === resource || r === `${resource}/finalizers` || r === `${resource}/*`,
  );
  if (named) return groups ? 'specific' : 'any';
  if (!rule.resources.includes('*')) return undefined;
  return groups ? 'group' : 'any';
}

function roleReach(role: RoleState, group: string, resource: string): Reach | undefined {
  let best: Reach | undefined;
  for (const r of role.rules) {
    const reach = ruleReach(r, group, resource);
    if (reach && (!best || RANK[reach] > RANK[best])) best = reach;
  }
  return best;
}

function roleOf(roles: readonly RoleState[], b: BindingState): RoleState | undefined {
  return roles.find(
    (r) =>
      r.kind === b.role.kind &&
      r.name === b.role.name &&
      (r.kind === 'ClusterRole' || r.namespace === b.namespace),
  );
}

/** The ServiceAccounts a binding subject stands for: one, every one of a namespace, or every one of the cluster. */
function accountsOf(
  s: BindingState['subjects'][number],
  bindingNs: string | undefined,
): { namespace: string; name: string; user?: string } | undefined {
  if (s.kind === 'ServiceAccount') return { namespace: s.namespace ?? bindingNs ?? '', name: s.name };
  // A User bound to a role that names the resource is a machine identity, not a person (people get groups).
  if (s.kind === 'User' && !s.name.startsWith('system:')) return { namespace: '', name: '', user: s.name };
  if (s.kind !== 'Group') return undefined;
  if (s.name === 'system:serviceaccounts') return { namespace: '*', name: '*' };
  const m = /^system:serviceaccounts:(.+)$/.exec(s.name);
  return m ? { namespace: m[1]!, name: '*' } : undefined;
}

/**
 * ServiceAccounts that may update `resource` in `group` (or its `/finalizers`), most precise first. Kubernetes' own
 * `system:` roles and bindings (its controllers, which are actors of their own) are left out, and so are users and
 * groups other than ServiceAccounts: people do not release finalizers.
 */
export function grantsFor(rbac: Snapshot['rbac'], group: string, resource: string): Grant[] {
  const out = new Map<string, Grant>();
  for (const b of rbac.bindings) {
    if (b.name.startsWith('system:') || b.role.name.startsWith('system:')) continue;
    const role = roleOf(rbac.roles, b);
    const reach = role && roleReach(role, group, resource);
    if (!role || !reach) continue;
    const scope = b.kind === 'RoleBinding' ? ` in namespace ${b.namespace ?? ''}` : '';
    const extent = { specific: '', group: ' (every resource of the group)', any: ' (every resource)' }[reach];
    const chain = `${role.kind} ${role.name} may update ${resource}.${group}${extent}, bound by ${b.kind} ${b.name}${scope}`;
    for (const subject of b.subjects) {
      const sa = accountsOf(subject, b.namespace);
      if (!sa || (sa.user && reach === 'any')) continue;
      const key = sa.user ? `user:${sa.user}` : `${sa.namespace}/${sa.name}`;
      const known = out.get(key);
      const grant = { serviceAccount: { namespace: sa.namespace, name: sa.name }, chain, reach };
      if (!known || RANK[known.reach] < RANK[reach])
        out.set(key, sa.user ? { ...grant, user: sa.user } : grant);
    }
  }
  const keyOf = (g: Grant): string => g.user ?? `${g.serviceAccount.namespace}/${g.serviceAccount.name}`;
  return [...out.values()].sort((a, b) => RANK[b.reach] - RANK[a.reach] || compareText(keyOf(a), keyOf(b)));
}

/** Whether a workload runs as the grant's ServiceAccount (or as one of the accounts a group grant stands for). */
export function runsAs(g: Grant, w: { namespace: string; serviceAccount: string }): boolean {
  const { namespace, name } = g.serviceAccount;
  if (g.user) return false;
  return (namespace === '*' || namespace === w.namespace) && (name === '*' || name === w.serviceAccount);
}
