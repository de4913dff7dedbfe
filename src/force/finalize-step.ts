/** Step 3 of the plan, the last resort: whether /finalize is needed, allowed, and what it would orphan. Pure. */
import type { Finding } from '../diagnosis/types.js';
import type { NamespaceState } from '../kube/port.js';
import { namespaceLabel, type FinalizeStep, type Refusal } from './plan.js';
import { sorted, type ObjectPlan } from './steps.js';

const FINALIZE_RISK =
  'the namespace is removed without its content being deleted; whatever is left in storage reappears in a namespace created later with the same name';

/** The text of a namespace condition that reports a failure (status True), if any. */
function failing(ns: NamespaceState, type: string): string | undefined {
  const c = ns.conditions.find((x) => x.type === type && x.status === 'True');
  return c ? (c.message ?? c.reason ?? type) : undefined;
}

/**
 * What /finalize would leave in storage: objects keeping finalizers, what the controller still counts, and
 * objects it cannot even list while discovery fails.
 */
function orphansOf(ns: NamespaceState, objects: readonly ObjectPlan[]): string[] {
  const kept = objects
    .filter((o) => o.keep.length > 0)
    .map((o) => `${o.object.label} (keeps ${o.keep.join(', ')})`);
  const remaining = failing(ns, 'NamespaceContentRemaining');
  const discovery = failing(ns, 'NamespaceDeletionDiscoveryFailure');
  return [
    ...kept,
    ...(remaining ? [`content the namespace controller still counts (${remaining})`] : []),
    ...(discovery
      ? [`objects of API groups that discovery cannot reach, which cannot be listed (${discovery})`]
      : []),
  ];
}

/**
 * Why the namespace would still be blocked after steps 1–2, the ids of the findings that say so, and whether a
 * finding says only /finalize can help (e.g. discovery broken by a dead APIService).
 */
function blockersAfter(
  findings: readonly Finding[],
  objects: readonly ObjectPlan[],
): { why: string[]; ids: string[]; onlyFinalize: boolean } {
  const why: string[] = [];
  const ids: string[] = [];
  for (const f of findings) {
    for (const t of f.targets ?? []) {
      if (t.kind !== 'namespace-finalize') continue;
      why.push(t.reason);
      ids.push(f.id);
    }
  }
  for (const o of objects.filter((p) => p.keep.length > 0)) {
    why.push(`${o.object.label} keeps ${o.keep.join(', ')}`);
    ids.push(...o.object.findings.map((f) => f.id));
  }
  const onlyFinalize = findings.some((f) => f.targets?.some((t) => t.kind === 'namespace-finalize'));
  return { why: sorted(why), ids: sorted(ids), onlyFinalize };
}

/** Step 3, last resort: /finalize, only when allowed, still needed, and not stranding guarded objects. */
export function planFinalize(
  allowed: boolean,
  ns: NamespaceState,
  findings: readonly Finding[],
  objects: readonly ObjectPlan[],
  metadataKeep: readonly string[],
): { step?: FinalizeStep; refusals: Refusal[]; notes: string[] } {
  const { why, ids, onlyFinalize } = blockersAfter(findings, objects);
  if (why.length === 0) return { refusals: [], notes: [] };
  const object = namespaceLabel(ns.name);
  const blocked = `still blocked after the allowed removals: ${why.join('; ')}`;
  if (ns.specFinalizers.length === 0) {
    return {
      refusals: [],
      notes: [`${blocked}; spec.finalizers is already empty, so /finalize cannot help`],
    };
  }
  const orphans = orphansOf(ns, objects);
  const left = orphans.length ? orphans.join('; ') : 'nothing known';
  // Kept object finalizers alone are refused per object, with a pattern as the remedy; /finalize is offered
  // only when a finding says nothing else can help.
  if (!allowed && !onlyFinalize) return { refusals: [], notes: [] };
  if (!allowed) {
    const remedy = `fix the blockers (see the findings), or set force-finalize-namespace: true to clear spec.finalizers as a last resort, leaving in storage: ${left}`;
    return {
      refusals: [{ object, reason: `${blocked}; force-finalize-namespace is false`, remedy }],
      notes: [],
    };
  }
  const guarded = objects.flatMap((o) => o.keepGuarded.map((f) => `${o.object.label} (${f})`));
  if (guarded.length > 0) {
    const reason = `/finalize would strand ${guarded.join(', ')} in storage while still waiting or guarding real infrastructure`;
    const remedy =
      'wait for them to finish, or name those finalizers exactly in force-finalizers to remove them knowingly';
    return { refusals: [{ object, reason, remedy }], notes: [] };
  }
  const finalizers = sorted(ns.specFinalizers);
  const remove = finalizers.map((finalizer) => ({
    finalizer,
    allowedBy: { input: 'force-finalize-namespace' as const },
    risk: FINALIZE_RISK,
  }));
  const step: FinalizeStep = {
    kind: 'namespace-finalize',
    object,
    field: 'spec.finalizers',
    finalizers,
    remove,
    keep: [],
    findings: ids,
    reason: blocked,
    orphans,
  };
  const notes = metadataKeep.length
    ? [
        `after /finalize the namespace stays until its metadata.finalizers (${metadataKeep.join(', ')}) are removed`,
      ]
    : [];
  return { step, refusals: [], notes };
}
