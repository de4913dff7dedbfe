import { compareText } from '../shared/compare.js';
import { READ_AREA } from './paths.js';
import { objectRef } from './refs.js';
import type { Finding, Snapshot, WorkloadState } from './types.js';

/** What the cluster says about the controller that should remove a finalizer. */
export type OwnerVerdict =
  | { kind: 'running'; workloads: WorkloadState[]; confidence: number }
  | { kind: 'not-running'; workloads: WorkloadState[]; confidence: number }
  | { kind: 'deadlock'; workloads: WorkloadState[]; clue: string; confidence: number }
  | { kind: 'absent'; tokens: string[]; confidence: number }
  | { kind: 'unknown'; reason: string };

interface Tokens {
  primary: string[];
  secondary: string[];
}

// Domain labels that say nothing about which product a finalizer belongs to.
const GENERIC = new Set(
  'io com org net dev sh cloud ai app co k8s x-k8s kubernetes operator operators controller controllers api apis www github cluster resources protection cleanup'.split(
    ' ',
  ),
);

const CONTROLLER_WORDS = /operator|controller|manager/;

/** Product names to look for: the label before the TLD of the finalizer's domain and of each group first. */
export function ownerTokens(finalizer: string, groups: readonly string[]): Tokens {
  const slash = finalizer.indexOf('/');
  const domains = [slash >= 0 ? finalizer.slice(0, slash) : finalizer, ...groups];
  const primary = new Set<string>();
  const secondary = new Set<string>();
  for (const domain of domains) {
    const labels = domain.toLowerCase().split('.');
    labels.forEach((label, i) => (i === labels.length - 2 ? primary : secondary).add(label));
  }
  const useful = (t: string): boolean => t.length >= 3 && !GENERIC.has(t) && !t.includes('finalizer');
  const p = [...primary].filter(useful);
  return { primary: p, secondary: [...secondary].filter((t) => useful(t) && !p.includes(t)) };
}

/** Whether `text` mentions `token` as a word start (so `kiali` matches `quay.io/kiali/kiali-operator`). */
function mentions(text: string, token: string): boolean {
  const escaped = token.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^a-z0-9])${escaped}`).test(text.toLowerCase());
}

function score(w: WorkloadState, t: Tokens, finalizer: string): number {
  const inName = (tok: string): boolean => mentions(w.name, tok) || mentions(w.namespace, tok);
  const inHints = (tok: string): boolean => w.hints.some((h) => mentions(h, tok));
  let total = 0;
  for (const tok of t.primary) total += (inName(tok) ? 2 : 0) + (inHints(tok) ? 2 : 0);
  for (const tok of t.secondary) total += (inName(tok) ? 1 : 0) + (inHints(tok) ? 1 : 0);
  if (total === 0) return 0;
  if (w.hints.some((h) => h.includes(finalizer))) total += 3;
  if (CONTROLLER_WORDS.test(w.name)) total += 1;
  return total;
}

/** Matches a finalizer (and the groups of the objects holding it) to the workloads that could serve it. */
export function findOwner(s: Snapshot, finalizer: string, groups: readonly string[]): OwnerVerdict {
  const tokens = ownerTokens(finalizer, groups);
  if (tokens.primary.length + tokens.secondary.length === 0) {
    return { kind: 'unknown', reason: `the name ${finalizer} gives no hint of its controller` };
  }
  const scored = s.workloads
    .map((w) => ({ w, n: score(w, tokens, finalizer) }))
    .filter((x) => x.n > 0)
    .sort(
      (a, b) => b.n - a.n || compareText(a.w.namespace, b.w.namespace) || compareText(a.w.name, b.w.name),
    );
  const confidence = (n: number): number => (n >= 5 ? 0.9 : n >= 3 ? 0.75 : 0.5);
  const inside = scored.filter((x) => x.w.namespace === s.namespace.name);
  const outside = scored.filter((x) => x.w.namespace !== s.namespace.name);
  const running = outside.filter((x) => !x.w.deleting && x.w.readyReplicas > 0);
  if (running[0]) {
    return { kind: 'running', workloads: running.map((x) => x.w), confidence: confidence(running[0].n) };
  }
  if (inside[0]) {
    const clue = `${describeWorkload(inside[0].w)} lives in the namespace being deleted`;
    return { kind: 'deadlock', workloads: inside.map((x) => x.w), clue, confidence: confidence(inside[0].n) };
  }
  if (outside[0]) {
    return { kind: 'not-running', workloads: outside.map((x) => x.w), confidence: confidence(outside[0].n) };
  }
  const clue = deadlockClue(s, tokens, groups);
  if (clue) return { kind: 'deadlock', workloads: [], clue, confidence: 0.6 };
  const failed = s.readErrors.find((e) => e.what.startsWith(READ_AREA.workloads));
  if (failed) return { kind: 'unknown', reason: `workloads could not be read: ${failed.error}` };
  return {
    kind: 'absent',
    tokens: [...tokens.primary, ...tokens.secondary],
    confidence: tokens.primary.length ? 0.8 : 0.6,
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
    case 'running':
    case 'not-running':
    case 'deadlock': {
      const w = v.workloads[0];
      const controller = w ? describeWorkload(w) : `controller for ${what}`;
      return {
        controller,
        present: v.kind === 'running',
        detail: v.kind === 'deadlock' ? v.clue : undefined,
      };
    }
    case 'absent':
      return {
        controller: `controller for ${what}`,
        present: false,
        detail: `no workload mentions ${v.tokens.join(', ')}`,
      };
    case 'unknown':
      return { controller: `controller for ${what}`, present: 'unknown', detail: v.reason };
  }
}
