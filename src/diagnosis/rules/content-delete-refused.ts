import { FORCE_FINALIZE_NAMESPACE_POLICY, endpointSlicesCommand } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, ParsedConditions, Snapshot, WebhookState } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'content-delete-refused';

const WEBHOOK_NAME = /(?:failed calling webhook|admission webhook) "([^"]+)"/g;
const RBAC = /User "([^"]*)" cannot (\S+) resource "([^"]*)"(?: in API group "([^"]*)")?/;
/** A down webhook no error names may or may not be what refuses deletes: a guess, below the /finalize threshold. */
const SUSPECT = 0.5;
const FORCE_NOTE = 'Forcing /finalize instead leaves whatever could not be deleted orphaned in etcd.';

/**
 * NamespaceDeletionContentFailure explained: which admission webhook (failurePolicy Fail, service down) or which
 * RBAC denial refused the controller's deletes; down webhooks that intercept DELETE are named as suspects.
 */
export function contentDeleteRefused(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const failure = parsed.contentFailure;
  if (!failure) return [];
  const named = new Set<string>();
  const findings = failure.errors.map((error) => {
    const hooks = [...error.matchAll(WEBHOOK_NAME)].map((m) => m[1] ?? '');
    hooks.forEach((h) => named.add(h));
    const rbac = RBAC.exec(error);
    if (hooks.length > 0) return webhookFinding(s, error, hooks);
    if (rbac) return rbacFinding(s, error, rbac);
    return generic(s, error);
  });
  const suspects = s.webhooks.filter((w) => !named.has(w.name) && w.failurePolicy === 'Fail' && isDown(w));
  return [...findings, ...suspects.map(suspectFinding)];
}

const isDown = (w: WebhookState): boolean =>
  w.backing !== undefined && (!w.backing.serviceExists || w.backing.readyEndpoints === 0);

function conditionEvidence(s: Snapshot, error: string): Evidence {
  return {
    object: `namespace/${s.namespace.name}`,
    field: 'status.conditions[NamespaceDeletionContentFailure]',
    value: error,
  };
}

function hookEvidence(w: WebhookState): Evidence[] {
  const ref = `${w.kind.toLowerCase()}/${w.configuration}`;
  const svc = w.service ? `${w.service.namespace}/${w.service.name}` : (w.url ?? '(none)');
  const evidence: Evidence[] = [
    { object: ref, field: `webhooks[${w.name}].failurePolicy`, value: w.failurePolicy },
    { object: ref, field: `webhooks[${w.name}].rules (DELETE)`, value: w.deleteResources.join(', ') },
    { object: ref, field: `webhooks[${w.name}].clientConfig`, value: svc },
  ];
  if (w.backing) {
    const state = w.backing.serviceExists
      ? `${w.backing.readyEndpoints} ready endpoint address(es)`
      : 'service does not exist';
    evidence.push({ object: `service/${svc}`, field: 'backing', value: state });
  }
  return evidence;
}

function hookRemedy(hooks: WebhookState[]): Finding['remedy'] {
  const commands = hooks.flatMap((w) => [
    ...(w.service ? [endpointSlicesCommand(w.service.namespace, w.service.name)] : []),
    shellCommand('kubectl', 'delete', w.kind.toLowerCase(), w.configuration),
  ]);
  return {
    commands: [...new Set(commands)],
    policy: FORCE_FINALIZE_NAMESPACE_POLICY,
    note: `Restore the webhook's service, or delete the configuration (or set failurePolicy: Ignore) and reinstall it later: while it fails it refuses DELETE cluster-wide. ${FORCE_NOTE}`,
  };
}

function webhookFinding(s: Snapshot, error: string, names: string[]): Finding {
  const hooks = s.webhooks.filter((w) => names.includes(w.name));
  const described = names.map((n) => {
    const w = hooks.find((h) => h.name === n);
    if (!w) return `webhook ${n}`;
    const down = isDown(w) ? ` whose service ${w.service?.namespace}/${w.service?.name} is down` : '';
    return `${w.kind} ${w.configuration} webhook ${n} (failurePolicy ${w.failurePolicy})${down}`;
  });
  return {
    id: ID,
    severity: 'error',
    summary: `the namespace controller's deletes are refused by ${described.join(', ')}`,
    evidence: [conditionEvidence(s, error), ...hooks.flatMap(hookEvidence)],
    owner: hooks[0]?.service && {
      controller: `service ${hooks[0].service.namespace}/${hooks[0].service.name}`,
      present: !isDown(hooks[0]),
    },
    remedy:
      hooks.length > 0
        ? hookRemedy(hooks)
        : { commands: [], policy: FORCE_FINALIZE_NAMESPACE_POLICY, note: FORCE_NOTE },
    leaked: false,
    targets: [
      { kind: 'namespace-finalize', reason: `content deletion refused by webhook ${names.join(', ')}` },
    ],
  };
}

function rbacFinding(s: Snapshot, error: string, m: RegExpExecArray): Finding {
  const [, user = '', verb = '', resource = '', group = ''] = m;
  const what = group ? `${resource}.${group}` : resource;
  return {
    id: ID,
    severity: 'error',
    summary: `RBAC denies ${user} to ${verb} ${what} in namespace ${s.namespace.name}`,
    evidence: [conditionEvidence(s, error)],
    remedy: {
      commands: [
        shellCommand('kubectl', 'auth', 'can-i', verb, what, '-n', s.namespace.name, `--as=${user}`),
      ],
      policy: FORCE_FINALIZE_NAMESPACE_POLICY,
      note: `Grant the permission (for the namespace controller: check the system:controller:namespace-controller ClusterRole and aggregated roles). ${FORCE_NOTE}`,
    },
    leaked: false,
    targets: [{ kind: 'namespace-finalize', reason: `RBAC denies ${verb} ${what}` }],
  };
}

function generic(s: Snapshot, error: string): Finding {
  return {
    id: ID,
    severity: 'error',
    summary: `the namespace controller failed to delete content: ${error}`,
    evidence: [conditionEvidence(s, error)],
    remedy: { commands: [], policy: FORCE_FINALIZE_NAMESPACE_POLICY, note: FORCE_NOTE },
    leaked: false,
    generic: true,
    targets: [{ kind: 'namespace-finalize', reason: 'content deletion failed' }],
  };
}

function suspectFinding(w: WebhookState): Finding {
  return {
    id: ID,
    severity: 'warning',
    summary: `suspect: ${w.kind} ${w.configuration} webhook ${w.name} intercepts DELETE of ${w.deleteResources.join(', ')} with failurePolicy Fail and its service is down`,
    evidence: hookEvidence(w),
    owner: w.service && { controller: `service ${w.service.namespace}/${w.service.name}`, present: false },
    confidence: SUSPECT,
    remedy: hookRemedy([w]),
    leaked: false,
    targets: [
      { kind: 'namespace-finalize', reason: `webhook ${w.name} may refuse deletes`, confidence: SUSPECT },
    ],
  };
}
