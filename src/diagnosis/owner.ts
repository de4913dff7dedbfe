/** Who should remove a finalizer, and whether it runs: by names, by RBAC, by Leases and by progress seen. Pure. */
import { compareText } from '../shared/compare.js';
import { describeLease, leasesNaming, leasesOf } from './leases.js';
import { CONTROLLER_WORDS, mentions, nameScore, ownerTokens, type Tokens } from './owner-names.js';
import { READ_AREA } from './paths.js';
import { grantsFor } from './rbac.js';
import { objectRef, secondsBetween } from './refs.js';
import type { Finding, Leftover } from '../model/findings.js';
import type { Snapshot, WorkloadState } from './types.js';

export { ownerTokens } from './owner-names.js';

/** What the cluster says about the controller that should remove a finalizer; `via` is the evidence read for it. */
export type OwnerVerdict =
  | {
      kind: 'working';
      released: number;
      of: number;
      since: string;
      workloads: WorkloadState[];
      via: string[];
    }
  | { kind: 'running'; workloads: WorkloadState[]; confidence: number; via: string[] }
  | { kind: 'not-running'; workloads: WorkloadState[]; confidence: number; via: string[] }
  | { kind: 'deadlock'; workloads: WorkloadState[]; clue: string; confidence: number; via: string[] }
  | { kind: 'absent'; tokens: string[]; confidence: number; via: string[]; detail: string }
  | { kind: 'unknown'; reason: string; via: string[] };

/** The objects holding a finalizer: their types (for RBAC) and UIDs (for progress). */
export interface Holders {
  types: readonly { group: string; resource: string }[];
  uids: readonly string[];
}

/** The Holders of a finalizer, from the leftovers that hold it. */
export function heldBy(objects: readonly Leftover[]): Holders {
  const types = [
    ...new Map(objects.map((l) => [`${l.resource.resource}.${l.resource.group}`, l.resource])).values(),
  ];
  return { types, uids: objects.map((l) => l.meta.uid) };
}

interface Candidate {
  w: WorkloadState;
  score: number;
  via: string[];
}

const key = (w: WorkloadState): string => `${w.kind}/${w.namespace}/${w.name}`;
const confidence = (n: number): number => (n >= 5 ? 0.9 : n >= 3 ? 0.75 : 0.5);
const isRunning = (w: WorkloadState): boolean => !w.deleting && w.readyReplicas > 0;

/** Workloads tied to the finalizer by name and by RBAC, with the Leases their pods hold. */
function candidates(
  s: Snapshot,
  finalizer: string,
  t: Tokens,
  held: Holders,
): { list: Candidate[]; orphans: string[] } {
  const found = new Map<string, Candidate>();
  const add = (w: WorkloadState, score: number, via?: string): void => {
    const c = found.get(key(w)) ?? { w, score: 0, via: [] };
    c.score += score;
    if (via) c.via.push(via);
    found.set(key(w), c);
  };
  for (const w of s.workloads) {
    const n = nameScore(w, t, finalizer);
    if (n > 0) add(w, n);
  }
  const orphans: string[] = [];
  for (const type of held.types.filter((x) => x.group !== '')) {
    for (const g of grantsFor(s.rbac, type.group, type.resource)) {
      const sa = `ServiceAccount ${g.serviceAccount.namespace}/${g.serviceAccount.name}`;
      const users = s.workloads.filter(
        (w) => w.namespace === g.serviceAccount.namespace && w.serviceAccount === g.serviceAccount.name,
      );
      for (const w of users)
        add(w, g.strength === 2 ? 6 : 3, `${g.chain}; ${sa} runs ${w.kind} ${w.namespace}/${w.name}`);
      if (users.length === 0 && g.strength === 2)
        orphans.push(`${g.chain}; no Deployment, StatefulSet or DaemonSet runs as ${sa}`);
    }
  }
  for (const c of found.values()) {
    for (const l of leasesOf(s, c.w)) {
      c.via.push(describeLease(l));
      if (l.fresh) c.score += 2;
    }
  }
  const list = [...found.values()].sort(
    (a, b) =>
      b.score - a.score || compareText(a.w.namespace, b.w.namespace) || compareText(a.w.name, b.w.name),
  );
  return { list, orphans: [...new Set(orphans)] };
}

/** Objects that held the finalizer at the earlier diagnosis and no longer do: its controller is at work. */
function progress(
  s: Snapshot,
  finalizer: string,
  held: Holders,
): { released: number; of: number; since: string } | undefined {
  const before = s.earlier?.holders[finalizer];
  if (!s.earlier || !before?.length || held.uids.length === 0) return undefined;
  const now = new Set(held.uids);
  const released = before.filter((uid) => !now.has(uid)).length;
  return released > 0 ? { released, of: before.length, since: s.earlier.takenAt } : undefined;
}

