/**
 * This run's own identity as an actor on its targets: when its rights to look came from a RoleBinding inside the
 * namespace it deleted, the namespace controller deletes that binding early and every later read is forbidden — the
 * outcome cannot be seen. Names the binding from what the run read before the DELETE. Pure.
 */
import type { BindingState } from '../types.js';

// kube-apiserver's RBAC denial: `User "<u>" cannot <verb> resource …`.
const USER = /User "([^"]+)" cannot /;

/** The user a 403 names, when it names one. */
export function forbiddenUser(error: string): string | undefined {
  return USER.exec(error)?.[1];
}

/** Whether a binding subject stands for the user (`system:serviceaccount:<ns>:<name>` for a ServiceAccount). */
function names(s: BindingState['subjects'][number], user: string, bindingNs: string | undefined): boolean {
  if (s.kind === 'User') return s.name === user;
  const sa = /^system:serviceaccount:([^:]+):(.+)$/.exec(user);
  if (!sa) return false;
  if (s.kind === 'ServiceAccount') return s.name === sa[2] && (s.namespace ?? bindingNs) === sa[1];
  return (
    s.kind === 'Group' &&
    (s.name === 'system:serviceaccounts' || s.name === `system:serviceaccounts:${sa[1]}`)
  );
}

/**
 * The note of a target whose reads became forbidden after its DELETE: `error`, never `stuck` — what happened to it
 * cannot be seen. `bindings` are the namespace's RoleBindings as read before the DELETE (undefined: not read).
 */
export function lostSightNote(
  namespace: string,
  error: string,
  bindings: readonly BindingState[] | undefined,
): string {
  const user = forbiddenUser(error);
  const from = user
    ? (bindings ?? []).filter(
        (b) => b.kind === 'RoleBinding' && b.subjects.some((s) => names(s, user, b.namespace)),
      )
    : [];
  const cause = from.length
    ? `the rights came from RoleBinding ${from.map((b) => `${namespace}/${b.name}`).join(', ')} in the namespace itself, which its deletion removed`
    : bindings
      ? 'the rights came from something the deletion removed (no RoleBinding read before the DELETE names this identity)'
      : 'the rights most likely came from a RoleBinding inside the namespace itself (its RoleBindings were not read before the DELETE)';
  // The cause first and the server's words last: a table cell is cut after a few hundred characters.
  return `the outcome cannot be seen: ${cause}, so reading namespace ${namespace} became forbidden after its DELETE. Grant this identity read access to namespaces outside the namespace (a ClusterRole with get on namespaces) to see it end. The API server said: ${error}`;
}
