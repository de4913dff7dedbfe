/** Rule: the namespace controller's deletes fail: which webhook could not be called, or which RBAC denial. Pure. */
import { parseConversionError } from '../snapshot/conversion-reads.js';
import { namespaceGoing } from '../backing.js';
import { hasDenial, parseDenials } from '../denials.js';
import { FORCE_FINALIZE_NAMESPACE_POLICY, endpointSlicesCommand, removeWebhooksCommands } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { Evidence, Finding, ParsedConditions, Remedy } from '../../model/findings.js';
import type { Snapshot, WebhookState } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'content-delete-refused';

// A call that did not get an answer (kube-apiserver's ErrCallingWebhook); a webhook that answered and denied is
// admission-denied's.
const CALL_FAILED = /failed calling webhook "([^"]+)"/g;
const RBAC = /User "([^"]*)" cannot (\S+) resource "([^"]*)"(?: in API group "([^"]*)")?/;
/** A down webhook no error names may or may not be what refuses deletes: a guess, below the /finalize threshold. */
const SUSPECT = 0.5;
const FORCE_NOTE = 'Forcing /finalize instead leaves whatever could not be deleted orphaned in etcd.';

/**
 * NamespaceDeletionContentFailure explained: which admission webhook could not be called (failurePolicy Fail) or
 * which RBAC denial refused the controller's deletes; down webhooks that intercept DELETE are named as suspects.
 * Deliberate denials and conversion failures have rules of their own.
 */
export function contentDeleteRefused(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const failure = parsed.contentFailure;
  if (!failure) return [];
  const named = new Set<string>();
  const findings = failure.errors.flatMap((error) => {
    // A webhook that answered with a denial is up: never a suspect for being down.
    for (const d of parseDenials(error)) if (d.webhook) named.add(d.webhook);
    if (hasDenial(error) || parseConversionError(error)) return [];
    const hooks = [...error.matchAll(CALL_FAILED)].map((m) => m[1] ?? '');
    hooks.forEach((h) => named.add(h));
    const rbac = RBAC.exec(error);
    if (hooks.length > 0) return [webhookFinding(s, error, hooks)];
    if (rbac) return [rbacFinding(s, error, rbac)];
    return [generic(s, error)];
  });
  const suspects = s.webhooks.filter((w) => !named.has(w.name) && w.failurePolicy === 'Fail' && isDown(w));
  return [...findings, ...suspects.map(suspectFinding)];
}

/** Down by evidence read in this run: its Service is missing or has no ready endpoint. */
const isDown = (w: WebhookState): boolean =>
  w.backing !== undefined && (!w.backing.serviceExists || w.backing.readyEndpoints === 0);

/** What the call failure says, in words: why the API server could not get an answer. */
function callFailure(error: string): string {
  if (/service "[^"]*" not found/.test(error)) return 'its service does not exist';
  if (/no endpoints available/.test(error)) return 'its service has no endpoints';
  if (/connection refused/.test(error)) return 'nothing listens behind its service (connection refused)';
  if (/x509|certificate/i.test(error)) return 'TLS fails (its caBundle or serving certificate is wrong)';
  if (/deadline exceeded|timeout|timed out/i.test(error)) return 'it does not answer in time';
  return 'the call fails';
}

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
    const since = w.backing.namespaceDeleting;
    const going = since ? `; its namespace is being deleted (deletionTimestamp ${since})` : '';
    evidence.push({ object: `service/${svc}`, field: 'backing', value: `${state}${going}` });
  } else
    evidence.push({
      object: `service/${svc}`,
      field: 'backing',
      value: 'not read: whether it is up is unknown',
    });
  return evidence;
}

/**
 * Restore the service; deleting the configuration is the fix only when this run read that the service is gone or
 * has no ready endpoint. Otherwise (its pods may be up, or nothing could be read) it is a marked last resort.
 */
function hookRemedy(hooks: WebhookState[]): Remedy {
  // Only the broken webhooks: a configuration's webhooks served elsewhere stay.
  const deletes = removeWebhooksCommands(hooks);
  const look = [
    ...new Set(
      hooks.flatMap((w) => (w.service ? [endpointSlicesCommand(w.service.namespace, w.service.name)] : [])),
    ),
  ];
  const policy = FORCE_FINALIZE_NAMESPACE_POLICY;
  if (hooks.length > 0 && hooks.every(isDown)) {
    const going = hooks.map((w) => namespaceGoing(w.backing, w.service?.namespace)).find(Boolean);
    if (going)
      return {
        commands: [...look, ...deletes],
        policy,
        note: `Its service is down and ${going}: delete the webhook (its provider is being uninstalled); while it fails it refuses DELETE cluster-wide. ${FORCE_NOTE}`,
      };
    return {
      commands: [...look, ...deletes],
      policy,
      note: `Its service is down (read in this run). Restore it, or delete the configuration (or set failurePolicy: Ignore) and reinstall it later: while it fails it refuses DELETE cluster-wide. ${FORCE_NOTE}`,
    };
  }
  const configs = [
    ...new Set(
      hooks.map((w) => shellCommand('kubectl', 'get', w.kind.toLowerCase(), w.configuration, '-o', 'yaml')),
    ),
  ];
  return {
    commands: [...look, ...configs],
    lastResort: {
      commands: deletes,
      risk: 'this run did not see its service down: deleting the configuration switches off everything the webhook enforces, for every request in the cluster, until it is reinstalled',
    },
    policy,
    note: `Fix the call (its service, endpoints, caBundle or timeout) rather than the webhook. ${FORCE_NOTE}`,
  };
}

function webhookFinding(s: Snapshot, error: string, names: string[]): Finding {
  const hooks = s.webhooks.filter((w) => names.includes(w.name));
  const described = names.map((n) => {
    const w = hooks.find((h) => h.name === n);
    if (!w) return `webhook ${n}`;
    const going = namespaceGoing(w.backing, w.service?.namespace);
    const state = isDown(w)
      ? ` whose service ${w.service?.namespace}/${w.service?.name} is down${going ? `: ${going}` : ''}`
      : w.backing
        ? `: ${callFailure(error)}, although its service has ${w.backing.readyEndpoints} ready endpoint address(es)`
        : `: ${callFailure(error)}`;
    return `${w.kind} ${w.configuration} webhook ${n} (failurePolicy ${w.failurePolicy})${state}`;
  });
  const first = hooks[0];
  return {
    id: ID,
    severity: 'error',
    // The API server could not get an answer: the backend is down (or unreachable), whatever its pods say.
    verdict: 'backend-down',
    basis: [
      error,
      ...(first ? [hookEvidence(first).find((e) => e.field === 'backing')?.value ?? ''] : []),
    ].slice(0, 2),
    cause: `webhook-call-failed:${[...names].sort().join(',')}`,
    summary: `the namespace controller's deletes are refused by ${described.join(', ')}`,
    evidence: [conditionEvidence(s, error), ...hooks.flatMap(hookEvidence)],
    owner: hooks[0]?.service && {
      controller: `service ${hooks[0].service.namespace}/${hooks[0].service.name}`,
      present: hooks[0].backing ? !isDown(hooks[0]) : 'unknown',
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
    cause: `rbac-denied:${user}|${verb}|${what}`,
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
    cause: `content-failure:${error.split(s.namespace.name).join('\u0001')}`,
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
    cause: `webhook-suspect:${w.configuration}/${w.name}`,
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
