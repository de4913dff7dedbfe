/** Taking the snapshot of one namespace: the scan, then only the cluster reads the findings call for. */
import { readLoadBalancers } from './lb-reads.js';
import type { Discovery, KubeReader } from '../../kube/port.js';
import type { NamespaceState } from '../../model/cluster.js';
import { compareText } from '../../shared/compare.js';
import {
  readApiServices,
  readCrds,
  readLeases,
  readNodes,
  readPods,
  readRbac,
  readWebhooks,
  readWorkloads,
} from './cluster-reads.js';
import { parseConditions } from '../conditions.js';
import { readControlPlane, readPolicyBindings } from './actor-reads.js';
import { askServer } from './access-reads.js';
import { undecided } from '../rules/policy-cannot-evaluate.js';
import { readConversions } from './conversion-reads.js';
import { isBuiltInFinalizer } from '../finalizers.js';
import { Reads, type SharedReads } from './reader.js';
import { scan } from './scan.js';
import { CONTROLLER_FIRST_PASS_MS } from './scan-choice.js';
import type { EarlierSight, PolicyBindingState, Snapshot } from '../types.js';
import type { Leftover, ParsedConditions } from '../../model/findings.js';

/** How hard the snapshot may hit the API server, and the clock it stamps itself with. */
export interface SnapshotOptions {
  /** Most requests in flight at once (default 8). */
  concurrency?: number;
  /** `limit` for every paginated list (default 500). */
  pageSize?: number;
  /** Milliseconds since the epoch (default `Date.now`). */
  clock?: () => number;
  /** `auto` (default): list only what the controller's conditions name when they can be trusted; `full`: every type. */
  scan?: 'auto' | 'full';
  /** How long after a deletion the namespace controller makes its first pass (default 5 s, as upstream). */
  controllerFirstPassMs?: number;
  /** What an earlier diagnosis of this namespace saw (`sightOf` it), so finalizers released since count as progress. */
  earlier?: EarlierSight;
  /** Read the webhooks even when no condition names a refused delete (a pre-mortem of an Active namespace). */
  webhooks?: boolean;
  /** The run's cluster-wide reads, shared by all its snapshots while fresh; absent = this snapshot reads its own. */
  shared?: SharedReads;
}

const NO_DISCOVERY: Discovery = { resources: [], failed: [], mode: 'legacy' };

/**
 * Reads everything one diagnosis needs, read-only, through the KubeReader alone: discovery, a metadata-only scan
 * of the namespace, then only the cluster reads the findings call for. A failed read is recorded, never thrown.
 */
export async function takeSnapshot(
  reader: KubeReader,
  ns: NamespaceState,
  opts: SnapshotOptions = {},
): Promise<Snapshot> {
  const now = (opts.clock ?? Date.now)();
  const takenAt = new Date(now).toISOString();
  const reads = new Reads(reader, positive(opts.concurrency, 8), positive(opts.pageSize, 500), opts.shared);
  const parsed = parseConditions(ns.conditions);
  // The reads that do not depend on what the scan finds run beside it, not after it: one round trip less.
  const beside = Promise.all([
    readApiServices(reads),
    parsed.contentFailure || opts.webhooks ? readWebhooks(reads) : Promise.resolve([]),
  ]);
  // Awaited below; until then a failure must not count as unhandled (reads record errors, they do not throw).
  beside.catch(() => undefined);
  // Custom finalizers the controller already counts mean their controller must be found: start those reads now too.
  const early = customFinalizersNamed(ns, parsed) ? ownerReads(reads, ns.name) : undefined;
  const scanned = await scan(reads, ns, parsed, {
    mode: opts.scan ?? 'auto',
    now,
    firstPassMs: opts.controllerFirstPassMs ?? CONTROLLER_FIRST_PASS_MS,
  });
  const { choice, listedTypes } = scanned;
  const discovery = scanned.discovery ?? NO_DISCOVERY;
  const converted = await readConversions(reads, ns.name, parsed, scanned.discovery);
  const leftovers = [...scanned.leftovers, ...converted.leftovers];
  const owners = early ?? (needsWorkloads(ns, leftovers) ? ownerReads(reads, ns.name) : NO_OWNERS);
  const [
    [apiServices, webhooks],
    podsAndNodes,
    crds,
    { workloads, rbac, leases },
    controlPlane,
    loadBalancers,
  ] = await Promise.all([
    beside,
    podsRemain(leftovers, parsed) ? readPodsAndNodes(reads, ns.name) : { pods: [], nodes: [] },
    readCrds(reads, crdsToRead(leftovers)),
    owners,
    builtInHeld(ns, leftovers) ? readControlPlane(reads) : undefined,
    readLoadBalancers(reads, ns.name, leftovers),
  ]);
  const [policyBindings, access] = await Promise.all([
    bindingsOf(reads, ns.name, parsed, discovery),
    askServer(reads, { takenAt, namespace: ns, leftovers, workloads, rbac, leases }),
  ]);
  return {
    takenAt,
    namespace: ns,
    discovery: { failed: discovery.failed, mode: discovery.mode, listedTypes },
    scan: choice,
    leftovers,
    apiServices,
    webhooks,
    ...podsAndNodes,
    workloads,
    crds,
    rbac,
    leases,
    ...(access.length ? { access } : {}),
    ...(controlPlane ? { controlPlane } : {}),
    ...(Object.keys(loadBalancers).length ? { loadBalancers } : {}),
    ...(policyBindings.length ? { policyBindings } : {}),
    conversions: converted.conversions,
    ...(opts.earlier ? { earlier: opts.earlier } : {}),
    readErrors: [...reads.errors].sort(
      (a, b) => compareText(a.what, b.what) || compareText(a.error, b.error),
    ),
    cost: reads.cost(),
  };
}

