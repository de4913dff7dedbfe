/**
 * What outlives the namespaces a run deleted or forced: a `failurePolicy: Fail` webhook or an APIService whose backend
 * was in a namespace now gone, or that a forced namespace was stuck on, still broken when read after the run. It keeps
 * refusing (or failing discovery) everywhere: never "resolved"; the command that clears it, since its backend is
 * read gone. Pure.
 */
import { namespaceGoing } from '../backing.js';
import { otherWebhooks, removeWebhooksCommands } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { Finding } from '../../model/findings.js';
import type { ApiServiceState, PolicyBindingState, WebhookState } from '../types.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'still-broken';

/** The backend of a webhook or APIService, in words, when this run read it down; undefined when it is up or unread. */
function downBackend(backing: WebhookState['backing'], svc: string): string | undefined {
  if (!backing) return undefined;
  const going = namespaceGoing(backing, svc.split('/')[0]);
  if (!backing.serviceExists) return `its service ${svc} does not exist${going ? `; ${going}` : ''}`;
  if (backing.readyEndpoints > 0) return undefined;
  return `its service ${svc} has no ready endpoint${going ? `; ${going}` : ''}`;
}

/** Why a cause is this target's: its backend lived in the namespace, or the namespace was forced past it. */
function because(namespace: string, forced: boolean, svcNs: string | undefined): string {
  if (svcNs === namespace) return `its backend lived in namespace ${namespace}, which this run deleted`;
  return forced
    ? `namespace ${namespace} was forced past it`
    : `seen while namespace ${namespace} was deleted`;
}

/** What removing `w` leaves running: nothing, or the configuration's webhooks served elsewhere. */
function keeps(w: WebhookState): string {
  const others = otherWebhooks(w, [w]);
  return others.length === 0
    ? 'Deleting its configuration switches off nothing that still runs: every webhook in it is served there'
    : `Only this webhook is removed: ${others.join(', ')} ${others.length === 1 ? 'stays' : 'stay'}, served elsewhere`;
}

/** A webhook, read after the run, that still refuses with its backend down. */
export function brokenWebhook(w: WebhookState, namespace: string, forced: boolean): Finding | undefined {
  const svc = w.service ? `${w.service.namespace}/${w.service.name}` : (w.url ?? '');
  const down = w.failurePolicy === 'Fail' ? downBackend(w.backing, svc) : undefined;
  if (!down) return undefined;
  const what = `${w.kind} ${w.configuration} (webhook ${w.name}, failurePolicy Fail)`;
  return {
    id: ID,
    severity: 'error',
    verdict: 'backend-down',
    cause: `still-broken:webhook:${w.configuration}/${w.name}`,
    summary: `still broken after the run: ${what} refuses every DELETE of ${w.deleteResources.join(', ')} in the cluster — ${down}; ${because(namespace, forced, w.service?.namespace)}`,
    causeSummary: `still broken after the run: ${what} refuses every DELETE of ${w.deleteResources.join(', ')} in the cluster — ${down}`,
    basis: [`${w.kind} ${w.configuration}: failurePolicy Fail, clientConfig ${svc}`, down],
    evidence: [
      {
        object: `${w.kind.toLowerCase()}/${w.configuration}`,
        field: `webhooks[${w.name}].failurePolicy`,
        value: 'Fail',
      },
      { object: `service/${svc}`, field: 'backing (read after the run)', value: down },
    ],
    owner: { controller: `service ${svc}`, present: false, detail: down },
    remedy: {
      commands: removeWebhooksCommands([w]),
      note: `Read after the run: its backend is gone, so it refuses every request it matches, in every namespace, until it is deleted or its backend is back. ${keeps(w)}; reinstall it with its backend where it lives on, if it is still wanted.`,
    },
    leaked: true,
  };
}

/** An APIService, read after the run, that is not Available with its backend gone: discovery fails cluster-wide. */
export function brokenApiService(
  a: ApiServiceState,
  namespace: string,
  forced: boolean,
): Finding | undefined {
  if (!a.service || a.available?.status === 'True') return undefined;
  const svc = `${a.service.namespace}/${a.service.name}`;
  const down = downBackend(a.backing, svc);
  if (!down) return undefined;
  const reason = a.available?.reason ?? 'not Available';
  return {
    id: ID,
    severity: 'error',
    verdict: 'backend-down',
    cause: `still-broken:apiservice:${a.name}`,
    summary: `still broken after the run: APIService ${a.name} is unavailable (${reason}) — ${down}; discovery of ${a.group}/${a.version} fails, which blocks every namespace deletion in the cluster; ${because(namespace, forced, a.service.namespace)}`,
    causeSummary: `still broken after the run: APIService ${a.name} is unavailable (${reason}) — ${down}`,
    basis: [`apiservice/${a.name} Available: ${a.available?.status ?? '(none)'} ${reason}`, down],
    evidence: [
      {
        object: `apiservice/${a.name}`,
        field: 'status.conditions[Available]',
        value: `${a.available?.status ?? ''} ${reason}`,
      },
      { object: `service/${svc}`, field: 'backing (read after the run)', value: down },
    ],
    owner: { controller: `service ${svc}`, present: false, detail: down },
    remedy: {
      commands: [shellCommand('kubectl', 'delete', 'apiservice', a.name)],
      note: 'Read after the run: its backend is gone, so every later namespace deletion in the cluster hangs on discovery until the APIService is deleted or its provider is back.',
    },
    leaked: true,
  };
}

/**
 * A ValidatingAdmissionPolicyBinding whose parameter lived in a namespace this run deleted: with
 * parameterNotFoundAction Deny (the default), its policy cannot evaluate anywhere the binding matches.
 */
export function brokenBinding(b: PolicyBindingState, namespace: string): Finding | undefined {
  const ref = b.paramRef;
  if (!ref?.namespace || ref.namespace !== namespace || (ref.parameterNotFoundAction ?? 'Deny') !== 'Deny')
    return undefined;
  const param = `${b.paramKind ?? 'parameter'} ${ref.name ?? `selected by ${ref.selector ?? '?'}`} in ${namespace}`;
  return {
    id: ID,
    severity: 'error',
    verdict: 'cannot-evaluate',
    cause: `still-broken:binding:${b.binding}`,
    summary: `still broken after the run: ValidatingAdmissionPolicy ${b.policy} (binding ${b.binding}) cannot evaluate — its parameter ${param} went with the namespace — so it refuses every request it matches, in every namespace`,
    causeSummary: `still broken after the run: ValidatingAdmissionPolicy ${b.policy} (binding ${b.binding}) cannot evaluate: its parameter went with a deleted namespace`,
    basis: [
      `binding ${b.binding} spec.paramRef: ${param}, parameterNotFoundAction Deny`,
      `namespace ${namespace} was deleted by this run`,
    ],
    evidence: [
      { object: `validatingadmissionpolicybinding/${b.binding}`, field: 'spec.paramRef', value: param },
    ],
    owner: {
      controller: `ValidatingAdmissionPolicy ${b.policy}`,
      present: true,
      detail: 'it answers, but cannot decide',
    },
    remedy: {
      commands: [shellCommand('kubectl', 'get', 'validatingadmissionpolicybinding', b.binding, '-o', 'yaml')],
      note: 'Give the binding a parameter that exists (another namespace, or recreate it), or have the policy’s owner scope or remove the binding. Deleting the policy switches off what it enforces everywhere.',
    },
    leaked: true,
  };
}
