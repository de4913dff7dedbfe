/** Step 3 of the plan, the last resort: whether /finalize is needed, allowed, and what it would orphan. Pure. */
import type { Finding, Leftover } from '../model/findings.js';
import type { NamespaceState } from '../model/cluster.js';
import { namespaceLabel } from './labels.js';
import { objectLabel } from '../diagnosis/index.js';
import { type FinalizeStep, type Refusal } from '../model/force.js';
import { sorted, type ObjectPlan } from './plan-objects.js';

const FINALIZE_RISK =
  'the namespace is removed without its content being deleted; whatever is left in storage reappears in a namespace created later with the same name';

/** The text of a namespace condition that reports a failure (status True), if any. */
function failing(ns: NamespaceState, type: string): string | undefined {
  const c = ns.conditions.find((x) => x.type === type && x.status === 'True');
  return c ? (c.message ?? c.reason ?? type) : undefined;
}

/** A namespace-finalize reason below this confidence is a guess: it never makes /finalize eligible on its own. */
export const FINALIZE_MIN_CONFIDENCE = 0.7;

/** Most objects named one by one in what /finalize leaves in storage; the rest are counted. */
const ORPHANS_LISTED = 50;

/** What the earlier steps of the same plan do, so the last one knows what they leave. */
export interface EarlierSteps {
  /** Everything the scan found in the namespace (empty when unknown). */
  leftovers: readonly Leftover[];
  /** UIDs of pods that step 0 deletes, or will once the node-lost threshold passes. */
  podsHandled: ReadonlySet<string>;
}

/** One leftover in words: why it stays, or undefined when the earlier steps let it go. */
function staysBecause(
  l: Leftover,
  objects: readonly ObjectPlan[],
  pods: ReadonlySet<string>,
): string | undefined {
  const plan = objects.find((o) => o.object.uid === l.meta.uid);
  const deleting = l.meta.deletionTimestamp !== undefined;
  // Step 1 skips an object not marked for deletion, so it keeps every finalizer it has.
  const keeps = plan && deleting ? plan.keep : l.meta.finalizers;
  if (l.resource.group === '' && l.resource.resource === 'pods' && pods.has(l.meta.uid)) return undefined;
  // A deleting object whose last finalizers step 1 removes goes; one the kubelet must still confirm stays.
  if (deleting && keeps.length === 0) return plan ? undefined : 'being deleted';
  const parts = [
    ...(deleting ? [] : ['never marked for deletion']),
    ...(keeps.length ? [`keeps ${keeps.join(', ')}`] : []),
  ];
  return parts.join('; ') || 'being deleted';
}

/**
 * What /finalize would leave in storage: every object the scan saw that the earlier steps do not let go (those
 * never marked for deletion too), what the controller still counts, and what discovery cannot list.
 */
function orphansOf(ns: NamespaceState, objects: readonly ObjectPlan[], earlier: EarlierSteps): string[] {
  const seen = new Set(earlier.leftovers.map((l) => l.meta.uid));
  const named = earlier.leftovers.flatMap((l) => {
    const why = staysBecause(l, objects, earlier.podsHandled);
    return why ? [`${objectLabel(l.resource, l.meta.name)} (${why})`] : [];
  });
  const kept = objects
    .filter((o) => o.keep.length > 0 && !seen.has(o.object.uid))
    .map((o) => `${o.object.label} (keeps ${o.keep.join(', ')})`);
  const all = sorted([...named, ...kept]);
  const listed =
    all.length > ORPHANS_LISTED
      ? [...all.slice(0, ORPHANS_LISTED), `${all.length - ORPHANS_LISTED} more object(s)`]
      : all;
  const remaining = failing(ns, 'NamespaceContentRemaining');
  const discovery = failing(ns, 'NamespaceDeletionDiscoveryFailure');
  return [
    ...listed,
    ...(remaining ? [`content the namespace controller still counts (${remaining})`] : []),
    ...(discovery
      ? [`objects of API groups that discovery cannot reach, which cannot be listed (${discovery})`]
      : []),
  ];
}

/**
 * Why the namespace would still be blocked after steps 0–2, the ids of the findings that say so, whether a
 * finding says only /finalize can help (e.g. discovery broken by a dead APIService), and guesses left out.
 */
