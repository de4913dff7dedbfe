/** Per-type rules (the registry strategies): create defaults, update preparation, validation, deletion. */
import { type FieldError, goQuote } from './errors.js';
import { asRecord, finalizerErrors } from './meta.js';
import type { ResourceType } from './registry.js';
import type { KObj, KubeVersion } from './types.js';

export const NAME_LABEL = 'kubernetes.io/metadata.name';
export const PVC_PROTECTION = 'kubernetes.io/pvc-protection';

export interface Strategy {
  prepareForCreate(obj: KObj): void;
  /** The object to store, from `next` (built from the request) and the stored `old`, per subresource. */
  prepareForUpdate(next: KObj, old: KObj, sub: string): KObj;
  /** Type-specific validation beyond the common ObjectMeta checks. */
  validate(obj: KObj, old: KObj | undefined, sub: string): FieldError[];
  /** Extra condition for deleting during an update that empties the finalizers. */
  mayDeleteDuringUpdate(next: KObj): boolean;
  /** Pods: the graceful-deletion period (CheckGracefulDelete); undefined = not graceful. */
  gracePeriod?(obj: KObj, requested: number | undefined): number;
}

const specOf = (o: KObj): Record<string, unknown> => asRecord(o.spec);

/** Generic types: status subresource semantics only. */
function genericStrategy(rt: ResourceType): Strategy {
  return {
    prepareForCreate(obj) {
      if (rt.statusSubresource && rt.source === 'crd') delete obj.status;
    },
    prepareForUpdate(next, old, sub) {
      if (sub === 'status') return { ...old, metadata: next.metadata, status: next.status };
      if (rt.statusSubresource) return { ...next, status: old.status };
      return next;
    },
    validate: () => [],
    mayDeleteDuringUpdate: () => true,
  };
}

function namespaceStrategy(): Strategy {
  return {
    prepareForCreate(obj) {
      const fin = Array.isArray(specOf(obj).finalizers) ? (specOf(obj).finalizers as string[]) : [];
      obj.spec = { finalizers: fin.includes('kubernetes') ? fin : [...fin, 'kubernetes'] };
      obj.status = { phase: 'Active' };
      obj.metadata.labels = { ...obj.metadata.labels, [NAME_LABEL]: obj.metadata.name };
    },
    prepareForUpdate(next, old, sub) {
      const labels = { ...next.metadata.labels, [NAME_LABEL]: next.metadata.name };
      const metadata = { ...next.metadata, labels };
      if (sub === 'status') return { ...next, metadata, spec: old.spec };
      if (sub === 'finalize') return { ...next, metadata, status: old.status };
      return {
        ...next,
        metadata,
        spec: { ...specOf(next), finalizers: specOf(old).finalizers },
        status: old.status,
      };
    },
    validate(obj, _old, sub) {
      const errs: FieldError[] = [];
      const fin = specOf(obj).finalizers;
      if (sub === 'finalize' && Array.isArray(fin)) {
        fin.forEach((f, i) => errs.push(...finalizerErrors(String(f), `spec.finalizers[${i}]`, true)));
      }
      if (sub === 'status') {
        const phase = String(asRecord(obj.status).phase ?? '');
        if (!obj.metadata.deletionTimestamp && phase !== 'Active') {
          errs.push({
            type: 'Invalid',
            field: 'status.Phase',
            value: goQuote(phase),
            detail: "may only be 'Active' if `deletionTimestamp` is empty",
          });
        }
        if (obj.metadata.deletionTimestamp && phase !== 'Terminating') {
          errs.push({
            type: 'Invalid',
            field: 'status.Phase',
            value: goQuote(phase),
            detail: "may only be 'Terminating' if `deletionTimestamp` is not empty",
          });
        }
      }
      return errs;
    },
    mayDeleteDuringUpdate(next) {
      const fin = specOf(next).finalizers;
      return !Array.isArray(fin) || fin.length === 0;
    },
  };
}

function podStrategy(rt: ResourceType): Strategy {
  const base = genericStrategy(rt);
  return {
    ...base,
    prepareForCreate(obj) {
      const st = asRecord(obj.status);
      obj.status = { ...st, phase: st.phase ?? 'Pending' };
      const spec = specOf(obj);
      if (spec.terminationGracePeriodSeconds === undefined)
        obj.spec = { ...spec, terminationGracePeriodSeconds: 30 };
    },
    gracePeriod(obj, requested) {
      const spec = specOf(obj);
      let period =
        requested ??
        (typeof spec.terminationGracePeriodSeconds === 'number' ? spec.terminationGracePeriodSeconds : 0);
      if (!spec.nodeName) period = 0;
      const phase = asRecord(obj.status).phase;
      if (phase === 'Succeeded' || phase === 'Failed') period = 0;
      return period < 0 ? 1 : period;
    },
  };
}

function pvcStrategy(rt: ResourceType): Strategy {
  const base = genericStrategy(rt);
  return {
    ...base,
    prepareForCreate(obj) {
      // The StorageObjectInUseProtection admission plugin adds this finalizer to every new PVC.
      const fin = obj.metadata.finalizers ?? [];
      if (!fin.includes(PVC_PROTECTION)) obj.metadata.finalizers = [...fin, PVC_PROTECTION];
      obj.status = { phase: 'Bound', ...asRecord(obj.status) };
    },
  };
}

/** The strategy for a type. */
export function strategyFor(rt: ResourceType, _version: KubeVersion): Strategy {
  if (rt.group === '' && rt.resource === 'namespaces') return namespaceStrategy();
  if (rt.group === '' && rt.resource === 'pods') return podStrategy(rt);
  if (rt.group === '' && rt.resource === 'persistentvolumeclaims') return pvcStrategy(rt);
  return genericStrategy(rt);
}
