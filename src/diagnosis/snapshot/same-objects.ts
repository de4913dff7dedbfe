/**
 * Resources a server still serves under an old API group beside their current one: the same objects, stored once
 * (kube-apiserver 1.20 serves Ingresses as `extensions/v1beta1` and `networking.k8s.io/v1`, and its namespace
 * controller counts them under both names). Where the current group is served, the old name is never asked for: it
 * lists nothing the current one does not, and the server answers it with a deprecation warning. Pure.
 */
import type { ApiResource } from '../../model/cluster.js';
import type { ParsedConditions } from '../../model/findings.js';
import { resourceName } from '../../kube/paths.js';

/** Old name → current name, as the API server's own deprecation notices give them (no other name is guessed). */
const OLD_NAMES: Readonly<Record<string, string>> = {
  'ingresses.extensions': 'ingresses.networking.k8s.io',
  'networkpolicies.extensions': 'networkpolicies.networking.k8s.io',
  'deployments.extensions': 'deployments.apps',
  'daemonsets.extensions': 'daemonsets.apps',
  'replicasets.extensions': 'replicasets.apps',
};

/** The current name of `name` when discovery serves it (`served` holds `resource.group` names), else `name`. */
export function currentName(name: string, served: ReadonlySet<string>): string {
  const current = OLD_NAMES[name];
  return current !== undefined && served.has(current) ? current : name;
}

/** Whether `r` is an old name of objects discovery also serves under their current name. */
export function servedUnderCurrentName(
  r: Pick<ApiResource, 'group' | 'resource'>,
  served: ReadonlySet<string>,
): boolean {
  return currentName(resourceName(r), served) !== resourceName(r);
}

/** The `resource.group` names discovery serves. */
export const servedNames = (resources: readonly ApiResource[]): Set<string> =>
  new Set(resources.map(resourceName));

/**
 * The conditions with every type named by its current name: one count per type (the largest, as both names count the
 * same objects), so the targeted scan lists and checks the current name only.
 */
export function withCurrentNames(
  parsed: ParsedConditions,
  resources: readonly ApiResource[],
): ParsedConditions {
  const remaining = parsed.contentRemaining;
  if (!remaining) return parsed;
  const served = servedNames(resources);
  const counts = new Map<string, { resource: string; group: string; count: number }>();
  for (const c of remaining.counts) {
    const name = currentName(resourceName(c), served);
    const dot = name.indexOf('.');
    const [resource, group] = dot < 0 ? [name, ''] : [name.slice(0, dot), name.slice(dot + 1)];
    const known = counts.get(name);
    counts.set(name, { resource, group, count: Math.max(known?.count ?? 0, c.count) });
  }
  return { ...parsed, contentRemaining: { ...remaining, counts: [...counts.values()] } };
}
