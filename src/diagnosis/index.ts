/** The diagnosis from outside: take a snapshot, run the ordered rule table over it, findings sorted verdict first. */
import { compareText } from '../shared/compare.js';
import { parseConditions } from './conditions.js';
import { RULE_TABLE, type RuleId } from './rules/index.js';
import type { Finding, Severity } from '../model/findings.js';
import type { Snapshot } from './types.js';

export { NAMESPACE_CONDITION_TYPES, parseConditions } from './conditions.js';
export { RULE_HELP, RULE_IDS, RULE_TABLE, type Help, type Rule, type RuleId } from './rules/index.js';
export { shellCommand, shellQuote } from './shell.js';
export { sightOf, takeSnapshot, type SnapshotOptions } from './snapshot/take.js';
export type * from './types.js';
// Used by the other stages beside the diagnosis itself: the actor model (the pre-mortem, the order of the DELETEs),
// the reads (the checks after the waits, GitOps owners first), and how objects and remedies are named (the report).
export { linkOf } from './actors/gitops.js';
export { builtInActor, heldBy, lostSightNote, releaseVerdict, type ReleaseVerdict } from './actors/index.js';
export { BUILT_IN_FINALIZERS, isBuiltInFinalizer } from './finalizers.js';
export { parseDenials } from './denials.js';
export { objectLabel } from './refs.js';
export { FORCE_FINALIZE_NAMESPACE_POLICY } from './remedy.js';
export { brokenApiService, brokenBinding, brokenWebhook } from './rules/still-broken.js';
export { comesBack, mayRecreate, recreatesIt, willRecreate } from './rules/will-recreate.js';
export { toApplication, toHelmRelease, toKustomization } from './snapshot/actor-raw.js';
export { readAllPolicyBindings, readGitOps } from './snapshot/actor-reads.js';
export {
  readApiServicesNow,
  readLeases,
  readRbac,
  readRoleBindings,
  readWebhooksNow,
  readWorkloads,
} from './snapshot/cluster-reads.js';
export { Reads, SharedReads, describeError } from './snapshot/reader.js';
// Who put back what a forced write removed: the mutating webhooks that reach the write.
export { reachesUpdate, type MutatingWebhookState, type WriteSubject } from './mutating.js';
export { readMutatingWebhooks, withBacking, type BackingReads } from './snapshot/mutating-reads.js';

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, notice: 2 };

// Among findings of one severity, the one naming the most specific culprit comes first: a cluster-wide blocker
// explains everything below it, a refused delete or a stuck pod explains the objects left behind, and a leaked
// finalizer explains the object that holds it.
const CULPRIT_RANK: Record<RuleId, number> = {
  'apiservice-unavailable': 0,
  'admission-denied': 1,
  'policy-cannot-evaluate': 2,
  'conversion-failed': 3,
  'content-delete-refused': 4,
  'pods-not-terminating': 5,
  // A webhook that undoes the removal comes before who should have removed the finalizer: fixing it comes first.
  'finalizer-put-back': 5.5,
  'finalizer-owner-gone': 6,
  'namespace-metadata-finalizers': 7,
  'spec-finalizers': 8,
  'object-finalizers': 9,
  'will-recreate': 10,
  'still-broken': 11,
  'still-progressing': 12,
  'controller-conditions': 13,
};

/**
 * 0 for a specific culprit (or content still going normally), 1 for the controller's own generic words, 2 for
 * side notes: the controller's text is what the other rules explain, so it is never the verdict beside a culprit.
 */
function tier(f: Finding): number {
  if (f.generic) return 1;
  return f.severity === 'notice' && f.id !== 'still-progressing' ? 2 : 0;
}

/** Runs every rule over the snapshot; findings come sorted so the first one is the verdict (the root cause). */
export function diagnose(s: Snapshot): Finding[] {
  const parsed = parseConditions(s.namespace.conditions);
  return RULE_TABLE.flatMap((rule) => rule.run(s, parsed)).sort(compareFindings);
}

/** The deterministic order of findings: culprits before the controller's words, severity, rule, object, summary. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    tier(a) - tier(b) ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (CULPRIT_RANK[a.id as RuleId] ?? 99) - (CULPRIT_RANK[b.id as RuleId] ?? 99) ||
    compareText(a.id, b.id) ||
    compareText(a.evidence[0]?.object ?? '', b.evidence[0]?.object ?? '') ||
    compareText(a.summary, b.summary)
  );
}
