/** Rule: an admission webhook or policy deliberately denies the deletes the namespace controller makes. Pure. */
import { denialSource, parseDenials, type Denial } from '../denials.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, ParsedConditions } from '../../model/findings.js';
import type { Snapshot, WebhookState } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'admission-denied';

/** How much of the engine's message the one-line verdict quotes (the evidence keeps all of it). */
const QUOTED = 240;

const NEVER_DISABLE =
  'It answered, so it is up and refuses on purpose. Change the object so that the policy allows its deletion (the ' +
  'message says what it wants), or ask the policy’s owner for an exception for this namespace (e.g. a Kyverno ' +
  'PolicyException) or to change the policy. Do not delete the webhook configuration or set failurePolicy: Ignore: ' +
  'that switches off every policy it enforces, in every namespace. Forcing /finalize would go around it too, leaving ' +
  'what it protects in storage, so this action never does.';

/**
 * Deletes refused on purpose: an admission webhook that answered "denied the request" (Kyverno, Gatekeeper, any
 * other) or a ValidatingAdmissionPolicy. Told apart from an outage by the answer itself, quoted as the engine gave it.
 */
export function admissionDenied(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const failure = parsed.contentFailure;
  if (!failure) return [];
  const seen = new Map<string, Finding>();
  for (const error of failure.errors) {
    // A policy that could not evaluate did not deny on purpose: policy-cannot-evaluate says so.
    for (const d of parseDenials(error).filter((x) => x.cannotEvaluate === undefined)) {
      const f = finding(s, d, error);
      if (!seen.has(f.cause)) seen.set(f.cause, f);
    }
  }
  return [...seen.values()];
}

function quote(message: string): string {
  const one = message.replace(/\s+/g, ' ').trim();
  return one.length > QUOTED ? `${one.slice(0, QUOTED)}…` : one;
}

function finding(s: Snapshot, d: Denial, error: string): Finding {
  const hook = d.webhook ? s.webhooks.find((w) => w.name === d.webhook) : undefined;
  const source = denialSource(d);
  const what = d.object ? ` deleting ${d.object}` : ' the namespace controller’s deletes';
  return {
    id: ID,
    severity: 'error',
    verdict: 'refused-on-purpose',
    basis: [`${source} answered: “${quote(d.message)}”`, 'it answered, so it is up'],
    cause: `admission-denied:${d.via}|${d.webhook ?? ''}|${d.policy ?? ''}|${d.rule ?? ''}|${d.binding ?? ''}`,
    summary: `${source} denies${what} on purpose: “${quote(d.message)}”`,
    causeSummary: `${source} denies deletes on purpose: “${quote(d.message)}”`,
    evidence: [
      {
        object: `namespace/${s.namespace.name}`,
        field: 'status.conditions[NamespaceDeletionContentFailure]',
        value: error,
      },
      ...denialEvidence(d),
      ...(hook ? hookEvidence(hook) : []),
    ],
    owner: {
      controller: d.webhook ? `${d.engine} (webhook ${d.webhook})` : source,
      present: true,
      detail: 'it answered the delete with a denial: it is up',
    },
    remedy: { commands: lookups(d, hook), note: NEVER_DISABLE },
    leaked: false,
    targets: [{ kind: 'denied-on-purpose', by: source }],
  };
}

function denialEvidence(d: Denial): Evidence[] {
  const ref =
    d.via === 'validating-admission-policy'
      ? `validatingadmissionpolicy/${d.policy ?? ''}`
      : `webhook/${d.webhook ?? ''}`;
  const out: Evidence[] = [{ object: ref, field: 'answer', value: `denied: ${d.message}` }];
  if (d.policy)
    out.push({ object: ref, field: d.engine === 'Gatekeeper' ? 'constraint' : 'policy', value: d.policy });
  if (d.rule) out.push({ object: ref, field: 'rule', value: d.rule });
  if (d.binding) out.push({ object: ref, field: 'binding', value: d.binding });
  if (d.object) out.push({ object: ref, field: 'refused object', value: d.object });
  return out;
}

function hookEvidence(w: WebhookState): Evidence[] {
  const ref = `${w.kind.toLowerCase()}/${w.configuration}`;
  const svc = w.service ? `${w.service.namespace}/${w.service.name}` : (w.url ?? '(none)');
  return [
    { object: ref, field: `webhooks[${w.name}].failurePolicy`, value: w.failurePolicy },
    { object: ref, field: `webhooks[${w.name}].clientConfig`, value: svc },
  ];
}

/** Where to read the policy that refused: the engine's own objects. */
function lookups(d: Denial, hook: WebhookState | undefined): string[] {
  const yaml = ['-o', 'yaml'];
  if (d.via === 'validating-admission-policy') {
    return [
      shellCommand('kubectl', 'get', 'validatingadmissionpolicy', d.policy ?? '', ...yaml),
      ...(d.binding
        ? [shellCommand('kubectl', 'get', 'validatingadmissionpolicybinding', d.binding, ...yaml)]
        : []),
    ];
  }
  const field = (name: string): string => `--field-selector=metadata.name=${name}`;
  if (d.engine === 'Kyverno' && d.policy)
    return [
      shellCommand(
        'kubectl',
        'get',
        'clusterpolicies.kyverno.io,policies.kyverno.io',
        '-A',
        field(d.policy),
        ...yaml,
      ),
    ];
  if (d.engine === 'Gatekeeper' && d.policy)
    return [shellCommand('kubectl', 'get', 'constraints', field(d.policy), ...yaml)];
  if (hook) return [shellCommand('kubectl', 'get', hook.kind.toLowerCase(), hook.configuration, ...yaml)];
  return [shellCommand('kubectl', 'get', 'validatingwebhookconfigurations,mutatingwebhookconfigurations')];
}
