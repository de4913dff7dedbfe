/** The force audit trail: one entry per executed step, and its log line. Pure. */
import type { AuditEntry, ForceStep, StepOutcome } from '../model/force.js';
import { allowedByText } from './labels.js';
import { whoPutBack } from './put-back-words.js';
import type { Logger } from '../shared/ports.js';

/**
 * Whether a step failed (a refused or erroring write, or one the server answered without its effect), which holds
 * /finalize back. A step skipped as pointless (the object is not being deleted yet, was recreated, or has nothing left
 * to remove) does not: /finalize is the last resort precisely when nothing else can finish the namespace, and its plan
 * lists what stays in storage.
 */
export function failed(entry: AuditEntry): boolean {
  return entry.result === 'failed' || entry.result === 'not-removed';
}

/**
 * `removed`, `skipped: not being deleted yet`, `failed: …`, `not removed: …`: a step's outcome in one line of the log
 * and the summary.
 */
export function resultText(o: StepOutcome): string {
  if (o.result === 'skipped') return `skipped: ${o.why}`;
  if (o.result === 'failed') return `failed: ${o.error}`;
  if (o.result === 'not-removed') return `not removed: ${o.why}`;
  return o.result;
}

/** Entries of one kind, type and result logged one by one; the rest are counted in one line. */
const LOGGED_EACH = 3;

function logOne(logger: Logger, e: AuditEntry): void {
  const removing = e.allowed.map((r) => `${r.finalizer} (${allowedByText(r.allowedBy)})`).join(', ');
  const line = e.allowedBy
    ? `${e.namespace}: ${e.object}: ${resultText(e)} — delete with grace period 0 (${allowedByText(e.allowedBy)})`
    : `${e.namespace}: ${e.object} ${e.field}: ${resultText(e)} — remove ${removing}; after: [${e.after.join(', ')}]`;
  if (failed(e)) logger.warning(line);
  else logger.info(line);
  if (e.result === 'not-removed' && e.putBack) {
    logger.warning(`${e.namespace}: ${e.object}: ${whoPutBack(e.putBack)}`);
    logger.warning(`${e.namespace}: ${e.object}: fix: ${e.putBack.remedy}`);
  }
}

/** `failed`, `skipped: …` or the result itself: what entries are grouped by (a failure's text names its object). */
export const resultClass = (o: StepOutcome): string => (o.result === 'failed' ? 'failed' : resultText(o));

/** `kialis.kiali.io` of `kialis.kiali.io/kiali`. */
const typeOf = (object: string): string => object.slice(0, Math.max(0, object.lastIndexOf('/')));

/**
 * Log the audit trail of a pass: a few entries of each step kind, type and result, then a count of the rest; each
 * risk taken once as a warning. Thousands of objects make a handful of lines.
 */
export function logAudit(logger: Logger, audit: readonly AuditEntry[], steps: readonly ForceStep[]): void {
  const groups = new Map<string, number[]>();
  audit.forEach((e, i) => {
    const key = `${e.step}\u0000${typeOf(e.object)}\u0000${resultClass(e)}`;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  for (const indexes of groups.values()) {
    const entries = indexes.map((i) => audit[i]!);
    entries.slice(0, LOGGED_EACH).forEach((e) => logOne(logger, e));
    const first = entries[0]!;
    if (entries.length > LOGGED_EACH) {
      const more = `${first.namespace}: … and ${entries.length - LOGGED_EACH} more ${typeOf(first.object)} ${first.field}: ${resultClass(first)}`;
      if (failed(first)) logger.warning(more);
      else logger.info(more);
    }
    const risks = new Set<string>();
    for (const i of indexes) {
      const e = audit[i]!;
      const step = steps[i];
      if (e.result === 'deleted' && step?.kind === 'pod-delete') risks.add(step.risk);
      if (e.result === 'removed' || e.result === 'finalized')
        for (const r of e.allowed) if (r.risk) risks.add(r.risk);
    }
    const scope = entries.length > 1 ? `${entries.length} ${typeOf(first.object)} objects` : first.object;
    for (const risk of risks) logger.warning(`${first.namespace}: ${scope}: risk taken: ${risk}`);
  }
}
