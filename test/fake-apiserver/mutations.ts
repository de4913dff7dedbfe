/** Mutating webhooks the fake can set up: what each answers a call with, as a JSONPatch. */
import type { WebhookMutation } from './core.js';
import { asRecord } from './meta.js';
import type { KObj } from './types.js';

/**
 * A webhook that insists on a finalizer: when the object (a namespace's spec with `field: 'spec'`) lacks `finalizer`,
 * its answer adds it back at the end of the list; otherwise it allows the request as it is.
 */
export function finalizerPutBack(
  finalizer: string,
  opts: { field?: 'metadata' | 'spec'; applies?: (obj: KObj) => boolean } = {},
): WebhookMutation {
  const patch = (obj: KObj): unknown[] | undefined => {
    if (opts.field === 'spec') {
      const spec = asRecord(obj.spec);
      const now = Array.isArray(spec.finalizers) ? spec.finalizers.map(String) : [];
      if (now.includes(finalizer)) return undefined;
      return [{ op: 'add', path: '/spec', value: { ...spec, finalizers: [...now, finalizer] } }];
    }
    const now = obj.metadata.finalizers ?? [];
    if (now.includes(finalizer)) return undefined;
    return [{ op: 'add', path: '/metadata/finalizers', value: [...now, finalizer] }];
  };
  return { patch, ...(opts.applies ? { applies: opts.applies } : {}) };
}
