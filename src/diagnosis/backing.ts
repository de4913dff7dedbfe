/** The cause one step removed from a backend that is down: the Service's own namespace is being deleted. Pure. */
import type { Backing } from './types.js';

/**
 * `its namespace NS is itself being deleted (since …): the backend is not coming back`, where the run read the
 * namespace of a down backend's Service with a deletionTimestamp; undefined otherwise.
 */
export function namespaceGoing(
  backing: Backing | undefined,
  namespace: string | undefined,
): string | undefined {
  if (!backing?.namespaceDeleting || namespace === undefined) return undefined;
  return `its namespace ${namespace} is itself being deleted (since ${backing.namespaceDeleting}): the backend is not coming back`;
}
