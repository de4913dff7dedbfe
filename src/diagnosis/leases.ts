/** Leader-election Leases as evidence that a controller is alive: held by its pod, renewed recently. Pure. */
import { secondsBetween } from './refs.js';
import type { LeaseState, Snapshot, WorkloadState } from './types.js';

/** A Lease read in this run and what it says about its holder. */
export interface LeaseSight {
  lease: LeaseState;
  /** Seconds since the last renewal at snapshot time; undefined when the Lease has no renewTime. */
  renewedAgo?: number;
  /** Renewed within its duration (at least a minute): the holder was alive moments ago. */
  fresh: boolean;
}

function sight(s: Pick<Snapshot, 'takenAt'>, lease: LeaseState): LeaseSight {
  const renewedAgo = secondsBetween(lease.renewTime, s.takenAt);
  const window = Math.max(60, 2 * (lease.durationSeconds ?? 15));
  return { lease, renewedAgo, fresh: renewedAgo !== undefined && renewedAgo <= window };
}

/** Leases in the workload's namespace held by one of its pods (`<workload>-…` names, as controllers name pods). */
export function leasesOf(s: Pick<Snapshot, 'takenAt' | 'leases'>, w: WorkloadState): LeaseSight[] {
  return s.leases
    .filter((l) => l.namespace === w.namespace && l.holder !== undefined && l.holder.startsWith(`${w.name}-`))
    .map((l) => sight(s, l));
}

/** Leases whose name or holder mentions one of the tokens (a controller's lock), freshest first. */
export function leasesNaming(
  s: Pick<Snapshot, 'takenAt' | 'leases'>,
  tokens: readonly string[],
): LeaseSight[] {
  const mentions = (text: string | undefined): boolean =>
    text !== undefined && tokens.some((t) => text.toLowerCase().includes(t));
  return s.leases
    .filter((l) => mentions(l.name) || mentions(l.holder))
    .map((l) => sight(s, l))
    .sort((a, b) => (a.renewedAgo ?? Infinity) - (b.renewedAgo ?? Infinity));
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
