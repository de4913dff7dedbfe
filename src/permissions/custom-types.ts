/** The rules a role needs on this cluster's custom resource types: the namespaced types its CRDs serve. Pure. */
import type { ApiResource } from '../model/cluster.js';
import { compareText } from '../shared/compare.js';
import type { Role, Rule } from './rule.js';

/** A namespaced type served by a CRD: its API group and plural. */
export interface CustomType {
  group: string;
  resource: string;
}

// What the API server accepts as a CRD's group (a DNS subdomain) and plural (a DNS label): nothing else is printed.
const GROUP = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/;
const PLURAL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The namespaced types that discovery serves and a CRD defines (`plural.group` among `crdNames`), one per
 * group/resource, sorted. Types of aggregated APIs and built-in types are not among them, nor a name that is not
 * a valid group or plural.
 */
export function crdTypes(resources: readonly ApiResource[], crdNames: ReadonlySet<string>): CustomType[] {
  const found = new Map<string, CustomType>();
  for (const r of resources) {
    const name = `${r.resource}.${r.group}`;
    if (!r.namespaced || r.resource.includes('/') || !crdNames.has(name)) continue;
    if (!GROUP.test(r.group) || !PLURAL.test(r.resource)) continue;
    found.set(name, { group: r.group, resource: r.resource });
  }
  return [...found.values()].sort(
    (a, b) => compareText(a.group, b.group) || compareText(a.resource, b.resource),
  );
}

/** Whether a rule already grants every one of `verbs` on the type. */
function granted(rules: readonly Rule[], t: CustomType, verbs: readonly string[]): boolean {
  return verbs.every((v) =>
    rules.some(
      (r) => r.apiGroups.includes(t.group) && r.resources.includes(t.resource) && r.verbs.includes(v),
    ),
  );
}

/**
 * The role's rules for the given custom types: one per API group, with the role's custom-resource verbs; a type its
 * own rules already cover (a GitOps owner type the diagnose role lists) is left out. None for a role without them.
 */
export function customRules(role: Role, types: readonly CustomType[]): Rule[] {
  const need = role.customResources;
  if (!need) return [];
  const byGroup = new Map<string, string[]>();
  for (const t of types) {
    if (granted(role.rules, t, need.verbs)) continue;
    byGroup.set(t.group, [...(byGroup.get(t.group) ?? []), t.resource]);
  }
  return [...byGroup].map(([group, resources]) => ({
    apiGroups: [group],
    resources,
    verbs: need.verbs,
    why: `CRDs ${resources.map((r) => `${r}.${group}`).join(', ')}.`,
  }));
}
