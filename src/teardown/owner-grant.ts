/**
 * The grant of a write to a GitOps owner outside the targets: which owner, at which version, reaching which
 * namespaces and what else its deletion removes; and why a write under it would reach further than was read. Pure.
 */
import type { ApiResource } from '../model/cluster.js';

/**
 * A GitOps owner (Flux Kustomization or HelmRelease, Argo CD Application) this run read, whose every target
 * namespace is a target of this run: the only object outside the targets a write (suspend, delete) may go to.
 */
export interface OwnerGrant {
  group: string;
  resource: string;
  namespace: string;
  name: string;
  /** The UID read: the write must carry it. */
  uid: string;
  /** The resourceVersion read, whose reach this grant holds: the write must carry it as its precondition. */
  resourceVersion: string;
  /** The namespaces it applies into; each must still be a target, under the UID read, when the write goes. */
  targets: string[];
  /**
   * What deleting it removes beyond those namespaces (`ClusterRole web-reader`); undefined when that was not read. A
   * DELETE goes only when it is empty; a suspension removes nothing.
   */
  takes?: string[];
}

/** The grant for this object outside the targets, when the write names a verified owner under its UID. */
export function grantFor(
  grants: readonly OwnerGrant[],
  res: Pick<ApiResource, 'group' | 'resource'>,
  namespace: string,
  name: string,
  uid: string,
): OwnerGrant | undefined {
  return grants.find(
    (g) =>
      g.group === res.group &&
      g.resource === res.resource &&
      g.namespace === namespace &&
      g.name === name &&
      g.uid !== '' &&
      g.uid === uid,
  );
}

/**
 * Why a write (`verb`) to the owner of `grant`, carrying `version` as its precondition, would reach further than was
 * read: another version than the one whose reach was read, or a DELETE whose controller removes more than the targets.
 */
export function reachProblem(
  verb: string,
  grant: OwnerGrant,
  version: string | undefined,
): string | undefined {
  if (!grant.resourceVersion || version !== grant.resourceVersion)
    return `it carries resourceVersion ${version ?? '(none)'} as its precondition, not ${grant.resourceVersion || '(none)'}, the version whose reach was read`;
  if (verb !== 'DELETE') return undefined;
  if (grant.takes === undefined) return 'what deleting it removes with it was not read';
  if (grant.takes.length > 0)
    return `deleting it would remove ${grant.takes.join(', ')}, outside every target`;
  return undefined;
}
