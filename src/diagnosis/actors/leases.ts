/** Leader-election Leases as evidence that a controller is alive: held by its pod, renewed recently. Pure. */
import { secondsBetween } from '../refs.js';
import type { LeaseState, Snapshot, WorkloadState } from '../types.js';

/** A Lease read in this run and what it says about its holder. */
export interface LeaseSight {
  lease: LeaseState;
  /** Seconds since the last renewal at snapshot time; undefined when the Lease has no renewTime. */
  renewedAgo?: number;
  /** Renewed within its duration (at least a minute): the holder was alive moments ago. */
  fresh: boolean;
}

/** What a Lease says about its holder at snapshot time: renewed how long ago, and whether within its window. */
export function leaseSight(s: Pick<Snapshot, 'takenAt'>, lease: LeaseState): LeaseSight {
  const renewedAgo = secondsBetween(lease.renewTime, s.takenAt);
  const window = Math.max(60, 2 * (lease.durationSeconds ?? 15));
  return { lease, renewedAgo, fresh: renewedAgo !== undefined && renewedAgo <= window };
}

/** Leases in the workload's namespace held by one of its pods (`<workload>-…` names, as controllers name pods). */
export function leasesOf(s: Pick<Snapshot, 'takenAt' | 'leases'>, w: WorkloadState): LeaseSight[] {
  return s.leases
    .filter((l) => l.namespace === w.namespace && l.holder !== undefined && l.holder.startsWith(`${w.name}-`))
    .map((l) => leaseSight(s, l));
}

/** `Lease kiali-operator/kiali-operator-lock held by kiali-operator-7d9f-x2k, renewed 4s ago`. */
export function describeLease(x: LeaseSight): string {
  const held = x.lease.holder ? ` held by ${x.lease.holder}` : ' with no holder';
  const when =
    x.renewedAgo === undefined
      ? ', never renewed'
      : `, renewed ${x.renewedAgo}s ago${x.fresh ? '' : ' (expired)'}`;
  return `Lease ${x.lease.namespace}/${x.lease.name}${held}${when}`;
}
