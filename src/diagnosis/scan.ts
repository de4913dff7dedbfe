import type { ApiResource, Discovery, NamespaceState } from '../kube/port.js';
import { READ_AREA } from './paths.js';
import type { Reads } from './reads.js';
import { resourceName } from './refs.js';
import { checkTargeted, chooseTargets } from './scan-choice.js';
import type { Leftover, ParsedConditions, ScanChoice } from './types.js';

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

/** Lists the given types in the namespace, metadata only and paginated, in the bounded pool. */
async function listTypes(
  reads: Reads,
  namespace: string,
  types: readonly ApiResource[],
): Promise<Leftover[]> {
  const lists = await reads.map(types, async (t) => {
    const res = { group: t.group, version: t.version, resource: t.resource };
    const items = await reads.listMetadata(`${READ_AREA.scan} ${resourceName(t)}`, res, namespace);
    return items.map((meta) => ({ resource: { ...res, kind: t.kind }, meta }));
  });
  return lists.flat();
}

/** Lists every planned type in the namespace; condition-named types discovery lacks are recorded as errors. */
export async function scanNamespace(reads: Reads, namespace: string, plan: ScanPlan): Promise<Leftover[]> {
  const leftovers = await listTypes(reads, namespace, plan.types);
  for (const name of plan.missing) {
    reads.errors.push({
      what: `${READ_AREA.scan} ${name}`,
      error:
        'named by NamespaceContentRemaining but not served by discovery (its group-version may be failing)',
    });
  }
  return leftovers;
}

/** What the scan found, which scan it was, and how many types it listed. */
export interface ScanResult {
  leftovers: Leftover[];
  choice: ScanChoice;
  listedTypes: number;
}

/** How the scan is chosen: `auto` tries the targeted scan first; `full` always lists every type. */
export interface ScanSettings {
  mode: 'auto' | 'full';
  now: number;
  firstPassMs: number;
}

/**
 * The namespace scan: only the types the controller's conditions name when they can be trusted and discovery is
 * healthy, checked against the conditions' counts; otherwise (or when that check fails) every listable type.
 */
export async function scan(
  reads: Reads,
  ns: NamespaceState,
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
  settings: ScanSettings,
): Promise<ScanResult> {
  const plan = planScan(discovery?.resources ?? [], parsed);
  let choice: ScanChoice = { mode: 'full', reason: 'requested', detail: 'the full scan was asked for' };
  if (settings.mode === 'auto') {
    const discoveryError = reads.errors.find((e) => e.what === READ_AREA.discovery)?.error;
    const target = chooseTargets({
      namespace: ns,
      parsed,
      discovery,
      ...(discoveryError ? { discoveryError } : {}),
      listable: plan.types,
      now: settings.now,
      firstPassMs: settings.firstPassMs,
    });
    choice = target.choice;
    if (choice.mode === 'targeted') {
      const before = reads.errors.length;
      const leftovers = await listTypes(reads, ns.name, target.types);
      const refused = checkTargeted(ns, parsed, leftovers);
      if (!refused) return { leftovers, choice, listedTypes: target.types.length };
      // The full scan lists these types again; its errors are the ones to report.
      reads.errors.splice(before);
      choice = { ...refused, detail: `${refused.detail} (after ${target.types.length} targeted list(s))` };
    }
  }
  return { leftovers: await scanNamespace(reads, ns.name, plan), choice, listedTypes: plan.types.length };
}
