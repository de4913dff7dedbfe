/** The namespace scan: which types to list, listing them (metadata only), and what is left in them. */
import type { ApiResource, NamespaceState } from '../../model/cluster.js';
import type { Discovery } from '../../kube/port.js';
import { READ_AREA } from './read-paths.js';
import type { Reads } from './reader.js';
import { resourceName } from '../../kube/paths.js';
import { checkTargeted, chooseTargets, namesCoreTypes, refuseConditions } from './scan-choice.js';
import { servedNames, servedUnderCurrentName, withCurrentNames } from './same-objects.js';
import type { Leftover, ParsedConditions, ScanChoice } from '../../model/findings.js';

/** The scan plan: which types to list, and condition-named types that discovery did not return. */
export interface ScanPlan {
  types: ApiResource[];
  /** `resource.group` names from NamespaceContentRemaining that no discovered type matches. */
  missing: string[];
}

const isEvents = (r: Pick<ApiResource, 'group' | 'resource'>): boolean =>
  r.resource === 'events' && (r.group === '' || r.group === 'events.k8s.io');

/**
 * Picks the namespaced, listable types to scan: one version per group/resource (discovery's first), an old group's
 * name left out where the current group serves the same objects, events skipped unless the conditions name them, and
 * the types the conditions name scanned first.
 */
export function planScan(resources: readonly ApiResource[], parsed: ParsedConditions): ScanPlan {
  const named = new Set(
    (withCurrentNames(parsed, resources).contentRemaining?.counts ?? []).map(resourceName),
  );
  const served = servedNames(resources);
  const seen = new Set<string>();
  const types: ApiResource[] = [];
  for (const r of resources) {
    const key = resourceName(r);
    if (!r.namespaced || r.resource.includes('/') || !r.verbs.includes('list') || seen.has(key)) continue;
    // The same objects under their current group: never ask the old one (1.20's ingresses.extensions).
    if (servedUnderCurrentName(r, served)) continue;
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
    // One resource object for all the objects of a type (read-only everywhere).
    const resource = { ...res, kind: t.kind };
    return items.map((meta) => ({ resource, meta }));
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

/** What the scan found, which scan it was, the discovery it used, and how many types it listed. */
export interface ScanResult {
  leftovers: Leftover[];
  choice: ScanChoice;
  /** undefined when discovery failed. */
  discovery: Discovery | undefined;
  listedTypes: number;
}

/** How the scan is chosen: `auto` tries the targeted scan first; `full` always lists every type. */
export interface ScanSettings {
  mode: 'auto' | 'full';
  now: number;
  firstPassMs: number;
}

const discover = (reads: Reads, core: boolean, groups?: string[]): Promise<Discovery | undefined> =>
  reads.call(READ_AREA.discovery, (r) => r.discover(groups ? { core, groups } : { core }));

/** The API groups (other than core) of the types the conditions name. */
const namedGroups = (parsed: ParsedConditions): string[] => [
  ...new Set((parsed.contentRemaining?.counts ?? []).map((c) => c.group).filter((g) => g !== '')),
];

/**
 * Discovery and the namespace scan: only the types the controller's conditions name when they can be trusted and
 * discovery is healthy (without the core group when none of them is core, and — on a server without aggregated
 * discovery — reading only the named groups), checked against the conditions' counts; otherwise, or when that
 * check fails, full discovery and every listable type.
 */
export async function scan(
  reads: Reads,
  ns: NamespaceState,
  parsed: ParsedConditions,
  settings: ScanSettings,
): Promise<ScanResult> {
  if (settings.mode === 'full') {
    const choice: ScanChoice = { mode: 'full', reason: 'requested', detail: 'the full scan was asked for' };
    return fullScan(reads, ns, parsed, await discover(reads, true), choice);
  }
  const refused = refuseConditions(ns, parsed, settings.now, settings.firstPassMs);
  if (refused) return fullScan(reads, ns, parsed, await discover(reads, true), refused);
  const before = reads.errors.length;
  const core = namesCoreTypes(parsed);
  const discovery = await discover(reads, core, namedGroups(parsed));
  const error = reads.errors.slice(before).find((e) => e.what === READ_AREA.discovery)?.error;
  const plan = planScan(discovery?.resources ?? [], parsed);
  // Types the conditions name under an old group are checked under their current name, as they are listed.
  const current = withCurrentNames(parsed, discovery?.resources ?? []);
  const target = chooseTargets(current, discovery, error, plan.types);
  let choice = target.choice;
  if (choice.mode === 'targeted') {
    const leftovers = await listTypes(reads, ns.name, target.types);
    const unlike = checkTargeted(ns, current, leftovers);
    if (!unlike) return { leftovers, choice, discovery, listedTypes: target.types.length };
    choice = { ...unlike, detail: `${unlike.detail} (after ${target.types.length} targeted list(s))` };
  }
  // The full scan lists (and reports) every type again; a discovery without the core group or limited to the named
  // groups is not enough for it.
  const complete = core && discovery?.onlyGroups === undefined;
  dropScanErrors(reads, before, complete);
  return fullScan(reads, ns, parsed, complete ? discovery : await discover(reads, true), choice);
}

/**
 * Forget the errors of the targeted attempt recorded since `from` (its lists, and its discovery unless it is kept):
 * the full scan records its own. Errors of the reads that run beside the scan stay.
 */
function dropScanErrors(reads: Reads, from: number, keepDiscovery: boolean): void {
  const ours = (what: string): boolean =>
    what === READ_AREA.discovery ? !keepDiscovery : what.startsWith(`${READ_AREA.scan} `);
  for (let i = reads.errors.length - 1; i >= from; i--) {
    if (ours(reads.errors[i]!.what)) reads.errors.splice(i, 1);
  }
}

async function fullScan(
  reads: Reads,
  ns: NamespaceState,
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
  choice: ScanChoice,
): Promise<ScanResult> {
  const plan = planScan(discovery?.resources ?? [], parsed);
  const leftovers = await scanNamespace(reads, ns.name, plan);
  return { leftovers, choice, discovery, listedTypes: plan.types.length };
}
