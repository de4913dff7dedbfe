/** How the force plan is told: which input allowed a change, and how the namespace is named. Pure. */
import type { AllowedBy } from '../model/force.js';

/** `force-finalizers: kiali.io/*`, `force-finalize-namespace: true` or `force-delete-pods: lost-nodes`. */
export function allowedByText(a: AllowedBy): string {
  if (a.input === 'force-finalizers') return `force-finalizers: ${a.pattern}`;
  if (a.input === 'force-delete-pods') return `force-delete-pods: ${a.value}`;
  return 'force-finalize-namespace: true';
}

/** `namespace/NAME`, as findings name the namespace. */
export function namespaceLabel(name: string): string {
  return `namespace/${name}`;
}
