/** Who may update a resource or remove its finalizers, read from RBAC: role → binding → ServiceAccount. Pure. */
import type { BindingState, RbacRule, RoleState, Snapshot } from './types.js';

/** One ServiceAccount that may update the objects, and the chain of RBAC objects that says so. */
export interface Grant {
  serviceAccount: { namespace: string; name: string };
  /** `ClusterRole zeta-manager grants patch on gadgets/finalizers in widgets.dev, bound by ClusterRoleBinding zeta`. */
  chain: string;
  /** 2 when a rule names the resource (or its finalizers subresource), 1 when it names every resource of the group. */
  strength: 1 | 2;
}

const WRITE_VERBS = ['update', 'patch', '*'];

/** How precisely `rule` lets its holder remove finalizers from `resource` in `group`: 0 (not at all), 1 or 2. */
function ruleStrength(rule: RbacRule, group: string, resource: string): 0 | 1 | 2 {
  if (!rule.verbs.some((v) => WRITE_VERBS.includes(v))) return 0;
  // A rule for every group grants everything to everyone it is bound to (cluster-admin): it tells nothing.
  if (!rule.apiGroups.includes(group)) return 0;
  if (rule.resources.some((r) => r === resource || r === `${resource}/finalizers` || r === `${resource}/*`))
    return 2;
  return rule.resources.includes('*') ? 1 : 0;
}

function roleStrength(role: RoleState, group: string, resource: string): 0 | 1 | 2 {
  return Math.max(0, ...role.rules.map((r) => ruleStrength(r, group, resource))) as 0 | 1 | 2;
}

function roleOf(roles: readonly RoleState[], b: BindingState): RoleState | undefined {
  return roles.find(
    (r) =>
      r.kind === b.role.kind &&
      r.name === b.role.name &&
      (r.kind === 'ClusterRole' || r.namespace === b.namespace),
  );
}

/**
 * ServiceAccounts that may update `resource` in `group` (or its `/finalizers`), strongest first; built-in `system:`
 * roles and bindings (Kubernetes' own controllers) are left out.
 */
export function grantsFor(rbac: Snapshot['rbac'], group: string, resource: string): Grant[] {
  const out = new Map<string, Grant>();
  for (const b of rbac.bindings) {
    if (b.name.startsWith('system:') || b.role.name.startsWith('system:')) continue;
    const role = roleOf(rbac.roles, b);
    const strength = role ? roleStrength(role, group, resource) : 0;
    if (!role || strength === 0) continue;
    const scope = b.kind === 'RoleBinding' ? ` in namespace ${b.namespace ?? ''}` : '';
    const chain = `${role.kind} ${role.name} may update ${resource}.${group}${strength === 2 ? '' : ' (every resource of the group)'}, bound by ${b.kind} ${b.name}${scope}`;
    for (const s of b.subjects) {
      if (s.kind !== 'ServiceAccount') continue;
      const namespace = s.namespace ?? b.namespace ?? '';
      const key = `${namespace}/${s.name}`;
      const known = out.get(key);
      if (!known || known.strength < strength)
        out.set(key, { serviceAccount: { namespace, name: s.name }, chain, strength });
    }
  }
  return [...out.values()].sort(
    (a, b) =>
      b.strength - a.strength ||
      (`${a.serviceAccount.namespace}/${a.serviceAccount.name}` <
      `${b.serviceAccount.namespace}/${b.serviceAccount.name}`
        ? -1
        : 1),
  );
}
