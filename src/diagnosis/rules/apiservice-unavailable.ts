/** Rule: an aggregated API that is down keeps discovery, and so the whole namespace deletion, from finishing. Pure. */
import { compareText } from '../../shared/compare.js';
import { namespaceGoing } from '../backing.js';
import { READ_AREA } from '../snapshot/read-paths.js';
import { FORCE_FINALIZE_NAMESPACE_POLICY, endpointSlicesCommand } from '../remedy.js';
import { shellCommand } from '../shell.js';
import type { ApiServiceState, Snapshot } from '../types.js';
import type { Evidence, Finding, ParsedConditions } from '../../model/findings.js';
import type { RuleId } from './ids.js';

const ID: RuleId = 'apiservice-unavailable';

const BLOCKS_ALL =
  'An unavailable APIService makes discovery fail, and the namespace controller never finalizes a namespace while ' +
  'discovery fails: it blocks ALL namespace deletions cluster-wide, not just this one.';

/** APIServices that are not Available (and group-versions failing discovery): name, reason, backing service. */
export function apiServiceUnavailable(s: Snapshot, parsed: ParsedConditions): Finding[] {
  const failing = failingGroupVersions(s, parsed);
  const down = s.apiServices
    .filter((a) => a.available?.status !== 'True')
    .sort((a, b) => compareText(a.name, b.name));
  const covered = new Set(down.map((a) => `${a.group}/${a.version}`));
  const unmatched = [...failing.keys()].filter((gv) => !covered.has(gv)).sort();
  return [
    ...down.map((a) => known(s, a, failing)),
    ...unmatched.map((gv) => unknownService(s, gv, failing.get(gv) ?? '')),
  ];
}

/** Failing group-versions from the conditions and from the snapshot's own discovery, with the error text. */
function failingGroupVersions(s: Snapshot, parsed: ParsedConditions): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of s.discovery.failed) out.set(f.groupVersion, f.error);
  for (const gv of parsed.discoveryFailure?.failing ?? []) {
    if (!out.has(gv)) out.set(gv, parsed.discoveryFailure?.raw ?? '');
  }
  return out;
}

function known(s: Snapshot, a: ApiServiceState, failing: Map<string, string>): Finding {
  const gv = `${a.group}/${a.version}`;
  const reason = a.available?.reason ?? a.available?.status ?? 'no Available condition';
  const svc = a.service && `${a.service.namespace}/${a.service.name}`;
  const going = namespaceGoing(a.backing, a.service?.namespace);
  // A backend whose namespace is being deleted is being uninstalled: as gone as a missing Service.
  const gone = a.backing?.serviceExists === false || a.available?.reason === 'ServiceNotFound' || !!going;
  const del = shellCommand('kubectl', 'delete', 'apiservice', a.name);
  const inspect = [shellCommand('kubectl', 'get', 'apiservice', a.name, '-o', 'yaml')];
  if (a.service) inspect.unshift(endpointSlicesCommand(a.service.namespace, a.service.name));
  // Deleting is the fix only when this run saw its provider gone; a local APIService is kube-apiserver's own, and a
  // provider whose Service is still there may come back: deleting its APIService would drop the API group for good.
  const remedy: Finding['remedy'] = gone
    ? { commands: [del] }
    : a.service
      ? {
          commands: inspect,
          lastResort: {
            commands: [del],
            risk: `its Service ${svc ?? ''} still exists, so its provider may come back: deleting the APIService removes the ${a.group} API from the cluster (everything that uses it, e.g. autoscaling on metrics, stops) until it is reinstalled`,
          },
        }
      : { commands: inspect.slice(-1) };
  const fix = going
    ? `Its backend is being uninstalled (${going}), so delete the APIService: while it stays, no namespace, ${a.service?.namespace ?? ''} included, finishes deleting.`
    : gone
      ? 'Its backing service is gone: the provider was uninstalled, so delete the APIService.'
      : 'Fix the backing service (its pods, endpoints or port); delete the APIService only if its provider was removed.';
  const present = gone ? false : a.backing ? a.backing.readyEndpoints > 0 : 'unknown';
  return {
    id: ID,
    severity: 'error',
    verdict: gone ? 'leaked' : 'backend-down',
    basis: apiServiceEvidence(s, a, failing.get(gv))
      .slice(0, 4)
      .filter((e) => e.field !== 'spec.service')
      .slice(0, 2)
      .map((e) => `${e.object} ${e.field}: ${e.value}`),
    cause: `apiservice:${a.name}`,
    summary: `APIService ${a.name} is unavailable (${reason})${backingPhrase(a)}; discovery of ${gv} fails, which blocks every namespace deletion`,
    evidence: apiServiceEvidence(s, a, failing.get(gv)),
    owner: svc ? { controller: `service ${svc}`, present } : undefined,
    remedy: {
      ...remedy,
      policy: FORCE_FINALIZE_NAMESPACE_POLICY,
      note: `${fix} ${BLOCKS_ALL} Forcing /finalize leaves any ${a.group} objects of this namespace behind.`,
    },
    leaked: gone,
    targets: [{ kind: 'namespace-finalize', reason: `APIService ${a.name} is unavailable (${reason})` }],
  };
}

