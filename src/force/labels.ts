/** The force plan: what the policy allows changing, in order, and what it refuses. Types and labels; pure. */
import type { AllowedBy } from '../model/force.js';
import { resourceName } from '../diagnosis/refs.js';
import type { ApiResource } from '../model/cluster.js';

/** `force-finalizers: kiali.io/*`, `force-finalize-namespace: true` or `force-delete-pods: lost-nodes`. */
export function allowedByText(a: AllowedBy): string {
  if (a.input === 'force-finalizers') return `force-finalizers: ${a.pattern}`;
  if (a.input === 'force-delete-pods') return `force-delete-pods: ${a.value}`;
  return 'force-finalize-namespace: true';
}

/** `kialis.kiali.io/kiali`, or `persistentvolumeclaims/data` for the core group: as evidence names objects. */
export function objectLabel(resource: Pick<ApiResource, 'group' | 'resource'>, name: string): string {
  return `${resourceName(resource)}/${name}`;
}

/** `namespace/NAME`, as findings name the namespace. */
export function namespaceLabel(name: string): string {
  return `namespace/${name}`;
}
