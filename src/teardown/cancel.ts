/** Cancellation guard on the Kube port: after the signal, every write is refused before it is sent. */
import { KubeError, readsOf, type Kube } from '../kube/port.js';

function refuse(signal: AbortSignal, verb: string, resource: string): void {
  if (signal.aborted) {
    throw new KubeError(
      `the run was cancelled; no ${verb} of ${resource} was sent`,
      0,
      'Cancelled',
      verb,
      resource,
    );
  }
}

/** `kube` with its writes refused once `signal` is aborted; reads pass through. */
export function refuseWritesOn(kube: Kube, signal: AbortSignal): Kube {
  return {
    ...readsOf(kube),
    deleteNamespace: async (name, opts) => {
      refuse(signal, 'delete', 'namespaces');
      return kube.deleteNamespace(name, opts);
    },
    patchFinalizers: async (res, namespace, name, guard, finalizers) => {
      refuse(signal, 'patch', res.resource);
      return kube.patchFinalizers(res, namespace, name, guard, finalizers);
    },
    patchSpec: async (res, namespace, name, guard, spec) => {
      refuse(signal, 'patch', res.resource);
      return kube.patchSpec(res, namespace, name, guard, spec);
    },
    deleteObject: async (res, namespace, name, guard) => {
      refuse(signal, 'delete', res.resource);
      return kube.deleteObject(res, namespace, name, guard);
    },
    deletePod: async (namespace, name, uid) => {
      refuse(signal, 'delete', 'pods');
      return kube.deletePod(namespace, name, uid);
    },
    finalizeNamespace: async (name, guard, specFinalizers) => {
      refuse(signal, 'update', 'namespaces/finalize');
      return kube.finalizeNamespace(name, guard, specFinalizers);
    },
  };
}
