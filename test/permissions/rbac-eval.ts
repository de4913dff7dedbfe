/**
 * RBAC as kube-apiserver evaluates it, for the fake's request log: a request's attributes (its RequestInfo: verb,
 * group, resource, subresource, namespace) and whether a mode's roles grant them.
 */
import { BINDINGS } from '../../src/permissions/matrix.js';
import { customRules, type CustomType } from '../../src/permissions/custom-types.js';
import { ROLES } from '../../src/permissions/roles.js';
import type { Mode, Rule } from '../../src/permissions/rule.js';

/** What RBAC is asked about one request. */
export interface Attributes {
  verb: string;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
}

// kube-apiserver's namespaceSubresources: `/namespaces/NAME/finalize` is a subresource of the namespace itself.
const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);
const VERBS: Record<string, string> = { DELETE: 'delete', PATCH: 'patch', PUT: 'update', POST: 'create' };

/** The attributes of a request, as RequestInfoFactory derives them; undefined for discovery and other non-resource paths. */
export function attributesOf(method: string, path: string, query: string): Attributes | undefined {
  const parts = path.split('/').filter(Boolean);
  const [group, rest] =
    parts[0] === 'api' ? ['', parts.slice(2)] : parts[0] === 'apis' ? [parts[1]!, parts.slice(3)] : ['', []];
  if (rest.length === 0) return undefined;
  let namespace: string | undefined;
  let tail = rest;
  if (rest[0] === 'namespaces' && rest.length > 1) {
    namespace = rest[1];
    if (rest.length > 2 && !NAMESPACE_SUBRESOURCES.has(rest[2]!)) tail = rest.slice(2);
  }
  const [resource, name, subresource] = tail as [string, string?, string?];
  const watch = /(^|&)watch=(true|1)(&|$)/.test(query);
  const verb =
    method === 'GET'
      ? name
        ? 'get'
        : watch
          ? 'watch'
          : 'list'
      : method === 'DELETE' && !name
        ? 'deletecollection'
        : (VERBS[method] ?? method.toLowerCase());
  return {
    verb,
    group,
    resource,
    ...(subresource ? { subresource } : {}),
    ...(namespace ? { namespace } : {}),
  };
}

/** Whether one rule grants the attributes. */
export function grants(rule: Rule, a: Attributes): boolean {
  const res = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  return (
    (rule.apiGroups.includes(a.group) || rule.apiGroups.includes('*')) &&
    (rule.resources.includes(res) || rule.resources.includes('*')) &&
    (rule.verbs.includes(a.verb) || rule.verbs.includes('*'))
  );
}

/** One rule of one role as bound for a mode: where it holds. */
export interface BoundRule {
  /** `role #n` for the role's n-th rule, `role #custom` for its rules on the cluster's custom types. */
  key: string;
  rule: Rule;
  /** Namespaces it holds in (a RoleBinding); undefined: everywhere. */
  only?: readonly string[];
}

/** The rules the identity of `mode` holds, as the README binds it, with the cluster's custom types added. */
export function rulesOf(mode: Mode, types: readonly CustomType[]): BoundRule[] {
  const names = BINDINGS.find((b) => b.mode === mode)!.roles;
  return ROLES.filter((r) => names.includes(r.name)).flatMap((role) =>
    [
      ...role.rules.map((rule, n) => ({ key: `${role.name} #${n}`, rule })),
      ...customRules(role, types).map((rule) => ({ key: `${role.name} #custom`, rule })),
    ].map((b) => ({ ...b, ...(role.boundIn ? { only: role.boundIn } : {}) })),
  );
}

/** The bound rules that grant the attributes (none: the API server answers 403). */
export function granting(rules: readonly BoundRule[], a: Attributes): BoundRule[] {
  return rules.filter(
    (b) => grants(b.rule, a) && (!b.only || (a.namespace !== undefined && b.only.includes(a.namespace))),
  );
}
