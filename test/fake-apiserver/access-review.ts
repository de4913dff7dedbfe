/**
 * SubjectAccessReview (`POST /apis/authorization.k8s.io/v1/subjectaccessreviews`) as kube-apiserver answers it: the
 * RBAC authorizer over the stored Roles, ClusterRoles and their bindings (reason `RBAC: allowed by …`, worded as
 * upstream), then a stand-in webhook authorizer for rights that no RBAC object shows (`authorizeOutsideRbac`). No
 * opinion from either is `allowed: false` with no reason, as 1.20 with Node,RBAC answers; nothing is stored.
 */
import { invalid } from './errors.js';
import { asRecord } from './meta.js';
import type { Store } from './store.js';
import type { JsonMap, KObj } from './types.js';

/** Rights a webhook authorizer grants outside RBAC: to a user or a group, every verb or those listed, on one type. */
export interface OutsideGrant {
  user?: string;
  group?: string;
  apiGroup: string;
  resource: string;
  verbs?: string[];
  /** What the authorizer says when it allows (a managed cluster's IAM names its policy). */
  reason?: string;
}

interface Attributes {
  user: string;
  groups: string[];
  verb: string;
  group: string;
  resource: string;
  namespace: string;
}

const RBAC = 'rbac.authorization.k8s.io';
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);
const has = (list: string[], x: string): boolean => list.includes('*') || list.includes(x);

/** Whether one binding subject is the requester (`ServiceAccount "name/ns"` in RBAC's words when it is). */
function subjectMatch(subject: unknown, a: Attributes, bindingNs: string): string | undefined {
  const s = asRecord(subject);
  const kind = String(s.kind ?? '');
  const name = String(s.name ?? '');
  if (kind === 'User' && name === a.user) return `User "${name}"`;
  if (kind === 'Group' && a.groups.includes(name)) return `Group "${name}"`;
  const ns = String(s.namespace ?? bindingNs);
  if (kind === 'ServiceAccount' && a.user === `system:serviceaccount:${ns}:${name}`)
    return `ServiceAccount "${name}/${ns}"`;
  return undefined;
}

/** Whether a role's rules allow the attributes. */
function rulesAllow(role: KObj | undefined, a: Attributes): boolean {
  const rules = Array.isArray(role?.rules) ? role.rules.map(asRecord) : [];
  return rules.some(
    (r) =>
      has(strs(r.verbs), a.verb) && has(strs(r.apiGroups), a.group) && has(strs(r.resources), a.resource),
  );
}

/** The RBAC authorizer: the reason of the first binding that allows, as upstream words it. */
function rbacAllows(store: Store, a: Attributes): string | undefined {
  const bindings = [
    ...store.list(`clusterrolebindings.${RBAC}`),
    ...(a.namespace ? store.list(`rolebindings.${RBAC}`, a.namespace) : []),
  ];
  for (const b of bindings) {
    const ns = b.metadata.namespace ?? '';
    const ref = asRecord(b.roleRef);
    const kind = String(ref.kind ?? '');
    const role =
      kind === 'ClusterRole'
        ? store.get(`clusterroles.${RBAC}`, '', String(ref.name ?? ''))
        : store.get(`roles.${RBAC}`, ns, String(ref.name ?? ''));
    if (!rulesAllow(role, a)) continue;
    const who = (Array.isArray(b.subjects) ? b.subjects : [])
      .map((s) => subjectMatch(s, a, ns))
      .find(Boolean);
    if (!who) continue;
    const binding = ns ? `RoleBinding "${b.metadata.name}/${ns}"` : `ClusterRoleBinding "${b.metadata.name}"`;
    return `RBAC: allowed by ${binding} of ${kind} "${String(ref.name ?? '')}" to ${who}`;
  }
  return undefined;
}

/** The stand-in webhook authorizer: the first grant that covers the attributes. */
function outsideAllows(grants: readonly OutsideGrant[], a: Attributes): OutsideGrant | undefined {
  return grants.find(
    (g) =>
      (g.user === undefined || g.user === a.user) &&
      (g.group === undefined || a.groups.includes(g.group)) &&
      g.apiGroup === a.group &&
      g.resource === a.resource &&
      (g.verbs === undefined || g.verbs.includes(a.verb)),
  );
}

/** The answered SubjectAccessReview for a request body; a 422 when it names neither user nor group. */
export function answerAccessReview(store: Store, grants: readonly OutsideGrant[], body: unknown): JsonMap {
  const spec = asRecord(asRecord(body).spec);
  const attrs = asRecord(spec.resourceAttributes);
  const a: Attributes = {
    user: String(spec.user ?? ''),
    groups: strs(spec.groups),
    verb: String(attrs.verb ?? ''),
    group: String(attrs.group ?? ''),
    // RBAC names a subresource as `resource/subresource` (`namespaces/finalize`).
    resource: `${String(attrs.resource ?? '')}${attrs.subresource ? `/${String(attrs.subresource)}` : ''}`,
    namespace: String(attrs.namespace ?? ''),
  };
  if (!a.user && a.groups.length === 0)
    throw invalid('', 'authorization.k8s.io', '', [
      {
        type: 'Invalid',
        field: 'spec.user',
        value: '""',
        detail: 'at least one of user or group must be specified',
      },
    ]);
  const rbac = rbacAllows(store, a);
  const outside = rbac === undefined ? outsideAllows(grants, a) : undefined;
  const reason = rbac ?? outside?.reason;
  const status =
    rbac !== undefined || outside ? { allowed: true, ...(reason ? { reason } : {}) } : { allowed: false };
  return {
    kind: 'SubjectAccessReview',
    apiVersion: 'authorization.k8s.io/v1',
    metadata: { creationTimestamp: null },
    spec,
    status,
  };
}