function positive(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}

async function readPodsAndNodes(reads: Reads, namespace: string): Promise<Pick<Snapshot, 'pods' | 'nodes'>> {
  const pods = await readPods(reads, namespace);
  return { pods, nodes: await readNodes(reads, pods) };
}

const isPods = (l: { group: string; resource: string }): boolean => l.group === '' && l.resource === 'pods';

/** Pods remain when the scan saw some, or when the conditions name pods the scan could not list. */
function podsRemain(leftovers: readonly Leftover[], parsed: ParsedConditions): boolean {
  return leftovers.some((l) => isPods(l.resource)) || (parsed.contentRemaining?.counts.some(isPods) ?? false);
}

// Groups Kubernetes serves itself: their types are not CRDs.
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'autoscaling', 'policy']);
const isBuiltInGroup = (g: string): boolean => BUILT_IN_GROUPS.has(g) || g.endsWith('.k8s.io');

/** `plural.group` of each custom resource type whose leftovers hold finalizers. */
function crdsToRead(leftovers: readonly Leftover[]): string[] {
  const names = leftovers
    .filter((l) => l.meta.finalizers.length > 0 && !isBuiltInGroup(l.resource.group))
    .map((l) => `${l.resource.resource}.${l.resource.group}`);
  return [...new Set(names)];
}

type OwnerReads = Pick<Snapshot, 'workloads' | 'rbac' | 'leases'>;

const NO_OWNERS: Promise<OwnerReads> = Promise.resolve({
  workloads: [],
  rbac: { roles: [], bindings: [] },
  leases: [],
});

/** What may tie a finalizer to its controller: workloads, RBAC that grants rights in the namespace, Leases. */
function ownerReads(reads: Reads, namespace: string): Promise<OwnerReads> {
  const all = Promise.all([readWorkloads(reads), readRbac(reads, namespace), readLeases(reads)]).then(
    ([workloads, rbac, leases]) => ({ workloads, rbac, leases }),
  );
  all.catch(() => undefined);
  return all;
}

/** Whether the namespace or its controller's conditions already name a finalizer that is not Kubernetes' own. */
function customFinalizersNamed(ns: NamespaceState, parsed: ParsedConditions): boolean {
  const named = [
    ...ns.metadataFinalizers,
    ...ns.specFinalizers,
    ...(parsed.finalizersRemaining?.counts.map((c) => c.finalizer) ?? []),
  ];
  return named.some((f) => !isBuiltInFinalizer(f));
}

/** The bindings of policies that refused the deletes without deciding: what each lacks. */
function bindingsOf(
  reads: Reads,
  namespace: string,
  parsed: ParsedConditions,
  discovery: Discovery,
): Promise<PolicyBindingState[]> {
  const named = new Map<string, { binding: string; policy: string }>();
  for (const { d } of undecided(parsed))
    if (d.binding) named.set(d.binding, { binding: d.binding, policy: d.policy ?? '' });
  if (named.size === 0) return Promise.resolve([]);
  return readPolicyBindings(reads, [...named.values()], namespace, discovery.resources);
}

/** Kubernetes' own controllers are read only when a finalizer they remove is held. */
function builtInHeld(ns: NamespaceState, leftovers: readonly Leftover[]): boolean {
  return [...ns.metadataFinalizers, ...leftovers.flatMap((l) => l.meta.finalizers)].some(isBuiltInFinalizer);
}

/** Workloads are read only when some finalizer must be matched to a controller. */
function needsWorkloads(ns: NamespaceState, leftovers: readonly Leftover[]): boolean {
  const all = [
    ...ns.metadataFinalizers,
    ...ns.specFinalizers,
    ...leftovers.flatMap((l) => l.meta.finalizers),
  ];
  return all.some((f) => !isBuiltInFinalizer(f));
}

/** What a later diagnosis needs to know of this one: which objects held which finalizer. */
export function sightOf(s: Pick<Snapshot, 'takenAt' | 'leftovers'>): EarlierSight {
  const holders = Object.create(null) as Record<string, string[]>;
  for (const l of s.leftovers) for (const f of l.meta.finalizers) (holders[f] ??= []).push(l.meta.uid);
  return { takenAt: s.takenAt, holders };
}
