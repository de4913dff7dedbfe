import { parseConditions } from './conditions.js';
import { compareText } from './refs.js';
import { RULE_TABLE } from './rules/index.js';
import type { Finding, Severity, Snapshot } from './types.js';

export { NAMESPACE_CONDITION_TYPES, parseConditions } from './conditions.js';
export { RULE_HELP, RULE_IDS, RULE_TABLE, type Help, type Rule, type RuleId } from './rules/index.js';
export { shellCommand, shellQuote } from './shell.js';
export { takeSnapshot, type SnapshotOptions } from './snapshot.js';
export type * from './types.js';

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };

/** Runs every rule over the snapshot; findings come sorted by severity, rule id, object, then summary. */
export function diagnose(s: Snapshot): Finding[] {
  const parsed = parseConditions(s.namespace.conditions);
  return RULE_TABLE.flatMap((rule) => rule.run(s, parsed)).sort(compareFindings);
}

/** The deterministic order of findings: severity, then id, then the first evidence object, then summary. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    compareText(a.id, b.id) ||
    compareText(a.evidence[0]?.object ?? '', b.evidence[0]?.object ?? '') ||
    compareText(a.summary, b.summary)
  );
}
