/**
 * The API server as the authority on rights (SubjectAccessReview): what its answers grant a workload's ServiceAccount
 * over a type holding a finalizer, and whether it was asked about every workload — only then may "no actor" be said.
 * RBAC objects stay the explanation where they show a grant; the answers count where they show none. Pure.
 */
import { READ_AREA } from '../snapshot/read-paths.js';
import type { AccessAnswerState, AccessSight, Snapshot } from '../types.js';
import type { Reach } from './actor-types.js';
import type { Grant } from './rbac.js';

/** The identity a ServiceAccount's token authenticates as: its user name and the groups the API server adds. */
export function serviceAccountIdentity(sa: { namespace: string; name: string }): {
  user: string;
  groups: string[];
} {
  return {
    user: `system:serviceaccount:${sa.namespace}:${sa.name}`,
    groups: ['system:serviceaccounts', `system:serviceaccounts:${sa.namespace}`, 'system:authenticated'],
  };
}

/**
 * Core types other than namespaces are updatable by nearly every controller: a yes over one of them does not single
 * its holder out, so it ties no more than cluster-wide rights do.
 */
const broad = (type: { group: string; resource: string }): boolean =>
  type.group === '' && !type.resource.startsWith('namespaces');

/** `gizmos.acme.io`, or `configmaps` for the core group. */
const typeName = (t: { group: string; resource: string }): string =>
  t.group ? `${t.resource}.${t.group}` : t.resource;

/** The sight of one type, when the server was asked about it. */
export function sightOf(
  s: Pick<Snapshot, 'access'>,
  type: { group: string; resource: string },
): AccessSight | undefined {
  return s.access?.find((x) => x.group === type.group && x.resource === type.resource);
}

function chainOf(sight: AccessSight, a: AccessAnswerState, rbacRead: boolean): string {
  const sa = `ServiceAccount ${a.serviceAccount.namespace}/${a.serviceAccount.name}`;
  const why = a.reason ? `: ${a.reason}` : ', no reason given';
  const all = a.everything ? ' (and every resource of every group)' : '';
  const rbac = rbacRead ? 'no RBAC grant this run read names it' : 'RBAC could not be read';
  return `the API server allows ${sa} to ${a.verb ?? 'update'} ${typeName(sight)} in namespace ${sight.namespace}${all} (SubjectAccessReview${why}); ${rbac}`;
}

/** What the authorizer's yes grants: one ServiceAccount each, as RBAC grants read the same way. */
export function accessGrants(
  s: Pick<Snapshot, 'access' | 'readErrors'>,
  type: { group: string; resource: string },
): Grant[] {
  const sight = sightOf(s, type);
  if (!sight) return [];
  const rbacRead = !s.readErrors.some((e) => e.what.startsWith(READ_AREA.rbac));
  return sight.answers.flatMap((a): Grant[] => {
    if (!a.verb) return [];
    const reach: Reach = a.everything || broad(type) ? 'any' : 'specific';
    return [{ serviceAccount: { ...a.serviceAccount }, chain: chainOf(sight, a, rbacRead), reach }];
  });
}

/** Whether the server answered for every workload's ServiceAccount about every type held, and how many it denied. */
export type Coverage = { complete: true; denied: number; types: string[] } | { complete: false; why: string };

/** The server's coverage of `types`: complete only when every type was asked about for every account, each answered. */
export function accessCoverage(
  s: Pick<Snapshot, 'access'>,
  types: readonly { group: string; resource: string }[],
): Coverage {
  let denied = 0;
  for (const type of types) {
    const sight = sightOf(s, type);
    const name = typeName(type);
    if (!sight) return { complete: false, why: `the API server was not asked who may update ${name}` };
    if (sight.error)
      return {
        complete: false,
        why: `the API server could not be asked who may update ${name} (${sight.error})`,
      };
    const failed = sight.answers.find((a) => a.error);
    if (failed)
      return {
        complete: false,
        why: `the API server could not be asked about ServiceAccount ${failed.serviceAccount.namespace}/${failed.serviceAccount.name} (${failed.error ?? ''})`,
      };
    if (sight.notAsked > 0)
      return {
        complete: false,
        why: `${sight.notAsked} more ServiceAccount(s) that workloads run as were not asked about ${name} (at most ${sight.answers.length} are asked in one diagnosis)`,
      };
    denied += sight.answers.filter((a) => !a.verb).length;
  }
  return { complete: true, denied, types: types.map(typeName) };
}
