/**
 * Which GitOps owners of the targets go first and how: an owner that would apply a target again is suspended or
 * deleted only when every namespace it targets is a target, and deleted only when nothing its controller removes with
 * it lies outside the targets; any other is left alone, with the reason. Pure.
 */
import { linkOf, type GitOpsOwner } from '../diagnosis/index.js';
import type { GitopsOwnerPolicy } from '../model/lifecycle.js';
import type { OwnerGrant } from './write-guard.js';

/** One owner of the targets, and what the policy makes of it. */
export interface OwnerStep {
  owner: GitOpsOwner;
  /** `Kustomization flux-system/preview-web-5`. */
  name: string;
  /** The targets it applies again once gone. */
  targets: string[];
  /** `suspend` or `delete` it; `none` leaves it as it is, `why` says why. */
  verb: 'suspend' | 'delete' | 'none';
  why?: string;
  /** Whether it was already suspended or being deleted before this run (then `none`). */
  already?: boolean;
  /** Why `delete-or-suspend` suspends it rather than deleting it: what deleting it would take. */
  instead?: string;
}

/** A target as the plan needs it: its name and labels (GitOps controllers mark what they applied). */
export interface TargetView {
  name: string;
  labels: Record<string, string>;
}

export const ownerName = (o: GitOpsOwner): string => `${o.kind} ${o.namespace}/${o.name}`;

/** What the remedy offers when an owner is not deleted: suspending it, which removes nothing, as a choice made. */
const OFFER = 'gitops-owners: suspend (or delete-or-suspend) suspends it instead, which removes nothing';

/** At most this many objects are named in one line; the rest are counted. */
const NAMED = 8;

/** Every namespace the owner applies into or creates, with the field that says so. */
function reach(o: GitOpsOwner): { namespace: string; field: string }[] {
  const created = o.createsNamespace.map((namespace) => ({ namespace, field: 'the Namespace object' }));
  return [...o.targets, ...created];
}

/** Argo CD's finalizer that deletes an Application's resources before the Application (`…/foreground`, `…/background` too). */
const ARGO_RESOURCES_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

const cascades = (o: GitOpsOwner): boolean =>
  (o.finalizers ?? []).some((f) => f.startsWith(ARGO_RESOURCES_FINALIZER));

/**
 * Whether kustomize-controller deletes a Kustomization's inventory with it: `spec.deletionPolicy` `MirrorPrune` (the
 * default) follows `spec.prune`, `Orphan` never; `Delete`, `WaitForTermination` and a value not known here do.
 */
function kustomizationPrunes(o: GitOpsOwner): boolean {
  const policy = o.deletionPolicy ?? 'MirrorPrune';
  return policy === 'MirrorPrune' ? o.prune === true : policy !== 'Orphan';
}

/** Whether deleting the owner makes its controller remove what it applied. */
function removesApplied(o: GitOpsOwner): boolean {
  // Flux's controllers skip their garbage collection (and Helm's uninstall) for a suspended owner being deleted.
  if (o.paused && o.kind !== 'Application') return false;
  if (o.kind === 'Kustomization') return kustomizationPrunes(o);
  if (o.kind === 'Application') return cascades(o);
  return true;
}

/**
 * What deleting the owner removes beyond the namespaces it targets (`ClusterRole web-reader`): nothing when its
 * controller removes nothing with it; undefined when what it applied is not read.
 */
export function removedBeyond(o: GitOpsOwner): string[] | undefined {
  if (!removesApplied(o)) return [];
  return o.clusterObjects
    ?.filter((c) => !(c.group === '' && c.kind === 'Namespace'))
    .map((c) => `${c.kind} ${c.name}`);
}

const listed = (names: string[]): string =>
  names.length <= NAMED
    ? names.join(', ')
    : `${names.slice(0, NAMED).join(', ')} and ${names.length - NAMED} more`;

/** Why the owner is not deleted (what deleting it would take outside the targets); undefined when it may be. */
function notDeleted(o: GitOpsOwner): string | undefined {
  const taken = removedBeyond(o);
  if (taken === undefined) {
    const what =
      o.kind === 'HelmRelease'
        ? 'uninstalls its Helm release, whose objects this run cannot see (the rendered manifest is kept in a Helm storage Secret, which is not read)'
        : 'removes what it applied, which was not read';
    return `deleting it ${what}, so whether that reaches outside the targets cannot be told`;
  }
  if (taken.length === 0) return undefined;
  const how =
    o.kind === 'Kustomization'
      ? `would prune ${listed(taken)}`
      : o.kind === 'Application'
        ? `would delete ${listed(taken)} with it (${ARGO_RESOURCES_FINALIZER})`
        : `would remove ${listed(taken)} with it`;
  return `deleting it ${how}, outside the targets`;
}

