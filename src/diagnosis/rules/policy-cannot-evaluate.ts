/**
 * A ValidatingAdmissionPolicy that refuses the deletes because it cannot evaluate (its binding or policy cannot be
 * configured, an expression errs) under failurePolicy Fail: not a deliberate denial — no change of the object helps —
 * and not an outage. Says what its binding lacks, as read in this run. Pure.
 */
import { denialSource, parseDenials, type Denial } from '../denials.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, ParsedConditions } from '../../model/findings.js';
import type { PolicyBindingState, Snapshot } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'policy-cannot-evaluate';

const NOTE =
  'The policy did not decide: it could not be evaluated, and its failurePolicy Fail turns that into a refusal of ' +
  'every request it matches, in every namespace. Changing the object cannot help. Give the binding what it lacks ' +
  '(its parameter object), or have the policy’s owner fix or scope the binding. Deleting the policy or its binding, ' +
  'or setting failurePolicy: Ignore, switches off what it enforces everywhere; forcing /finalize goes around it and ' +
  'leaves what it guards in storage, so this action never does.';

/** The denials of the content-deletion failure that are policies unable to evaluate, with the error they quote. */
export function undecided(parsed: ParsedConditions): { d: Denial; error: string }[] {
  return (parsed.contentFailure?.errors ?? []).flatMap((error) =>
    parseDenials(error)
      .filter((d) => d.cannotEvaluate !== undefined)
      .map((d) => ({ d, error })),
  );
}

/** What the binding lacks, in words, from what this run read of it. */
export function lacking(b: PolicyBindingState | undefined, namespace: string): string {
  if (!b) return 'its binding was not read';
  if (b.unread) return `its binding could not be read: ${b.unread}`;
  const ref = b.paramRef;
  if (!ref) return `its binding ${b.binding} names no parameter (spec.paramRef)`;
  const where = ref.namespace ?? `${namespace} (no namespace in spec.paramRef: the object’s own)`;
  const param = `${b.paramKind ?? 'parameter'} ${ref.name ?? `selected by ${ref.selector ?? '?'}`} in ${where}`;
  const action = ref.parameterNotFoundAction
    ? `, parameterNotFoundAction ${ref.parameterNotFoundAction}`
    : '';
  if (b.paramFound === false)
    return `its binding ${b.binding} takes its parameter from ${param}, which does not exist${action}`;
  if (b.paramFound === true) return `its binding ${b.binding} names ${param}, which exists${action}`;
  return `its binding ${b.binding} names ${param}${action}; whether it exists was not read`;
}

/** Policies that refuse the deletes because they cannot evaluate, one finding per policy and binding. */
export function policyCannotEvaluate(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const seen = new Map<string, Finding>();
  for (const { d, error } of undecided(parsed)) {
    const key = `${d.policy ?? ''}|${d.binding ?? ''}`;
    if (seen.has(key)) continue;
    const binding = s.policyBindings?.find((b) => b.binding === d.binding);
    seen.set(key, finding(s, d, error, lacking(binding, s.namespace.name)));
  }
  return [...seen.values()];
}

function finding(s: Snapshot, d: Denial, error: string, lacks: string): Finding {
  const source = denialSource(d);
  const yaml = ['-o', 'yaml'];
  const evidence: Evidence[] = [
    {
      object: `namespace/${s.namespace.name}`,
      field: 'status.conditions[NamespaceDeletionContentFailure]',
      value: error,
    },
    { object: `validatingadmissionpolicy/${d.policy ?? ''}`, field: 'answer', value: d.message },
    { object: `validatingadmissionpolicybinding/${d.binding ?? ''}`, field: 'what it lacks', value: lacks },
  ];
  return {
    id: ID,
    severity: 'error',
    verdict: 'cannot-evaluate',
    cause: `policy-cannot-evaluate:${d.policy ?? ''}|${d.binding ?? ''}`,
    summary: `${source} cannot evaluate, so it refuses the namespace controller’s deletes (not on purpose): ${lacks}`,
    causeSummary: `${source} cannot evaluate, so it refuses deletes (not on purpose)`,
    basis: [`${d.cannotEvaluate ?? d.message}`, lacks],
    evidence,
    owner: { controller: source, present: true, detail: 'it answered, but without deciding' },
    remedy: {
      commands: [
        ...(d.binding
          ? [shellCommand('kubectl', 'get', 'validatingadmissionpolicybinding', d.binding, ...yaml)]
          : []),
        shellCommand('kubectl', 'get', 'validatingadmissionpolicy', d.policy ?? '', ...yaml),
      ],
      note: NOTE,
    },
    leaked: false,
    targets: [{ kind: 'denied-on-purpose', by: `${source} (cannot evaluate)` }],
  };
}
