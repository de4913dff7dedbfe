/**
 * Kubernetes' own controllers as actors: kube-controller-manager (namespace controller, garbage collector,
 * pvc-protection…) and the service controller of a cloud (cloud-controller-manager, or kube-controller-manager with an
 * in-tree `--cloud-provider`), alive by their leader-election Lease or their pod, as read in this run. Pure.
 */
import { READ_AREA } from '../snapshot/read-paths.js';
import type { ComponentPod, Snapshot } from '../types.js';
import { describeLease, leaseSight } from './leases.js';
import type { Actor, Liveness } from './actor-types.js';

/** A control-plane component that runs built-in controllers. */
export type Component = 'kube-controller-manager' | 'cloud-controller-manager';

export const KCM: Component = 'kube-controller-manager';
export const CCM: Component = 'cloud-controller-manager';

/** The one built-in finalizer a cloud's service controller removes; every other one is kube-controller-manager's. */
const LB_CLEANUP = 'service.kubernetes.io/load-balancer-cleanup';

const unknown = (evidence: string[]): Liveness => ({ state: 'unknown', evidence });

/** What the run could not read about the control plane, quoted. */
function unread(s: Snapshot): string | undefined {
  return s.readErrors.find((e) => e.what.startsWith(READ_AREA.controlPlane))?.error;
}

function podsOf(s: Snapshot, c: Component): ComponentPod[] | undefined {
  return s.controlPlane?.pods?.filter((p) => p.component === c);
}

/** Whether a component runs: its Lease renewed (or expired), else its pods ready (or not), else unknown. */
export function componentLiveness(s: Snapshot, c: Component): Liveness {
  const error = unread(s);
  const lease = s.controlPlane?.leases.find((l) => l.namespace === 'kube-system' && l.name === c);
  if (lease) {
    const sight = leaseSight(s, lease);
    return { state: sight.fresh ? 'live' : 'down', evidence: [describeLease(sight)] };
  }
  const pods = podsOf(s, c);
  if (pods && pods.length > 0) {
    const ready = pods.filter((p) => p.ready);
    const names = pods.map((p) => `pod ${p.namespace}/${p.name}`).join(', ');
    return {
      state: ready.length > 0 ? 'live' : 'down',
      evidence: [`${names}: ${ready.length} of ${pods.length} ready`],
    };
  }
  if (error) return unknown([`the control plane could not be read: ${error}`]);
  const none = `no Lease kube-system/${c}`;
  if (!pods) return unknown([`${none}; its pods were not read`]);
  return unknown([`${none} and no pod labelled component=${c}: it may run where this identity cannot see`]);
}

function actor(name: string, link: string, liveness: Liveness): Actor {
  return { name, kind: 'control-plane', role: 'releases', link, reach: 'specific', liveness };
}

/** The actor that removes a built-in finalizer, with its liveness as read. */
export function builtInActor(s: Snapshot, finalizer: string, controller: string): Actor {
  if (finalizer !== LB_CLEANUP)
    return actor(KCM, `${controller} removes ${finalizer}`, componentLiveness(s, KCM));
  return serviceController(s);
}

/**
 * The service controller: cloud-controller-manager when its Lease or pod is seen; kube-controller-manager when its pod
 * runs an in-tree cloud provider; down when kube-controller-manager's pod runs without one and no cloud controller is
 * seen; else unknown.
 */
function serviceController(s: Snapshot): Actor {
  const link = 'the service controller of a cloud removes service.kubernetes.io/load-balancer-cleanup';
  const ccm = componentLiveness(s, CCM);
  if (ccm.state !== 'unknown') return actor(CCM, link, ccm);
  const kcmPods = podsOf(s, KCM) ?? [];
  const inTree = kcmPods.find((p) => p.cloudProvider !== '' && p.cloudProvider !== 'external');
  if (inTree) {
    const how = `${link} (in kube-controller-manager: --cloud-provider=${inTree.cloudProvider})`;
    return actor(KCM, how, componentLiveness(s, KCM));
  }
  if (kcmPods.length > 0 && !unread(s)) {
    const flags = `pod ${kcmPods[0]!.namespace}/${kcmPods[0]!.name} runs kube-controller-manager without an in-tree --cloud-provider`;
    return actor(CCM, link, { state: 'down', evidence: [...ccm.evidence, flags] });
  }
  const why =
    kcmPods.length === 0 ? 'no pod of kube-controller-manager is visible to read its --cloud-provider' : '';
  return actor(CCM, link, unknown([...ccm.evidence, ...(why ? [why] : [])]));
}