function blockersAfter(
  findings: readonly Finding[],
  objects: readonly ObjectPlan[],
  podsHandled: ReadonlySet<string>,
): Blockers {
  const why: string[] = [];
  const ids: string[] = [];
  const guesses: string[] = [];
  const leaves: string[] = [];
  const denied: string[] = [];
  let onlyFinalize = false;
  for (const f of findings) {
    for (const t of f.targets ?? []) {
      if (t.kind === 'denied-on-purpose') {
        denied.push(t.by);
        ids.push(f.id);
      } else if (t.kind === 'namespace-finalize' && (t.confidence ?? 1) < FINALIZE_MIN_CONFIDENCE) {
        guesses.push(`${t.reason} (confidence ${t.confidence})`);
      } else if (t.kind === 'namespace-finalize') {
        why.push(t.reason);
        ids.push(f.id);
        leaves.push(...(t.leaves ?? []));
        onlyFinalize = true;
      } else if (t.kind === 'pod-on-lost-node' && !podsHandled.has(t.uid)) {
        why.push(
          `pods/${t.name} cannot finish terminating: ${t.nodeExists ? `node ${t.node} is NotReady` : `node ${t.node} is gone`}`,
        );
        ids.push(f.id);
      }
    }
  }
  for (const o of objects.filter((p) => p.keep.length > 0)) {
    why.push(`${o.object.label} keeps ${o.keep.join(', ')}`);
    ids.push(...o.object.findings.map((f) => f.id));
  }
  for (const d of denied) why.push(`${d} refuses deletes on purpose`);
  return {
    why: sorted(why),
    ids: sorted(ids),
    onlyFinalize,
    guesses: sorted(guesses),
    leaves: sorted([...new Set(leaves)]),
    denied: sorted([...new Set(denied)]),
  };
}

/** What still blocks after steps 0–2, and what that means for /finalize. */
interface Blockers {
  why: string[];
  ids: string[];
  onlyFinalize: boolean;
  guesses: string[];
  /** What /finalize would leave that the scan could not list. */
  leaves: string[];
  /** Controls that are up and refuse on purpose: /finalize never goes around them. */
  denied: string[];
}

/** Step 3, last resort: /finalize, only when allowed, still needed, and not stranding guarded objects. */
export function planFinalize(
  allowed: boolean,
  ns: NamespaceState,
  findings: readonly Finding[],
  objects: readonly ObjectPlan[],
  metadataKeep: readonly string[],
  earlier: EarlierSteps,
): { step?: FinalizeStep; refusals: Refusal[]; notes: string[] } {
  const blockers = blockersAfter(findings, objects, earlier.podsHandled);
  const guessNotes = blockers.guesses.map(
    (g) =>
      `not a reason for /finalize on its own: ${g} is a guess below the ${FINALIZE_MIN_CONFIDENCE} confidence threshold`,
  );
  const done = planFinalizeStep(allowed, ns, objects, metadataKeep, blockers, earlier);
  return { ...done, notes: [...guessNotes, ...done.notes] };
}

function planFinalizeStep(
  allowed: boolean,
  ns: NamespaceState,
  objects: readonly ObjectPlan[],
  metadataKeep: readonly string[],
  { why, ids, onlyFinalize, leaves, denied }: Blockers,
  earlier: EarlierSteps,
): { step?: FinalizeStep; refusals: Refusal[]; notes: string[] } {
  if (why.length === 0) return { refusals: [], notes: [] };
  const object = namespaceLabel(ns.name);
  const blocked = `still blocked after the allowed removals: ${why.join('; ')}`;
  if (ns.specFinalizers.length === 0) {
    return {
      refusals: [],
      notes: [`${blocked}; spec.finalizers is already empty, so /finalize cannot help`],
    };
  }
  if (denied.length > 0 && (allowed || onlyFinalize)) {
    const reason = `/finalize would go around ${denied.join(', ')}, which is up and refuses on purpose: what it protects would stay in storage`;
    const remedy =
      'resolve the denial with the policy’s owner (change the object, or an exception for this namespace)';
    return { refusals: [{ object, reason, remedy }], notes: [] };
  }
  const orphans = [...orphansOf(ns, objects, earlier), ...leaves];
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
