/** Rule: a CRD's conversion webhook fails, so objects of that type can be neither read nor deleted. Pure. */
import { count } from '../holders.js';
import { FORCE_FINALIZE_NAMESPACE_POLICY, endpointSlicesCommand } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { ConversionState, Snapshot } from '../types.js';
import type { Evidence, Finding } from '../../model/findings.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'conversion-failed';

/**
 * A custom resource type whose objects cannot be read or deleted because its CRD's conversion webhook fails (an
 * operator uninstalled, its CRDs left): the CRD, the stored and requested versions, the webhook's Service, and the
 * ways out with their risks.
 */
export function conversionFailed(s: Snapshot): Finding[] {
  return s.conversions.map((c) => finding(s, c));
}

const down = (c: ConversionState): boolean =>
  c.backing !== undefined && (!c.backing.serviceExists || c.backing.readyEndpoints === 0);

function serviceWords(c: ConversionState): string {
  const svc = c.definition?.service;
  if (!svc)
    return c.definition?.url ? `its conversion webhook at ${c.definition.url}` : 'its conversion webhook';
  const name = `service ${svc.namespace}/${svc.name}`;
  if (!c.backing) return `its conversion webhook (${name}, not read)`;
  if (!c.backing.serviceExists) return `its conversion webhook's ${name} does not exist`;
  return `its conversion webhook's ${name} has ${c.backing.readyEndpoints} ready endpoint address(es)`;
}

/** Whether objects at the stored version can still be deleted without conversion (it is the storage version). */
const writableAtStored = (c: ConversionState): boolean =>
  c.definition?.storageVersion === c.storedAt && c.definition.served.includes(c.storedAt);

function countWords(s: Snapshot, c: ConversionState): string {
  if (c.listed !== undefined)
    return `${count(c.listed)} object(s) found by listing at ${c.storedAt}, which needs no conversion`;
  const served = c.definition ? c.definition.served.includes(c.storedAt) : undefined;
  const why = served === false ? `${c.storedAt} is not served` : `listing at ${c.storedAt} failed too`;
  return `how many objects remain is unknown (${why}; the namespace controller could not count them either)`;
}

function finding(s: Snapshot, c: ConversionState): Finding {
  const requested = c.requested ? ` to ${c.requested}` : '';
  const type = `${c.resource}.${c.group}`;
  return {
    id: ID,
    severity: 'error',
    verdict: 'backend-down',
    basis: [
      c.error,
      ...(c.backing
        ? [
            c.backing.serviceExists
              ? `its service has ${c.backing.readyEndpoints} ready endpoint address(es)`
              : 'its service does not exist',
          ]
        : []),
    ].slice(0, 2),
    cause: `conversion:${c.crd}`,
    summary: `${type} cannot be listed or deleted: objects stored at ${c.storedAt} must be converted${requested} and ${serviceWords(c)}; ${countWords(s, c)}`,
    ...(c.listed !== undefined ? { objects: c.listed } : {}),
    evidence: evidence(s, c),
    owner: c.definition?.service && {
      controller: `conversion webhook service ${c.definition.service.namespace}/${c.definition.service.name}`,
      present: c.backing ? !down(c) : 'unknown',
    },
    remedy: remedy(s, c),
    leaked: false,
    targets: [
      {
        kind: 'namespace-finalize',
        reason: `${type} cannot be deleted: its conversion webhook fails`,
        leaves: [`${type}: ${countWords(s, c)}`],
      },
    ],
  };
}

function evidence(s: Snapshot, c: ConversionState): Evidence[] {
  const ref = `customresourcedefinition/${c.crd}`;
  const out: Evidence[] = [{ object: `${c.resource}.${c.group}`, field: 'read error', value: c.error }];
  const d = c.definition;
  if (!d) out.push({ object: ref, field: 'read', value: 'could not be read' });
  else {
    out.push({ object: ref, field: 'spec.conversion.strategy', value: d.strategy ?? '(None)' });
    const svc = d.service
      ? `${d.service.namespace}/${d.service.name}${d.service.path ?? ''}`
      : (d.url ?? '(none)');
    out.push({ object: ref, field: 'spec.conversion.webhook.clientConfig', value: svc });
    out.push({ object: ref, field: 'storage version', value: d.storageVersion ?? '(none)' });
    out.push({ object: ref, field: 'served versions', value: d.served.join(', ') });
    out.push({ object: ref, field: 'status.storedVersions', value: d.storedVersions.join(', ') });
  }
  if (c.backing && d?.service) {
    const state = c.backing.serviceExists
      ? `${c.backing.readyEndpoints} ready endpoint address(es)`
      : 'does not exist';
    out.push({ object: `service/${d.service.namespace}/${d.service.name}`, field: 'backing', value: state });
  }
  out.push({
    object: `namespace/${s.namespace.name}`,
    field: `${c.resource}.${c.group} at ${c.storedAt}`,
    value: countWords(s, c),
  });
  return out;
}

function remedy(s: Snapshot, c: ConversionState): Finding['remedy'] {
  const svc = c.definition?.service;
  const look = [
    ...(svc
      ? [
          shellCommand('kubectl', 'get', 'service', svc.name, '-n', svc.namespace),
          endpointSlicesCommand(svc.namespace, svc.name),
        ]
      : []),
    shellCommand(
      'kubectl',
      'get',
      'crd',
      c.crd,
      '-o',
      'jsonpath={.spec.conversion}{"\\n"}{.status.storedVersions}{"\\n"}',
    ),
  ];
  // Deleting at the version the objects are stored at touches only this namespace and needs no conversion.
  const here = writableAtStored(c)
    ? [
        shellCommand(
          'kubectl',
          'delete',
          `${c.resource}.${c.storedAt}.${c.group}`,
          '--all',
          '-n',
          s.namespace.name,
          '--wait=false',
        ),
      ]
    : [];
  const none = shellCommand(
    'kubectl',
    'patch',
    'crd',
    c.crd,
    '--type=merge',
    '-p',
    '{"spec":{"conversion":{"strategy":"None"}}}',
  );
  const offerNone = down(c);
  const ways = writableAtStored(c)
    ? `The objects can still be deleted at ${c.storedAt}, their storage version: that touches only this namespace (the command above). `
    : `Every write of these objects needs the webhook (storage version ${c.definition?.storageVersion ?? 'unknown'}). `;
  return {
    commands: [...here, ...look],
    ...(offerNone && !writableAtStored(c)
      ? {
          lastResort: {
            commands: [none],
            risk: `cluster-wide: every namespace's ${c.resource}.${c.group} objects are then served at every version without conversion (fields that differ between versions are not translated); only if the operator that served the webhook is gone for good`,
          },
        }
      : {}),
    policy: FORCE_FINALIZE_NAMESPACE_POLICY,
    note: `Restore the webhook's service (reinstall the operator that provided it) and the namespace finishes by itself. ${ways}Forcing /finalize removes the namespace but leaves these objects in storage, where they reappear if the namespace is created again.`,
  };
}
