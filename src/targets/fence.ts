/** The fence on targets: a namespace without the run's target label is refused before any write. Pure. */
import type { NamespaceState } from '../model/cluster.js';

/**
 * Why the fence refuses `state`: it does not carry `label` (its key, whatever the value), as the admission policy of
 * deploy/ tells a preview namespace from another. Undefined when it carries it, or no label fences the run.
 */
export function fenceRefusal(label: string | undefined, state: NamespaceState): string | undefined {
  if (label === undefined || Object.hasOwn(state.labels ?? {}, label)) return undefined;
  return `no label ${label} (target-label): not a preview namespace, not touched`;
}
