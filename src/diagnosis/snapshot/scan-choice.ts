/**
 * Whether the namespace controller's conditions can stand in for a full scan. Pure: the scan asks before
 * discovery (`refuseConditions`), before listing (`chooseTargets`) and after (`checkTargeted`).
 */
import type { ApiResource, NamespaceState } from '../../model/cluster.js';
import type { Discovery } from '../../kube/port.js';
import { objectLabel } from '../refs.js';
import { resourceName } from '../../kube/paths.js';
import type { Leftover, ParsedConditions, ScanChoice } from '../../model/findings.js';

/** The controller's first pass comes this long after the deletion (namespaceDeletionGracePeriod upstream). */
export const CONTROLLER_FIRST_PASS_MS = 5000;

const full = (reason: ScanChoice['reason'], detail: string): ScanChoice => ({ mode: 'full', reason, detail });

const REMAINING_TYPES = ['NamespaceContentRemaining', 'NamespaceFinalizersRemaining'];

/** Before discovery: why the conditions cannot stand in for a full scan (absent, incomplete, stale), if so. */
export function refuseConditions(
  ns: NamespaceState,
  parsed: ParsedConditions,
  now: number,
  firstPassMs: number,
): ScanChoice | undefined {
  const half = parsed.unparsed.find((u) => REMAINING_TYPES.includes(u.type) && u.status === 'True');
  if (half) return full('conditions-absent', `${half.type} is not fully understood`);
  if (!parsed.contentRemaining?.counts.length) {
    return full('conditions-absent', 'no NamespaceContentRemaining condition names remaining types');
  }
  for (const [cond, what] of [
    [parsed.contentFailure, 'NamespaceDeletionContentFailure'],
    [parsed.groupVersionParsingFailure, 'NamespaceDeletionGroupVersionParsingFailure'],
  ] as const) {
    if (cond) return full('conditions-absent', `${what} is True: the controller did not count every type`);
  }
  const stale = staleness(ns, now, firstPassMs);
  return stale ? full('conditions-stale', stale) : undefined;
}

/** Whether any type the conditions name is in the core group (so discovery must include it). */
export function namesCoreTypes(parsed: ParsedConditions): boolean {
  return (parsed.contentRemaining?.counts ?? []).some((c) => c.group === '');
}

/**
 * After discovery: the types to list, or why the full scan must run instead (discovery failed — ours or the
 * controller's — or a named type is not served). `listable` is the full scan's plan.
 */
export function chooseTargets(
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
  discoveryError: string | undefined,
  listable: readonly ApiResource[],
): { types: ApiResource[]; choice: ScanChoice } {
  const refused = refuseDiscovery(parsed, discovery, discoveryError, listable);
  if (refused) return { types: [], choice: refused };
  const counts = parsed.contentRemaining?.counts ?? [];
  const named = new Set(counts.map(resourceName));
  const types = listable.filter((t) => named.has(resourceName(t)));
  const list = counts.map((n) => `${resourceName(n)} (${n.count})`).join(', ');
  return { types, choice: { mode: 'targeted', reason: 'conditions-name-types', detail: `listed ${list}` } };
}

function refuseDiscovery(
  parsed: ParsedConditions,
  discovery: Discovery | undefined,
  discoveryError: string | undefined,
  listable: readonly ApiResource[],
): ScanChoice | undefined {
  if (!discovery) return full('discovery-failed', `discovery failed: ${discoveryError ?? 'no answer'}`);
  const failing = [
    ...discovery.failed.map((f) => f.groupVersion),
    ...(parsed.discoveryFailure?.failing ?? []),
  ];
  if (failing.length || parsed.discoveryFailure) {
    const gvs = [...new Set(failing)].sort().join(', ') || 'unknown group-versions';
    return full('discovery-failed', `discovery failed for ${gvs}`);
  }
  const served = new Set(listable.map(resourceName));
  const unserved = (parsed.contentRemaining?.counts ?? []).map(resourceName).filter((n) => !served.has(n));
  if (unserved.length) {
    return full(
      'discovery-failed',
      `named by the conditions but not served by discovery: ${unserved.join(', ')}`,
    );
  }
  return undefined;
}

/** Why the conditions may not describe the namespace as it is now, if they may not. */
function staleness(ns: NamespaceState, now: number, firstPassMs: number): string | undefined {
  const deleted = Date.parse(ns.deletionTimestamp ?? '');
  if (Number.isNaN(deleted)) return 'the namespace has no deletionTimestamp';
  const age = now - deleted;
  if (age < firstPassMs) {
    return `deleted ${Math.max(0, Math.round(age))} ms ago, before the namespace controller's first pass (${firstPassMs} ms)`;
  }
  const since = transitionOf(ns);
  if (since === undefined) return 'NamespaceContentRemaining has no lastTransitionTime';
  const created = Date.parse(ns.creationTimestamp ?? '');
  if (since < deleted || since < created) {
    return `NamespaceContentRemaining's lastTransitionTime predates the namespace's ${since < deleted ? 'deletion' : 'creation'}`;
  }
  return undefined;
}

/** When NamespaceContentRemaining last turned True, in ms since the epoch. */
function transitionOf(ns: NamespaceState): number | undefined {
  const c = ns.conditions.find((x) => x.type === 'NamespaceContentRemaining' && x.status === 'True');
  const t = Date.parse(c?.lastTransitionTime ?? '');
  return Number.isNaN(t) ? undefined : t;
}

/**
 * After the targeted lists: undefined when they agree with the conditions, else why the full scan must run —
 * fewer objects than counted, or changes the conditions cannot have seen (objects created or deleted after
 * their lastTransitionTime, finalizers they do not name).
 */
export function checkTargeted(
  ns: NamespaceState,
  parsed: ParsedConditions,
  leftovers: readonly Leftover[],
): ScanChoice | undefined {
  const found = new Map<string, number>();
  for (const l of leftovers)
    found.set(resourceName(l.resource), (found.get(resourceName(l.resource)) ?? 0) + 1);
  const short = (parsed.contentRemaining?.counts ?? [])
    .filter((n) => (found.get(resourceName(n)) ?? 0) < n.count)
    .map((n) => `${resourceName(n)}: ${found.get(resourceName(n)) ?? 0} of ${n.count}`);
  if (short.length)
    return full('fewer-than-counted', `the targeted lists found fewer than counted: ${short.join(', ')}`);
  const since = transitionOf(ns) ?? -Infinity;
  for (const l of leftovers) {
    const created = Date.parse(l.meta.creationTimestamp ?? '');
    const deleting =
      Date.parse(l.meta.deletionTimestamp ?? '') - (l.meta.deletionGracePeriodSeconds ?? 0) * 1000;
    if (created > since || deleting > since) {
      const what = created > since ? 'created' : 'deleted';
      return full(
        'conditions-stale',
        `${objectLabel(l.resource, l.meta.name)} was ${what} after NamespaceContentRemaining's lastTransitionTime`,
      );
    }
  }
  const counted = new Set((parsed.finalizersRemaining?.counts ?? []).map((f) => f.finalizer));
  const unnamed = [...new Set(leftovers.flatMap((l) => l.meta.finalizers))].filter((f) => !counted.has(f));
  if (unnamed.length) {
    return full('conditions-stale', `finalizers the conditions do not count: ${unnamed.sort().join(', ')}`);
  }
  return undefined;
}
