/**
 * GitOps owners first: before any namespace DELETE, the owners that would apply a target again are read, suspended
 * or deleted as `gitops-owners` allows (each write through the write guard, under the owner's UID and
 * resourceVersion), and waited for within their share of the timeout. An owner that changed since it was read (409)
 * is read once more and decided again. `force: dry-run` writes nothing and says what would be done; plan mode sends
 * each write as a dry run and says what the server answered.
 */
import { readGitOps, Reads } from '../diagnosis/index.js';
import { explain } from '../kube/explain.js';
import { KubeError, type Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { GitopsOwnerPolicy, OwnerAction } from '../model/lifecycle.js';
import type { Settings } from '../settings/settings.js';
import { mapPool } from '../shared/map-pool.js';
import type { Clock, Logger } from '../shared/ports.js';
import { dryRunOf, remove, reread, suspend, wouldDo } from './gitops-act.js';
import { grantOf, planOwners, type OwnerStep, type TargetView } from './gitops-plan.js';
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

/** One pass over the owners: what the plan was made of, to make it again for an owner read again. */
interface Pass {
  deps: OwnersFirstDeps;
  views: TargetView[];
  policy: GitopsOwnerPolicy;
  until: number;
}

const baseOf = (step: OwnerStep): Pick<OwnerAction, 'owner' | 'targets'> => ({
  owner: step.name,
  targets: step.targets,
});

const conflicted = (error: unknown): boolean => error instanceof KubeError && error.code === 409;

/** The write of a step that writes: suspend, or delete and wait. */
function write(step: OwnerStep, writer: Kube, pass: Pass): Promise<OwnerAction> {
  return step.verb === 'suspend'
    ? suspend(step, writer, pass.deps.kube)
    : remove(step, writer, pass.deps, pass.until);
}

const failed = (step: OwnerStep, error: unknown, before = ''): OwnerAction => ({
  ...baseOf(step),
  outcome: 'failed',
  note: `${before}not ${step.verb === 'suspend' ? 'suspended' : 'deleted'}: ${explain(error)}`,
});

/**
 * After a 409 (the owner changed since it was read): read it once more and decide again; what that decision writes
 * goes under a grant for the owner as read now, and is not tried a third time.
 */
async function again(step: OwnerStep, pass: Pass): Promise<OwnerAction> {
  const o = step.owner;
  const now = await reread(pass.deps.kube, o).catch((e: unknown) => e as Error);
  if (now instanceof Error) return failed(step, now, 'changed since it was read, and not read again: ');
  const changed = `changed since it was read (resourceVersion ${o.resourceVersion ?? '?'} → ${now?.resourceVersion ?? 'gone'}), read again: `;
  const base = baseOf(step);
  if (now === undefined) return { ...base, outcome: 'deleted', note: `${changed}gone, by another hand` };
  if (now.uid !== o.uid) {
    const note = `${changed}another ${o.kind} of that name now (UID ${now.uid ?? '?'}): never touched`;
    return { ...base, outcome: 'left-alone', note };
  }
  const [next] = planOwners([now], pass.views, pass.policy);
  if (next === undefined)
    return { ...base, outcome: 'left-alone', note: `${changed}it applies no target now: never touched` };
  if (next.verb === 'none')
    return {
      ...baseOf(next),
      outcome: next.already ? 'already' : 'left-alone',
      note: `${changed}${next.why ?? ''}`,
    };
  try {
    const done = await write(next, pass.deps.writer([grantOf(next)]), pass);
    return { ...done, note: `${changed}${done.note}` };
  } catch (error) {
    const twice = conflicted(error) ? 'it changed again before this write (409 twice), ' : '';
    return failed(next, error, `${changed}${twice}`);
  }
}

/** What one step does, or would do: under `force: dry-run` (nothing sent), or in plan mode (sent as a dry run). */
async function act(step: OwnerStep, writer: Kube, pass: Pass, dry: 'plan' | boolean): Promise<OwnerAction> {
  if (step.verb === 'none')
    return { ...baseOf(step), outcome: step.already ? 'already' : 'left-alone', note: step.why ?? '' };
  if (dry === 'plan') return dryRunOf(step, writer);
  if (dry) return wouldDo(step);
  try {
    return await write(step, writer, pass);
  } catch (error) {
    return conflicted(error) ? again(step, pass) : failed(step, error);
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
  const policy = settings.lifecycle.gitopsOwners;
  const steps = planOwners(owners, views, policy);
  const writer = deps.writer(steps.filter((s) => s.verb !== 'none').map(grantOf));
  const dry = settings.dryRun ? 'plan' : settings.force.mode === 'dry-run';
  const pass = { deps, views, policy, until };
  const done = await mapPool(steps, 4, (s) => act(s, writer, pass, dry));
  for (const a of done) deps.logger.info(`${a.owner}: ${a.outcome} — ${a.note}`);
  const unread = reads.errors[0];
  if (!unread) return done;
  const note = `${unread.what}: ${unread.error}; an owner there may apply the targets again`;
  deps.logger.warning(`GitOps owners could not all be read: ${note}`);
  return [{ owner: 'GitOps owners', targets: [], outcome: 'unread', note }, ...done];
}