/** Why `o` may not be acted on here; undefined when it may. */
function leaveAlone(o: GitOpsOwner, targetNames: ReadonlySet<string>): string | undefined {
  const outside = reach(o).filter((t) => !targetNames.has(t.namespace));
  if (outside.length > 0) {
    const list = [...new Map(outside.map((t) => [t.namespace, `${t.namespace} (${t.field})`])).values()];
    return `it also targets ${list.join(', ')}, outside the targets: reported, never touched`;
  }
  if (o.reachUnread)
    return `${o.reachUnread}, so whether it also applies outside the targets cannot be told: reported, never touched`;
  if (o.kind === 'ApplicationSet')
    return 'an ApplicationSet generates Applications for many pull requests: change it, or its generator, yourself';
  if (o.generatedBy)
    return `generated by ${o.generatedBy}, which would generate it again: change the ApplicationSet yourself`;
  if (!o.uid || !o.resourceVersion || !o.apiVersion) return 'it was read without its UID or version';
  return undefined;
}

/** The step of an owner that may be acted on, under a policy that deletes (`delete`, `delete-or-suspend`). */
function deleteStep(base: Omit<OwnerStep, 'verb'>, policy: GitopsOwnerPolicy): OwnerStep {
  const o = base.owner;
  const why = notDeleted(o);
  if (why === undefined) return { ...base, verb: 'delete' };
  // Suspended already, it applies nothing again: left as it is.
  if (o.paused) return { ...base, verb: 'none', already: true, why: `${o.paused}; not deleted: ${why}` };
  if (policy === 'delete') return { ...base, verb: 'none', why: `${why}: not deleted; ${OFFER}` };
  return { ...base, verb: 'suspend', instead: why };
}

/** The step for every owner that would apply a target again, under `policy` (`report` plans nothing). */
export function planOwners(
  owners: readonly GitOpsOwner[],
  targets: readonly TargetView[],
  policy: GitopsOwnerPolicy,
): OwnerStep[] {
  if (policy === 'report') return [];
  const names = new Set(targets.map((t) => t.name));
  return owners.flatMap((o): OwnerStep[] => {
    const linked = targets.filter((t) => linkOf(o, t.name, t.labels) !== undefined).map((t) => t.name);
    if (linked.length === 0) return [];
    const base = { owner: o, name: ownerName(o), targets: linked };
    const why = leaveAlone(o, names);
    if (why) return [{ ...base, verb: 'none', why }];
    if (o.deleting) return [{ ...base, verb: 'none', already: true, why: 'already being deleted' }];
    if (policy !== 'suspend') return [deleteStep(base, policy)];
    if (o.paused) return [{ ...base, verb: 'none', already: true, why: o.paused }];
    return [{ ...base, verb: 'suspend' }];
  });
}

/**
 * The write guard's grant for a step that writes: the owner under its UID and resourceVersion, every namespace it
 * targets, and what deleting it removes beyond them.
 */
export function grantOf(step: OwnerStep): OwnerGrant {
  const o = step.owner;
  const takes = removedBeyond(o);
  return {
    group: o.group,
    resource: o.resource,
    namespace: o.namespace,
    name: o.name,
    uid: o.uid ?? '',
    resourceVersion: o.resourceVersion ?? '',
    targets: [...new Set([...step.targets, ...reach(o).map((t) => t.namespace)])],
    ...(takes ? { takes } : {}),
  };
}

/** The merge patch of `spec` that suspends the owner: Flux `suspend: true`, Argo CD without automated sync. */
export function suspension(o: GitOpsOwner): Record<string, unknown> {
  return o.kind === 'Application' ? { syncPolicy: { automated: null } } : { suspend: true };
}

/** What goes with the owner when it is deleted: the count, and the words. */
export function prunedWith(o: GitOpsOwner): { pruned?: number; words: string } {
  const n = o.objects ?? 0;
  const objects = `${n} object${n === 1 ? '' : 's'}`;
  if (o.paused && o.kind !== 'Application')
    return { pruned: 0, words: `suspended, so nothing it applied is removed with it` };
  if (o.kind === 'Kustomization') {
    if (kustomizationPrunes(o)) return { pruned: n, words: `${objects} pruned with it` };
    const field = o.deletionPolicy === 'Orphan' ? 'deletionPolicy: Orphan' : 'prune: false';
    return { pruned: 0, words: `${field}, so its ${objects} stay and go with the namespace` };
  }
  if (o.kind === 'Application')
    return cascades(o)
      ? {
          pruned: n,
          words: `${n} resource${n === 1 ? '' : 's'} deleted with it (${ARGO_RESOURCES_FINALIZER})`,
        }
      : {
          pruned: 0,
          words: `no ${ARGO_RESOURCES_FINALIZER}, so its ${n} resources stay and go with the namespace`,
        };
  return { words: 'its Helm release uninstalled with it' };
}
