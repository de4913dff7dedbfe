/** Pure planning of each kind of forced change; `decide` in src/force/policy.ts puts them in order. */
import type { Finding } from '../model/findings.js';
import type { ApiResource, NamespaceState } from '../model/cluster.js';
import { compareText } from '../shared/compare.js';
import { judge, needsExactName } from './judge.js';
import { namespaceLabel } from './labels.js';
import { objectLabel } from '../diagnosis/index.js';
import { type NamespaceMetadataStep, type ObjectStep, type Refusal, type Removal } from '../model/force.js';

/** One object that findings name as blocking, merged across findings. */
export interface BlockedObject {
  resource: Pick<ApiResource, 'group' | 'version' | 'resource' | 'kind'>;
  name: string;
  uid: string;
  /** As the scan listed it; with `deleting` and `listed`, what a guarded write needs without reading again. */
  resourceVersion: string;
  deleting: boolean;
  /** Its finalizers in the order the object holds them. */
  listed: string[];
  label: string;
  finalizers: string[];
  waiting: Set<string>;
  findings: Finding[];
  /** A Service's cloud load balancer, as the diagnosis read it. */
  loadBalancer?: string[];
}

/** The plan for one object: its step (when something is allowed), refusals, and what stays. */
export interface ObjectPlan {
  object: BlockedObject;
  step?: ObjectStep;
  refusals: Refusal[];
  keep: string[];
  /** Kept entries that wait legitimately or guard infrastructure: /finalize must not strand them. */
  keepGuarded: string[];
}

/** Unique and sorted. */
export const sorted = (items: Iterable<string>): string[] => [...new Set(items)].sort(compareText);

/** Objects with finalizers named by `object-finalizers` targets, merged by identity and sorted by label. */
export function blockedObjects(findings: readonly Finding[]): BlockedObject[] {
  const merged = new Map<string, BlockedObject>();
  for (const finding of findings) {
    for (const t of finding.targets ?? []) {
      if (t.kind !== 'object-finalizers') continue;
      const label = objectLabel(t.resource, t.name);
      const key = `${label} ${t.uid}`;
      const known = merged.get(key) ?? {
        resource: t.resource,
        name: t.name,
        uid: t.uid,
        resourceVersion: t.resourceVersion,
        deleting: t.deleting,
        listed: [...t.finalizers],
        label,
        finalizers: [],
        waiting: new Set<string>(),
        findings: [],
        ...(t.loadBalancer ? { loadBalancer: t.loadBalancer } : {}),
      };
      known.finalizers = sorted([...known.finalizers, ...t.finalizers]);
      t.waiting.forEach((w) => known.waiting.add(w));
      if (!known.findings.includes(finding)) known.findings.push(finding);
      known.findings.sort((a, b) => compareText(a.id, b.id));
      merged.set(key, known);
    }
  }
  return [...merged.entries()].sort(([a], [b]) => compareText(a, b)).map(([, o]) => o);
}

/** The owner to weigh risk by: a running one first, as that is the one whose cleanup would be skipped. */
function ownerOf(findings: readonly Finding[]): Finding['owner'] {
  return findings.find((f) => f.owner?.present === true)?.owner ?? findings.find((f) => f.owner)?.owner;
}

/** Judge every entry of a finalizer list; the caller labels the refusals. */
function judgeAll(
  finalizers: string[],
  waiting: Set<string>,
  patterns: readonly string[],
  owner: Finding['owner'],
  loadBalancer?: readonly string[],
) {
  const remove: Removal[] = [];
  const refused: Omit<Refusal, 'object'>[] = [];
  for (const f of finalizers) {
    const verdict = judge(f, waiting.has(f), patterns, owner, loadBalancer);
    if ('removal' in verdict) remove.push(verdict.removal);
    else refused.push(verdict.refusal);
  }
  const removed = new Set(remove.map((r) => r.finalizer));
  return { remove, refused, keep: finalizers.filter((f) => !removed.has(f)) };
}

/** Step 1 for one object: remove only the entries a pattern allows. */
export function planObject(
  object: BlockedObject,
  namespace: string,
  patterns: readonly string[],
): ObjectPlan {
  const { remove, refused, keep } = judgeAll(
    object.finalizers,
    object.waiting,
    patterns,
    ownerOf(object.findings),
    object.loadBalancer,
  );
  const refusals = refused.map((r) => ({ object: object.label, ...r }));
  const keepGuarded = keep.filter((f) => needsExactName(f, object.waiting.has(f)));
  const plan: ObjectPlan = { object, refusals, keep, keepGuarded };
  if (remove.length === 0) return plan;
  plan.step = {
    kind: 'object-finalizers',
    object: object.label,
    field: 'metadata.finalizers',
    finalizers: object.finalizers,
    remove,
    keep,
    findings: sorted(object.findings.map((f) => f.id)),
    reason: sorted(object.findings.map((f) => f.summary)).join('; '),
    resource: object.resource,
    namespace,
    name: object.name,
    uid: object.uid,
    resourceVersion: object.resourceVersion,
    deleting: object.deleting,
    listed: object.listed,
  };
  return plan;
}

/** Step 2: remove allowed entries of the namespace's own metadata.finalizers, as observed now. */
export function planNamespaceMetadata(
  ns: NamespaceState,
  findings: readonly Finding[],
  patterns: readonly string[],
): { step?: NamespaceMetadataStep; refusals: Refusal[]; keep: string[] } {
  const finalizers = sorted(ns.metadataFinalizers);
  const naming = findings.filter((f) => f.targets?.some((t) => t.kind === 'namespace-metadata-finalizers'));
  const { remove, refused, keep } = judgeAll(finalizers, new Set(), patterns, ownerOf(naming));
  const refusals = refused.map((r) => ({ object: namespaceLabel(ns.name), ...r }));
  if (remove.length === 0) return { refusals, keep };
  const step: NamespaceMetadataStep = {
    kind: 'namespace-metadata-finalizers',
    object: namespaceLabel(ns.name),
    field: 'metadata.finalizers',
    finalizers,
    remove,
    keep,
    findings: sorted(naming.map((f) => f.id)),
    reason: naming.length
      ? sorted(naming.map((f) => f.summary)).join('; ')
      : `metadata.finalizers holds ${finalizers.join(', ')}`,
  };
  return { step, refusals, keep };
}
