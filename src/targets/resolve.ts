/** Targets: resolve names and the selector, and request deletion. Reads and deletes only the targets. */
import { KubeError, type Kube, type NamespaceState } from '../kube/port.js';
import { isProtected, type Settings } from '../settings/settings.js';
import { compareText } from '../shared/compare.js';
import type { Logger } from '../shared/ports.js';
import type { Outcome } from '../teardown/outcome.js';

/** A target as resolved before deletion: its state, or why there is nothing to do. */
export interface Resolved {
  name: string;
  state?: NamespaceState;
  refused?: string;
}

/** Resolve names and the selector into targets; protected selector matches are refused, never touched. */
export async function resolveTargets(settings: Settings, kube: Kube): Promise<Resolved[]> {
  const byName = new Map<string, Resolved>();
  const named = await Promise.all(settings.namespaces.map((n) => kube.getNamespace(n)));
  settings.namespaces.forEach((name, i) => byName.set(name, { name, state: named[i] }));
  if (settings.selector !== undefined) {
    for (const state of await kube.listNamespaces(settings.selector)) {
      const refused = isProtected(settings, state.name)
        ? `protected namespace matched by selector "${settings.selector}"; not touched`
        : undefined;
      byName.set(state.name, { name: state.name, state, refused });
    }
  }
  return [...byName.values()].sort((a, b) => compareText(a.name, b.name));
}

/** Request deletion (Background, UID precondition). Returns the state to wait on, or the outcome already known. */
export async function requestDeletion(
  kube: Kube,
  target: NamespaceState,
  logger: Logger,
): Promise<{ state: NamespaceState } | { outcome: Outcome; note: string }> {
  if (target.deletionTimestamp !== undefined) {
    logger.info(`${target.name}: already Terminating since ${target.deletionTimestamp}`);
    return { state: target };
  }
  try {
    const result = await kube.deleteNamespace(target.name, { uid: target.uid });
    if (result === 'gone') return { outcome: 'already-gone', note: 'gone before the delete request arrived' };
  } catch (error) {
    if (error instanceof KubeError && error.code === 409) {
      return {
        outcome: 'recreated',
        note: 'replaced by a new namespace before deletion; the new one was not deleted',
      };
    }
    throw error;
  }
  logger.info(`${target.name}: deletion requested`);
  // Watch from the state read before the DELETE: the watch replays the change to Terminating and beyond.
  return { state: target };
}
