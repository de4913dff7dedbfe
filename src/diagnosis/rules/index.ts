/** The ordered rule table and every rule's help, checked complete by the compiler. */
import { admissionDenied } from './admission-denied.js';
import { apiServiceUnavailable } from './apiservice-unavailable.js';
import { contentDeleteRefused } from './content-delete-refused.js';
import { controllerConditions } from './controller-conditions.js';
import { conversionFailed } from './conversion-failed.js';
import { finalizerOwnerGone } from './finalizer-owner-gone.js';
import { RULE_IDS, type Help, type Rule, type RuleId } from './ids.js';
import { namespaceMetadataFinalizers } from './namespace-metadata-finalizers.js';
import { objectFinalizers } from './object-finalizers.js';
import { podsNotTerminating } from './pods-not-terminating.js';
import { policyCannotEvaluate } from './policy-cannot-evaluate.js';
import { specFinalizers } from './spec-finalizers.js';
import { stillProgressing } from './still-progressing.js';
import { willRecreateRule } from './will-recreate.js';

export { RULE_IDS, type Help, type Rule, type RuleId };

/** Each rule by id; `Record<RuleId, Rule>` makes a missing rule a compile error. */
const RULES: Record<RuleId, Rule> = {
  'controller-conditions': controllerConditions,
  'apiservice-unavailable': apiServiceUnavailable,
  'admission-denied': admissionDenied,
  'policy-cannot-evaluate': policyCannotEvaluate,
  'conversion-failed': conversionFailed,
  'content-delete-refused': contentDeleteRefused,
  'pods-not-terminating': podsNotTerminating,
  'object-finalizers': objectFinalizers,
  'finalizer-owner-gone': finalizerOwnerGone,
  'namespace-metadata-finalizers': namespaceMetadataFinalizers,
  'spec-finalizers': specFinalizers,
  'will-recreate': willRecreateRule,
  // Found after the run, from fresh reads of what outlived the namespaces (teardown/outlives.ts), not from a snapshot.
  'still-broken': () => [],
  // Found from the answers to this run's forced writes (force/put-back-finding.ts), not from a snapshot.
  'finalizer-put-back': () => [],
  'still-progressing': stillProgressing,
};

/** The ordered rule table the diagnosis runs. */
export const RULE_TABLE: readonly { id: RuleId; run: Rule }[] = RULE_IDS.map((id) => ({
  id,
  run: RULES[id],
}));

/** Help for every rule; `Record<RuleId, Help>` makes a rule without help a compile error. */
export const RULE_HELP: Record<RuleId, Help> = {
  'controller-conditions': {
    title: 'What the namespace controller says',
    explanation:
      'The five status conditions the namespace controller writes (discovery, group-version parsing, content deletion, content remaining, finalizers remaining), parsed, with any text that could not be parsed kept verbatim.',
  },
  'apiservice-unavailable': {
    title: 'Unavailable APIService',
    explanation:
      'An aggregated APIService that is not Available (ServiceNotFound, MissingEndpoints, FailedDiscoveryCheck…) makes discovery fail, and no namespace in the cluster is finalized while discovery fails. Names the APIService, its reason and its backing Service and endpoints.',
  },
  'admission-denied': {
    title: 'Deletes denied on purpose',
    explanation:
      'An admission webhook that answered “denied the request” (Kyverno, Gatekeeper, any other) or a ValidatingAdmissionPolicy refuses the controller’s deletes on purpose. It is up: the verdict quotes its policy, rule and message, and the fix is the object, an exception, or the policy’s owner — never switching the webhook off.',
  },
  'policy-cannot-evaluate': {
    title: 'Policy cannot evaluate',
    explanation:
      'A ValidatingAdmissionPolicy that refuses the deletes because it could not decide — “failed to configure binding: …”, an expression that errs — under failurePolicy Fail. Not a deliberate denial: no change of the object helps. Names what its binding lacks (a parameter object that does not exist, read in this run), and never switching the policy off.',
  },
  'conversion-failed': {
    title: 'Conversion webhook failing',
    explanation:
      'A CRD whose conversion webhook is gone (its operator uninstalled, the CRD left): objects stored at an older version cannot be listed or deleted. Names the CRD, the stored and requested versions, the webhook’s Service and endpoints, and lists the objects at the stored version when it can.',
  },
  'content-delete-refused': {
    title: 'Deletes refused',
    explanation:
      'NamespaceDeletionContentFailure explained: an admission webhook with failurePolicy Fail that cannot be called (its service down, TLS or timeouts), or an RBAC denial, refuses the controller’s deletes.',
  },
  'pods-not-terminating': {
    title: 'Pods not terminating',
    explanation:
      'Pods are deleted before anything else. A pod on a missing or NotReady node, past its grace period, or with a very long grace period holds the whole namespace back.',
  },
  'object-finalizers': {
    title: 'Objects holding finalizers',
    explanation:
      'Every object left in the namespace that holds finalizers, with its deletionTimestamp age and owner references, and a JSON patch that removes exactly the finalizers not legitimately waiting.',
  },
  'finalizer-owner-gone': {
    title: 'Finalizer without a controller',
    explanation:
      'Matches each finalizer (and its CRD group) to the workloads that could serve it: running elsewhere (waiting), deleted with this namespace (deadlock) or absent (leaked). Built-in finalizers waiting on something real are not leaks.',
  },
  'namespace-metadata-finalizers': {
    title: 'Namespace metadata finalizers',
    explanation:
      'Entries in the namespace’s own metadata.finalizers (not spec.finalizers), often left by an uninstalled platform such as KubeSphere; removed by a PATCH of the namespace.',
  },
  'spec-finalizers': {
    title: 'Foreign spec finalizers',
    explanation:
      'Entries other than `kubernetes` in spec.finalizers: another namespace lifecycle controller has to finish; they can only be removed through /finalize.',
  },
  'will-recreate': {
    title: 'Recreated by its owner',
    explanation:
      'A GitOps owner (Flux Kustomization or HelmRelease, Argo CD Application or ApplicationSet) that applies the namespace itself — its inventory holds the Namespace, it creates its destination, or the namespace carries its tracking label — and whose controller is alive applies it again once it is gone: the owner must go first, or be suspended.',
  },
  'still-broken': {
    title: 'Still broken after the run',
    explanation:
      'Read after the run: a failurePolicy Fail webhook or an APIService whose backend lived in a namespace this run deleted (or that a forced namespace was stuck on), or a policy binding whose parameter did, still refuses or fails everywhere. Never resolved by forcing: it fails the check under fail-on: leaked, with the command that clears it.',
  },
  'finalizer-put-back': {
    title: 'Finalizer put back',
    explanation:
      'Read from the answers to this run’s forced writes: the server answered a write removing a finalizer (or /finalize emptying spec.finalizers) with it still there — a mutating admission webhook puts it back inside the request, and an identical object is not even stored. Names the webhook whose rules reach that write, where it is served and whether it is up (or the field manager managedFields name, or says it cannot tell); the write is tried once more at most, and the fix is that webhook, never removing the finalizer again.',
  },
  'still-progressing': {
    title: 'Still progressing',
    explanation:
      'Content is being removed normally (no finalizers, pods inside their grace period); reported with an estimate instead of as a leak.',
  },
};
