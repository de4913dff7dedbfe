/** The force audit trail: one entry per executed step, and its log line. Pure. */
import { allowedByText, type ForceStep, type Removal } from './plan.js';
import type { Logger } from '../ports.js';

/** What happened to one step. `gone` (NotFound) counts as done. */
export type AuditResult =
  'removed' | 'finalized' | 'gone' | 'dry-run' | `skipped: ${string}` | `failed: ${string}`;

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
  /** The removals the policy allowed, with the pattern or input that allowed each. */
  allowed: Removal[];
  result: AuditResult;
  /** Writes sent for this step (0 in dry-run and when skipped). */
  writes: number;
}

/** Results after which the planned /finalize would orphan more than the plan listed. */
export function incomplete(entry: AuditEntry): boolean {
  return (
    entry.result.startsWith('failed: ') || /^skipped: (object recreated|not being deleted)/.test(entry.result)
  );
}

/** Log one entry; a risk taken is logged as a warning. */
export function logEntry(logger: Logger, e: AuditEntry): void {
  const removing = e.allowed.map((r) => `${r.finalizer} (${allowedByText(r.allowedBy)})`).join(', ');
  const line = `${e.namespace}: ${e.object} ${e.field}: ${e.result} — remove ${removing}; after: [${e.after.join(', ')}]`;
  if (e.result.startsWith('failed: ')) logger.warning(line);
  else logger.info(line);
  if (e.result !== 'removed' && e.result !== 'finalized') return;
  for (const r of e.allowed) if (r.risk) logger.warning(`${e.namespace}: ${e.object}: risk taken: ${r.risk}`);
}
