/** The rule ids in the order the rules run, and the shape of a rule and of its help. Pure. */
import type { Finding, ParsedConditions } from '../../model/findings.js';
import type { Snapshot } from '../types.js';

/** Every rule id, in the order the rules run. */
export const RULE_IDS = [
  'controller-conditions',
  'apiservice-unavailable',
  'admission-denied',
  'policy-cannot-evaluate',
  'conversion-failed',
  'content-delete-refused',
  'pods-not-terminating',
  'object-finalizers',
  'finalizer-owner-gone',
  'namespace-metadata-finalizers',
  'spec-finalizers',
  'will-recreate',
  'still-broken',
  'finalizer-put-back',
  'still-progressing',
] as const;

/** A stable rule id; it is also the id of every finding the rule makes. */
export type RuleId = (typeof RULE_IDS)[number];

/** A pure rule: the snapshot and its parsed conditions in, findings out. */
export type Rule = (s: Snapshot, parsed: ParsedConditions) => Finding[];

/** What a rule checks, for reports and `--explain`. */
export interface Help {
  title: string;
  explanation: string;
}