/** Matches a finalizer (and the objects holding it) to the controller that should remove it. */
export function findOwner(
  s: Snapshot,
  finalizer: string,
  held: Holders = { types: [], uids: [] },
): OwnerVerdict {
  const t = ownerTokens(
    finalizer,
    held.types.map((x) => x.group),
  );
  const { list, orphans } = candidates(s, finalizer, t, held);
  const via = (cs: Candidate[]): string[] => [...new Set(cs.flatMap((c) => c.via))];
  // The workloads found, how sure the best match is, and how they were found.
  const found = (cs: Candidate[]) => ({
    workloads: cs.map((c) => c.w),
    confidence: confidence(cs[0]!.score),
    via: via(cs),
  });
  const inside = list.filter((c) => c.w.namespace === s.namespace.name);
  const outside = list.filter((c) => c.w.namespace !== s.namespace.name);
  const running = outside.filter((c) => isRunning(c.w));
  const seen = progress(s, finalizer, held);
  if (seen) {
    const ago = secondsBetween(seen.since, s.takenAt) ?? 0;
    const line = `${seen.released} of ${seen.of} object(s) released ${finalizer} since the diagnosis ${ago}s earlier`;
    return {
      kind: 'working',
      ...seen,
      workloads: (running[0] ? running : list).map((c) => c.w),
      via: [line, ...via(list)],
    };
  }
  if (running[0]) return { kind: 'running', ...found(running) };
  if (inside[0]) {
    const clue = `${describeWorkload(inside[0].w)} lives in the namespace being deleted`;
    return { kind: 'deadlock', clue, ...found(inside) };
  }
  const lease = leasesNaming(s, t.primary).find((l) => l.fresh);
  if (lease) return { kind: 'running', workloads: [], confidence: 0.6, via: [describeLease(lease)] };
  if (outside[0]) return { kind: 'not-running', ...found(outside) };
  if (orphans.length > 0) {
    const tokens = [...t.primary, ...t.secondary];
    return { kind: 'absent', tokens, confidence: 0.85, via: orphans, detail: orphans[0]! };
  }
  const clue = deadlockClue(
    s,
    t,
    held.types.map((x) => x.group),
  );
  if (clue) return { kind: 'deadlock', workloads: [], clue, confidence: 0.6, via: [] };
  const failed = s.readErrors.find((e) => e.what.startsWith(READ_AREA.workloads));
  if (failed) return { kind: 'unknown', reason: `workloads could not be read: ${failed.error}`, via: [] };
  if (t.primary.length + t.secondary.length === 0)
    return {
      kind: 'unknown',
      reason: `the name ${finalizer} gives no hint of its controller, and no role found names its objects`,
      via: [],
    };
  const tokens = [...t.primary, ...t.secondary];
  const rbacUnread = s.readErrors.find((e) => e.what.startsWith(READ_AREA.rbac));
  // No name matched, and the roles that could name its controller were not read: that is no evidence of absence.
  if (rbacUnread)
    return {
      kind: 'unknown',
      reason: `no workload mentions ${tokens.join(', ')}, and roles could not be read (${rbacUnread.error}): whether a controller with another name may update these objects is unknown`,
      via: [],
    };
  const custom = held.types.filter((x) => x.group !== '').map((x) => `${x.resource}.${x.group}`);
  const note = custom.length
    ? [`no role bound to a ServiceAccount (Kubernetes' own aside) may update ${custom.join(', ')}`]
    : [];
  return {
    kind: 'absent',
    tokens,
    confidence: t.primary.length ? 0.8 : 0.6,
    via: note,
    detail: `no workload mentions ${tokens.join(', ')}`,
  };
}

/** Signs that the controller lived in this namespace and is already gone: Helm release or leftovers named after it. */
function deadlockClue(s: Snapshot, t: Tokens, groups: readonly string[]): string | undefined {
  const releaseNs = `meta.helm.sh/release-namespace=${s.namespace.name}`;
  const crd = s.crds.find((c) => groups.includes(c.group) && c.hints?.includes(releaseNs));
  if (crd) return `CRD ${crd.name} was installed by a Helm release in this namespace (${releaseNs})`;
  const named = s.leftovers.find(
    (l) =>
      !groups.includes(l.resource.group) &&
      CONTROLLER_WORDS.test(l.meta.name) &&
      t.primary.some((tok) => mentions(l.meta.name, tok)),
  );
  return named ? `${objectRef(named)} is left in this namespace, named like the controller` : undefined;
}

/** `Deployment kiali-operator/kiali-operator (1 ready)`. */
export function describeWorkload(w: WorkloadState): string {
  const state = w.deleting ? 'deleting' : `${w.readyReplicas} ready`;
  return `${w.kind} ${w.namespace}/${w.name} (${state})`;
}

/** The Finding.owner for a verdict, naming the controller and whether it is there. */
export function ownerOf(v: OwnerVerdict, what: string): NonNullable<Finding['owner']> {
  switch (v.kind) {
    case 'working':
    case 'running':
    case 'not-running':
    case 'deadlock': {
      const w = v.workloads[0];
      const controller = w ? describeWorkload(w) : `controller for ${what}`;
      const present = v.kind === 'running' || v.kind === 'working';
      const detail = v.kind === 'deadlock' ? v.clue : v.via[0];
      return { controller, present, ...(detail ? { detail } : {}) };
    }
    case 'absent':
      return {
        controller: `controller for ${what}`,
        present: false,
        detail: v.detail,
      };
    case 'unknown':
      return { controller: `controller for ${what}`, present: 'unknown', detail: v.reason };
  }
}
