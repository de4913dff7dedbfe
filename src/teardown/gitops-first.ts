/**
 * GitOps owners first: before any namespace DELETE, the owners that would apply a target again are read, suspended
 * or deleted as `gitops-owners` allows (each write through the write guard, under the owner's UID), and waited for
 * within their share of the timeout. `force: dry-run` writes nothing and says what would be done.
 */
import {
  readGitOps,
  Reads,
  toApplication,
  toHelmRelease,
  toKustomization,
  type GitOpsOwner,
} from '../diagnosis/index.js';
import { explain } from '../kube/explain.js';
import type { Kube, WriteAnswer } from '../kube/port.js';
import { PutBackLookup, undoneByWords } from '../force/index.js';
import type { NamespaceState } from '../model/cluster.js';
import type { OwnerAction } from '../model/lifecycle.js';
import type { Settings } from '../settings/settings.js';
import { formatDuration } from '../shared/duration.js';
import { mapPool } from '../shared/map-pool.js';
import type { Clock, Logger } from '../shared/ports.js';
import { grantOf, planOwners, prunedWith, suspension, type OwnerStep } from './gitops-plan.js';
import type { OwnerGrant } from './write-guard.js';

/** What the phase needs: reads through the run's port, and a writer guarded by the grants it verified. */
export interface OwnersFirstDeps {
  kube: Kube;
  clock: Clock;
  logger: Logger;
  /** The run's write guard, extended with the owners this phase verified. */
  writer: (grants: readonly OwnerGrant[]) => Kube;
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
async function reread(kube: Kube, o: GitOpsOwner): Promise<GitOpsOwner | undefined> {
  const raw = await kube.getRaw(pathOf(o));
  return raw === undefined ? undefined : PARSE[o.kind]!(raw);
}

/**
 * Suspend the owner: suspended only when the PATCH's answer shows it, and a read after it still does (its controller,
 * or anyone, may undo it). An answer without it names the mutating webhook that undid it, when the run can tell.
 */
async function suspend(step: OwnerStep, writer: Kube, kube: Kube): Promise<OwnerAction> {
  const o = step.owner;
  const base = { owner: step.name, targets: step.targets };
  const guard = { uid: o.uid!, resourceVersion: o.resourceVersion! };
  const patch = suspension(o);
  const answer = await writer.patchSpec(resOf(o), o.namespace, o.name, guard, patch);
  if (answer === 'gone') return { ...base, outcome: 'deleted', note: 'gone before it could be suspended' };
  if (!PARSE[o.kind]!(answer.object).paused) {
    const who = await undoneBy(kube, o, answer);
    const note = `not suspended: the server answered the PATCH of spec ${JSON.stringify(patch)} without it (${pausedField(o)}); ${who}`;
    return { ...base, outcome: 'failed', note };
  }
  const now = await reread(kube, o);
  if (now?.paused) return { ...base, outcome: 'suspended', note: `suspended first (${now.paused})` };
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
async function remove(
  step: OwnerStep,
  writer: Kube,
  deps: OwnersFirstDeps,
  until: number,
): Promise<OwnerAction> {
  const o = step.owner;
  const base = { owner: step.name, targets: step.targets };
  const pruned = prunedWith(o);
  const started = deps.clock.now();
  await writer.deleteObject(resOf(o), o.namespace, o.name, { uid: o.uid! });
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

/** What one step does, or would do under `force: dry-run`. */
async function act(
  step: OwnerStep,
  writer: Kube,
  deps: OwnersFirstDeps,
  dry: boolean,
  until: number,
): Promise<OwnerAction> {
  const base = { owner: step.name, targets: step.targets };
  if (step.verb === 'none')
    return { ...base, outcome: step.already ? 'already' : 'left-alone', note: step.why ?? '' };
  if (dry) {
    const pruned = prunedWith(step.owner);
    return step.verb === 'suspend'
      ? {
          ...base,
          outcome: 'would-suspend',
          note: `would be suspended first (${JSON.stringify(suspension(step.owner))})`,
        }
      : {
          ...base,
          outcome: 'would-delete',
          note: `would be deleted first, ${pruned.words}`,
          pruned: pruned.pruned,
        };
  }
  try {
    return step.verb === 'suspend'
      ? await suspend(step, writer, deps.kube)
      : await remove(step, writer, deps, until);
  } catch (error) {
    return {
      ...base,
      outcome: 'failed',
      note: `not ${step.verb === 'suspend' ? 'suspended' : 'deleted'}: ${explain(error)}`,
    };
  }
}

/** The phase for the Active targets this run deletes; an empty list when no owner would apply one again. */
export async function ownersFirst(
  settings: Settings,
  deps: OwnersFirstDeps,
  targets: readonly NamespaceState[],
  until: number,
): Promise<OwnerAction[]> {
  const reads = new Reads(deps.kube, 8, 500);
  const owners = await readGitOps(reads);
  const views = targets.map((t) => ({ name: t.name, labels: t.labels }));
  const steps = planOwners(owners, views, settings.lifecycle.gitopsOwners);
  const writer = deps.writer(steps.filter((s) => s.verb !== 'none').map(grantOf));
  const dry = settings.force.mode === 'dry-run';
  const done = await mapPool(steps, 4, (s) => act(s, writer, deps, dry, until));
  for (const a of done) deps.logger.info(`${a.owner}: ${a.outcome} — ${a.note}`);
  const unread = reads.errors[0];
  if (!unread) return done;
  const note = `${unread.what}: ${unread.error}; an owner there may apply the targets again`;
  deps.logger.warning(`GitOps owners could not all be read: ${note}`);
  return [{ owner: 'GitOps owners', targets: [], outcome: 'unread', note }, ...done];
}
