/** How evidence names things: resources, objects, seconds and ages between two stamps. Pure. */
import { resourceName } from '../kube/paths.js';
import { formatSeconds } from '../shared/duration.js';
import type { ApiResource } from '../model/cluster.js';

/**
 * `kialis.kiali.io/kiali`, or `persistentvolumeclaims/data` for the core group: how evidence, remedies and the force
 * plan name one object.
 */
export function objectLabel(resource: Pick<ApiResource, 'group' | 'resource'>, name: string): string {
  return `${resourceName(resource)}/${name}`;
}

/** Seconds from `since` to `now` (both ISO 8601); undefined when either is missing or unreadable. */
export function secondsBetween(since: string | undefined, now: string): number | undefined {
  if (!since) return undefined;
  const from = Date.parse(since);
  const to = Date.parse(now);
  return Number.isNaN(from) || Number.isNaN(to) ? undefined : Math.round((to - from) / 1000);
}

/** `2024-01-01T00:00:00Z (5m12s ago)`, or the timestamp alone when no age can be computed. */
export function stampWithAge(stamp: string, now: string): string {
  const age = secondsBetween(stamp, now);
  if (age === undefined) return stamp;
  return age >= 0 ? `${stamp} (${formatSeconds(age)} ago)` : `${stamp} (in ${formatSeconds(-age)})`;
}

/** Where a webhook is served, as its configuration says: `service namespace/name`, `url …`, or `(no clientConfig)`. */
export function servedWhere(c: { service?: { namespace: string; name: string }; url?: string }): string {
  if (c.service) return `service ${c.service.namespace}/${c.service.name}`;
  return c.url ? `url ${c.url}` : '(no clientConfig)';
}
