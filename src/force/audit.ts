/** The force audit trail: one entry per executed step, and its log line. Pure. */
import { allowedByText, type AllowedBy, type ForceStep, type Removal } from './plan.js';
import type { Logger } from '../ports.js';

/** What happened to one step. `gone` (NotFound) counts as done. */
export type AuditResult =
  'removed' | 'finalized' | 'deleted' | 'gone' | 'dry-run' | `skipped: ${string}` | `failed: ${string}`;

/** One line of the force audit trail. */
export interface AuditEntry {
  /** ISO time from the injected clock. */
  at: string;
  namespace: string;
  step: ForceStep['kind'];
  object: string;
  field: ForceStep['field'];
  /** Finalizers as last read (the planned list when nothing could be read). */
  before: string[];
  /** Finalizers after the step; in dry-run, what they would be. */
  after: string[];
  /** The removals the policy allowed, with the pattern or input that allowed each (empty for a pod delete). */
  allowed: Removal[];
  /** For a pod delete: the input that allowed it. */
  allowedBy?: AllowedBy;
  result: AuditResult;
  /** Writes sent for this step (0 in dry-run and when skipped). */
  writes: number;
}

/**
 * Whether a step failed (a refused or erroring write), which holds /finalize back. A step skipped as pointless
 * (the object is not being deleted yet, was recreated, or has nothing left to remove) does not: /finalize is the
 * last resort precisely when nothing else can finish the namespace, and its plan lists what stays in storage.
 */
export function failed(entry: AuditEntry): boolean {
  return entry.result.startsWith('failed: ');
}

/** Log one entry; a risk taken is logged as a warning. */
export function logEntry(logger: Logger, e: AuditEntry, risk?: string): void {
  const removing = e.allowed.map((r) => `${r.finalizer} (${allowedByText(r.allowedBy)})`).join(', ');
  const line = e.allowedBy
    ? `${e.namespace}: ${e.object}: ${e.result} — delete with grace period 0 (${allowedByText(e.allowedBy)})`
    : `${e.namespace}: ${e.object} ${e.field}: ${e.result} — remove ${removing}; after: [${e.after.join(', ')}]`;
  if (failed(e)) logger.warning(line);
  else logger.info(line);
  if (risk && e.result === 'deleted') logger.warning(`${e.namespace}: ${e.object}: risk taken: ${risk}`);
  if (e.result !== 'removed' && e.result !== 'finalized') return;
  for (const r of e.allowed) if (r.risk) logger.warning(`${e.namespace}: ${e.object}: risk taken: ${r.risk}`);
}
