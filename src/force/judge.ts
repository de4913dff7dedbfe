/** Whether the force-finalizers patterns allow removing one finalizer, and at what risk. Pure. */
import type { Finding } from '../model/findings.js';
import { firstMatch } from '../shared/glob.js';
import type { Removal } from '../model/force.js';

const LB_CLEANUP = 'service.kubernetes.io/load-balancer-cleanup';

/** What removing a well-known built-in finalizer leaves behind. */
const RISKS: Record<string, string> = {
  'kubernetes.io/pvc-protection':
    'the claim is deleted while a pod may still use it; with reclaimPolicy Delete the volume and its data go too',
  'kubernetes.io/pv-protection':
    'the volume object is deleted while still bound; the backing disk may be left behind',
  'service.kubernetes.io/load-balancer-cleanup':
    'the cloud load balancer is not deleted: it is leaked and keeps costing money',
  foregroundDeletion:
    'dependents are no longer deleted before their owner; the garbage collector removes them later',
  orphan: 'dependents are no longer orphaned first; the garbage collector may delete them',
};

/**
 * Built-in finalizers that guard real infrastructure. Like entries the diagnosis marks as waiting, a wildcard
 * never removes them — only a pattern naming them exactly — because a missed `waiting` mark would leak a disk
 * or a load balancer.
 */
const GUARDED = new Set([
  'kubernetes.io/pvc-protection',
  'kubernetes.io/pv-protection',
  'service.kubernetes.io/load-balancer-cleanup',
]);

/** Whether only a pattern naming `finalizer` exactly may remove it. */
export function needsExactName(finalizer: string, waiting: boolean): boolean {
  return waiting || GUARDED.has(finalizer);
}

/** What removing `finalizer` risks, given whether it waits legitimately and whether its owner runs. */
export function riskOf(
  finalizer: string,
  waiting: boolean,
  owner?: Finding['owner'],
  loadBalancer?: readonly string[],
): string | undefined {
  const parts: string[] = [];
  if (waiting) parts.push(`${finalizer} is still legitimately waiting; removing it skips what it waits for`);
  // The load balancer by its address where the Service's status named it: what the cloud account keeps.
  const named = loadBalancer?.length && finalizer === LB_CLEANUP;
  const known = named
    ? `the cloud load balancer ${loadBalancer.join(', ')} is not deleted: it is leaked and keeps costing money`
    : RISKS[finalizer];
  if (known) parts.push(known);
  if (owner?.present === true) {
    parts.push(
      `its controller ${owner.controller} is running and may still be cleaning up; that cleanup is skipped`,
    );
  }
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** A pattern a user could add for `finalizer`: its domain with `/*`, or the name itself. */
function suggestion(finalizer: string): string {
  const slash = finalizer.indexOf('/');
  return slash > 0 ? `${finalizer.slice(0, slash)}/*` : finalizer;
}

/** A verdict on one finalizer: allowed (with the pattern) or refused (with why and what to do). */
export type Verdict =
  { removal: Removal } | { refusal: { finalizer: string; reason: string; remedy: string } };

/** What brings back the controller that removes a finalizer: a restart when it runs but does not lead. */
function fixOf(owner: Finding['owner']): string {
  if (!owner) return 'fix the controller that owns it';
  if (owner.present === true) return `let ${owner.controller} finish (it runs)`;
  if (owner.status === 'running but not leading')
    return `restart ${owner.controller} (running but not leading)`;
  return `fix or reinstall ${owner.controller}`;
}

function refusal(
  finalizer: string,
  guarded: { waiting: boolean; loose: string | undefined; risk: string | undefined } | undefined,
  owner: Finding['owner'],
): { finalizer: string; reason: string; remedy: string } {
  if (guarded) {
    const why = guarded.waiting ? 'is still legitimately waiting' : 'guards real infrastructure';
    const which = guarded.loose
      ? `pattern "${guarded.loose}" is a wildcard and does not name it exactly`
      : 'no pattern names it exactly';
    // Waiting is said only where something is at work; a guard whose controller is down or gone is fixed, not awaited.
    const first = guarded.waiting ? 'wait for it to finish' : fixOf(owner);
    return {
      finalizer,
      reason: `${finalizer} ${why}; ${which}`,
      remedy: `${first}, or name "${finalizer}" exactly in force-finalizers to remove it knowingly (risk: ${guarded.risk ?? 'unknown'})`,
    };
  }
  const fix = fixOf(owner);
  return {
    finalizer,
    reason: `no force-finalizers pattern matches ${finalizer}`,
    remedy: `${fix}, or add "${suggestion(finalizer)}" to force-finalizers`,
  };
}

/** Judge one finalizer against the patterns. An exact name wins over a wildcard, so the report shows intent. */
export function judge(
  finalizer: string,
  waiting: boolean,
  patterns: readonly string[],
  owner?: Finding['owner'],
  loadBalancer?: readonly string[],
): Verdict {
  const risk = riskOf(finalizer, waiting, owner, loadBalancer);
  const guarded = needsExactName(finalizer, waiting);
  const loose = firstMatch(patterns, finalizer);
  const pattern = patterns.find((p) => p === finalizer) ?? (guarded ? undefined : loose);
  if (pattern !== undefined) {
    return { removal: { finalizer, allowedBy: { input: 'force-finalizers', pattern }, risk } };
  }
  return { refusal: refusal(finalizer, guarded ? { waiting, loose, risk } : undefined, owner) };
}