function apiServiceEvidence(s: Snapshot, a: ApiServiceState, discoveryError: string | undefined): Evidence[] {
  const ref = `apiservice/${a.name}`;
  const svc = a.service && `${a.service.namespace}/${a.service.name}`;
  const cond = a.available;
  const evidence: Evidence[] = [
    {
      object: ref,
      field: 'status.conditions[Available]',
      value: cond ? `${cond.status} ${cond.reason ?? ''}: ${cond.message ?? ''}` : '(none)',
    },
    { object: ref, field: 'spec.service', value: svc ?? '(local)' },
  ];
  if (svc && a.backing) {
    evidence.push({ object: `service/${svc}`, field: 'exists', value: String(a.backing.serviceExists) });
    const ready = String(a.backing.readyEndpoints);
    evidence.push({ object: `service/${svc}`, field: 'ready endpoint addresses', value: ready });
    if (a.backing.namespaceDeleting)
      evidence.push({
        object: `namespace/${a.service!.namespace}`,
        field: 'metadata.deletionTimestamp',
        value: a.backing.namespaceDeleting,
      });
  }
  if (discoveryError !== undefined) {
    const gv = `${a.group}/${a.version}`;
    evidence.push({
      object: `namespace/${s.namespace.name}`,
      field: `discovery of ${gv}`,
      value: discoveryError,
    });
  }
  return evidence;
}

function backingPhrase(a: ApiServiceState): string {
  if (!a.service || !a.backing) return '';
  const svc = `${a.service.namespace}/${a.service.name}`;
  // The cause first: a table cell is cut after a few words.
  const going = namespaceGoing(a.backing, a.service.namespace);
  if (going) return `: ${going} (service ${svc})`;
  if (!a.backing.serviceExists) return `: its service ${svc} does not exist`;
  return `: its service ${svc} has ${a.backing.readyEndpoints} ready endpoint address(es)`;
}

function unknownService(s: Snapshot, gv: string, error: string): Finding {
  const slash = gv.indexOf('/');
  const name = slash < 0 ? gv : `${gv.slice(slash + 1)}.${gv.slice(0, slash)}`;
  const unread = s.readErrors.find((e) => e.what.startsWith(READ_AREA.apiServices));
  return {
    id: ID,
    severity: 'error',
    cause: `discovery-failed:${gv}`,
    summary: `discovery of ${gv} fails, which blocks every namespace deletion; APIService ${name} ${unread ? 'could not be read' : 'was not found'}`,
    evidence: [
      { object: `namespace/${s.namespace.name}`, field: `discovery of ${gv}`, value: error },
      ...(unread ? [{ object: `apiservice/${name}`, field: 'read error', value: unread.error }] : []),
    ],
    confidence: 0.6,
    remedy: {
      commands: [shellCommand('kubectl', 'get', 'apiservice', name, '-o', 'yaml')],
      policy: FORCE_FINALIZE_NAMESPACE_POLICY,
      note: BLOCKS_ALL,
    },
    leaked: false,
    targets: [{ kind: 'namespace-finalize', reason: `discovery of ${gv} fails` }],
  };
}
