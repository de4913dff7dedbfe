/**
 * The two writes of GitOps owners first: suspend one owner, or delete it and wait until it is gone, each under the
 * UID and resourceVersion it was read at (a change since gives a 409), each read back.
 */
import { toApplication, toHelmRelease, toKustomization, type GitOpsOwner } from '../diagnosis/index.js';
import { explain } from '../kube/explain.js';
import { PutBackLookup, undoneByWords } from '../force/index.js';
import type { Kube, WriteAnswer } from '../kube/port.js';
import type { OwnerAction } from '../model/lifecycle.js';
import { formatDuration } from '../shared/duration.js';
import type { Clock } from '../shared/ports.js';
import { prunedWith, suspension, type OwnerStep } from './gitops-plan.js';

/** What a write needs besides its guarded writer: reads, the clock, and when to stop waiting. */
export interface ActDeps {
  kube: Kube;
  clock: Clock;
  pollMs?: number;
  signal?: AbortSignal;
}

const PARSE: Record<string, (o: unknown) => GitOpsOwner> = {
  Kustomization: toKustomization,
  HelmRelease: toHelmRelease,
  Application: toApplication,
};

function resOf(o: GitOpsOwner): { group: string; version: string; resource: string } {
  return { group: o.group, version: (o.apiVersion ?? '').split('/')[1] ?? '', resource: o.resource };
}

const pathOf = (o: GitOpsOwner): string => {
  const r = resOf(o);
  return `/apis/${r.group}/${r.version}/namespaces/${encodeURIComponent(o.namespace)}/${r.resource}/${encodeURIComponent(o.name)}`;
};

/** Read the owner again: its state now, or undefined when it is gone. */
export async function reread(kube: Kube, o: GitOpsOwner): Promise<GitOpsOwner | undefined> {
  const raw = await kube.getRaw(pathOf(o));
  return raw === undefined ? undefined : PARSE[o.kind]!(raw);
}

/** The write's preconditions: the UID and the resourceVersion the owner was read at. */
const guardOf = (o: GitOpsOwner): { uid: string; resourceVersion: string } => ({
  uid: o.uid!,
  resourceVersion: o.resourceVersion!,
});

/**
 * Suspend the owner: suspended only when the PATCH's answer shows it, and a read after it still does (its controller,
 * or anyone, may undo it). An answer without it names the mutating webhook that undid it, when the run can tell.
 */
export async function suspend(step: OwnerStep, writer: Kube, kube: Kube): Promise<OwnerAction> {
  const o = step.owner;
  const base = { owner: step.name, targets: step.targets };
  const patch = suspension(o);
  const answer = await writer.patchSpec(resOf(o), o.namespace, o.name, guardOf(o), patch);
  if (answer === 'gone') return { ...base, outcome: 'deleted', note: 'gone before it could be suspended' };
  if (!PARSE[o.kind]!(answer.object).paused) {
    const who = await undoneBy(kube, o, answer);
    const note = `not suspended: the server answered the PATCH of spec ${JSON.stringify(patch)} without it (${pausedField(o)}); ${who}`;
    return { ...base, outcome: 'failed', note };
  }
  const now = await reread(kube, o);
  const instead = step.instead ? `, not deleted: ${step.instead}` : '';
  if (now?.paused)
    return { ...base, outcome: 'suspended', note: `suspended first (${now.paused})${instead}` };
  return {
    ...base,
    outcome: 'failed',
    note: 'the answer to the PATCH showed it suspended, but a read after it does not',
  };
}

/** The field a suspension sets, as a person looks for it. */
const pausedField = (o: GitOpsOwner): string =>
  o.kind === 'Application' ? 'spec.syncPolicy.automated still set' : 'spec.suspend not true';

/** Who undid the suspension, in words: a mutating webhook whose rules reach the PATCH, else unknown and why. */
async function undoneBy(kube: Kube, o: GitOpsOwner, answer: WriteAnswer): Promise<string> {
  const r = resOf(o);
  const written = {
    subject: { ...r, subresource: '', namespaced: true },
    resource: `${r.resource}.${r.group}`,
    name: o.name,
    namespace: o.namespace,
    field: 'spec' as const,
  };
  return undoneByWords(await new PutBackLookup(kube).who(written, answer), 'spec');
}

/** Delete the owner and wait until it is gone (its controller prunes what `prunedWith` says), by `until`. */
export async function remove(
  step: OwnerStep,
  writer: Kube,
  deps: ActDeps,
  until: number,
): Promise<OwnerAction> {
  const o = step.owner;
  const base = { owner: step.name, targets: step.targets };
  const pruned = prunedWith(o);
  const started = deps.clock.now();
  if ((await writer.deleteObject(resOf(o), o.namespace, o.name, guardOf(o))) === 'gone')
    return { ...base, outcome: 'deleted', note: 'gone before it could be deleted, by another hand' };
  for (;;) {
    const now = await reread(deps.kube, o);
    if (now === undefined || now.uid !== o.uid) {
      // Another owner of that name may have been created since: it is no longer the one read, and may apply again.
      const again = now ? `; another ${o.kind} of that name exists now (UID ${now.uid ?? '?'})` : '';
      const note = `deleted first, ${pruned.words}${again}`;
      return { ...base, outcome: 'deleted', note, pruned: pruned.pruned };
    }
    const left = until - deps.clock.now();
    if (left <= 0 || deps.signal?.aborted) {
      const held = (now.finalizers ?? []).join(', ') || 'no finalizer';
      const waited = formatDuration(deps.clock.now() - started);
      return {
        ...base,
        outcome: 'not-gone',
        note: `deleted, still there after ${waited} (${held}): being deleted, it applies nothing again; the namespace goes anyway`,
      };
    }
    await deps.clock.sleep(Math.min(deps.pollMs ?? 1_000, left));
  }
}

/**
 * Plan mode: the step's write sent as a dry run through `writer` (the adapter's `dryRun=All`): what it would do, and
 * whether the server would accept it. Nothing is read back or waited for: nothing changed.
 */
export async function dryRunOf(step: OwnerStep, writer: Kube): Promise<OwnerAction> {
  const o = step.owner;
  const would = wouldDo(step);
  const verb = step.verb === 'suspend' ? 'PATCH' : 'DELETE';
  try {
    const answer =
      step.verb === 'suspend'
        ? await writer.patchSpec(resOf(o), o.namespace, o.name, guardOf(o), suspension(o))
        : await writer.deleteObject(resOf(o), o.namespace, o.name, guardOf(o));
    if (answer === 'gone') return { ...would, outcome: 'deleted', note: 'gone already: nothing to write' };
    return { ...would, note: `${would.note}; the server accepted the ${verb} (dry run)` };
  } catch (error) {
    const not = step.verb === 'suspend' ? 'suspended' : 'deleted';
    return {
      ...would,
      outcome: 'failed',
      note: `would not be ${not}: the ${verb} (dry run) was refused: ${explain(error)}`,
    };
  }
}

/** What one step would do under `force: dry-run`, in the words of what it does. */
export function wouldDo(step: OwnerStep): OwnerAction {
  const base = { owner: step.name, targets: step.targets };
  if (step.verb === 'suspend') {
    const instead = step.instead ? `, not deleted: ${step.instead}` : '';
    const note = `would be suspended first (${JSON.stringify(suspension(step.owner))})${instead}`;
    return { ...base, outcome: 'would-suspend', note };
  }
  const pruned = prunedWith(step.owner);
  const note = `would be deleted first, ${pruned.words}`;
  return { ...base, outcome: 'would-delete', note, pruned: pruned.pruned };
}
