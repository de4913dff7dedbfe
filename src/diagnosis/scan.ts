import type { ApiResource } from '../kube/port.js';
import { READ_AREA } from './paths.js';
import type { Reads } from './reads.js';
import { resourceName } from './refs.js';
import type { Leftover, ParsedConditions } from './types.js';

/** The scan plan: which types to list, and condition-named types that discovery did not return. */
export interface ScanPlan {
  types: ApiResource[];
  /** `resource.group` names from NamespaceContentRemaining that no discovered type matches. */
  missing: string[];
}

const isEvents = (r: Pick<ApiResource, 'group' | 'resource'>): boolean =>
  r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');

/**
 * Picks the namespaced, listable types to scan: one version per group/resource (discovery's first), events
 * skipped unless the conditions name them, and the types the conditions name scanned first.
 */
export function planScan(resources: readonly ApiResource[], parsed: ParsedConditions): ScanPlan {
  const named = new Set((parsed.contentRemaining?.counts ?? []).map(resourceName));
  const seen = new Set<string>();
  const types: ApiResource[] = [];
  for (const r of resources) {
    const key = resourceName(r);
    if (!r.namespaced || r.resource.includes('/') || !r.verbs.includes('list') || seen.has(key)) continue;
    if (isEvents(r) && !named.has(key)) continue;
    seen.add(key);
    types.push(r);
  }
  const first = types.filter((t) => named.has(resourceName(t)));
  const rest = types.filter((t) => !named.has(resourceName(t)));
  return { types: [...first, ...rest], missing: [...named].filter((n) => !seen.has(n)).sort() };
}

/** Lists every planned type in the namespace, metadata only and paginated, in the bounded pool. */
export async function scanNamespace(reads: Reads, namespace: string, plan: ScanPlan): Promise<Leftover[]> {
  const lists = await reads.map(plan.types, async (t) => {
    const res = { group: t.group, version: t.version, resource: t.resource };
    const items = await reads.listMetadata(`${READ_AREA.scan} ${resourceName(t)}`, res, namespace);
    return items.map((meta) => ({ resource: { ...res, kind: t.kind }, meta }));
  });
  for (const name of plan.missing) {
    reads.errors.push({
      what: `${READ_AREA.scan} ${name}`,
      error:
        'named by NamespaceContentRemaining but not served by discovery (its group-version may be failing)',
    });
  }
  return lists.flat();
}
