/** kube-aggregator emulation: APIService autoregistration and the Available condition. */
import { clusterIpFor } from './admission.js';
import type { Core } from './core.js';
import { asRecord, clone, isoSeconds, newUid, normalize, stableJson } from './meta.js';
import { APISERVICE_GR, BUILTIN_GROUPS, CRD_GR } from './registry.js';
import type { JsonMap, KObj } from './types.js';

const AUTOMANAGED = 'kube-aggregator.kubernetes.io/automanaged';

interface Availability {
  status: 'True' | 'False' | 'Unknown';
  reason: string;
  message: string;
}

/** A Local or service-backed APIService object. */
export function apiServiceObject(
  group: string,
  version: string,
  service?: { namespace: string; name: string; port?: number },
  automanaged?: 'onstart' | 'true',
  versionPriority = 100,
): KObj {
  const spec: JsonMap = { group, version, groupPriorityMinimum: service ? 100 : 1000, versionPriority };
  if (service) {
    spec.service = { namespace: service.namespace, name: service.name, port: service.port ?? 443 };
    spec.insecureSkipTLSVerify = true;
  }
  return normalize({
    kind: 'APIService',
    apiVersion: 'apiregistration.k8s.io/v1',
    metadata: {
      name: `${version}.${group}`,
      uid: newUid(),
      resourceVersion: '',
      creationTimestamp: isoSeconds(),
      labels: automanaged ? { [AUTOMANAGED]: automanaged } : undefined,
    },
    spec,
    status: {},
  });
}

/** The remote_available_controller's verdict for one APIService. */
function availability(core: Core, svc: KObj): Availability {
  const spec = asRecord(svc.spec);
  const ref = asRecord(spec.service);
  if (!ref.name)
    return { status: 'True', reason: 'Local', message: 'Local APIServices are always available' };
  const backend = core.apiServiceBackends.get(svc.metadata.name);
  if (typeof backend === 'object') return { status: 'False', ...backend };
  if (backend === true) return { status: 'True', reason: 'Passed', message: 'all checks passed' };
  const ns = String(ref.namespace ?? '');
  const name = String(ref.name);
  const where = `service/${name} in "${ns}"`;
  const service = core.store.get('services', ns, name);
  if (!service) return { status: 'False', reason: 'ServiceNotFound', message: `${where} is not present` };
  const ports = Array.isArray(asRecord(service.spec).ports)
    ? (asRecord(service.spec).ports as JsonMap[])
    : [];
  const wantPort = Number(ref.port ?? 443);
  const port = ports.find((p) => Number(p.port) === wantPort);
  if (!port)
    return {
      status: 'False',
      reason: 'ServicePortError',
      message: `${where} is not listening on port ${wantPort}`,
    };
  const word = core.version === '1.34' ? 'endpointslices' : 'endpoints';
  const slices = core.store
    .list('endpointslices.discovery.k8s.io', ns)
    .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name);
  if (slices.length === 0) {
    return { status: 'False', reason: 'EndpointsNotFound', message: `cannot find ${word} for ${where}` };
  }
  const ready = slices.flatMap((s) => (Array.isArray(s.endpoints) ? s.endpoints.map(asRecord) : []));
  if (!ready.some((e) => asRecord(e.conditions).ready !== false)) {
    const portName = String(port.name ?? '');
    return {
      status: 'False',
      reason: 'MissingEndpoints',
      message: `${word} for ${where} have no addresses with port name "${portName}"`,
    };
  }
  if (backend === false) {
    const ip = clusterIpFor(ns, name);
    const url = `https://${ip}:${wantPort}/apis/${String(spec.group)}/${String(spec.version)}`;
    return {
      status: 'False',
      reason: 'FailedDiscoveryCheck',
      message: `failing or missing response from ${url}: Get "${url}": dial tcp ${ip}:${wantPort}: connect: connection refused`,
    };
  }
  return { status: 'True', reason: 'Passed', message: 'all checks passed' };
}

/** Kube-aware version order, highest first: v2 > v1 > v1beta2 > v1beta1 > v1alpha1 > anything else. */
export function compareKubeVersions(a: string, b: string): number {
  const rank = (v: string): [number, number, number] => {
    const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
    if (!m) return [-1, 0, 0];
    const stage = m[2] === undefined ? 3 : m[2] === 'beta' ? 2 : 1;
    return [Number(m[1]), stage, Number(m[3] ?? 0)];
  };
  const [x, y] = [rank(a), rank(b)];
  return y[1] - x[1] || y[0] - x[0] || y[2] - x[2] || a.localeCompare(b);
}

/** Create Local APIServices for built-in groups and CRD group-versions; drop stale automanaged ones. */
function autoregister(core: Core): void {
  const want = new Map<string, [string, string, 'onstart' | 'true', number]>();
  for (const g of BUILTIN_GROUPS) if (g) want.set(`v1.${g}`, [g, 'v1', 'onstart', 100]);
  for (const crd of core.store.list(CRD_GR)) {
    const spec = asRecord(crd.spec);
    const versions = Array.isArray(spec.versions) ? spec.versions.map(asRecord) : [];
    // apiextensions gives the kube-aware highest version (v1 over v1beta1) the highest priority: it is preferred.
    const names = versions
      .filter((v) => v.served !== false)
      .map((v) => String(v.name))
      .sort(compareKubeVersions);
    names.forEach((version, i) =>
      want.set(`${version}.${String(spec.group)}`, [String(spec.group), version, 'true', 1000 - i]),
    );
  }
  for (const [name, [group, version, mode, priority]] of want) {
    if (!core.store.has(APISERVICE_GR, '', name)) {
      core.store.create(APISERVICE_GR, apiServiceObject(group, version, undefined, mode, priority));
    }
  }
  for (const s of core.store.list(APISERVICE_GR)) {
    if (s.metadata.labels?.[AUTOMANAGED] === 'true' && !want.has(s.metadata.name)) {
      core.store.remove(APISERVICE_GR, '', s.metadata.name);
    }
  }
}

/** Bring every APIService's Available condition up to date (lastTransitionTime only on a flip). */
export function reconcileApiServices(core: Core): void {
  autoregister(core);
  for (const svc of core.store.list(APISERVICE_GR)) {
    const a = availability(core, svc);
    const status = asRecord(svc.status);
    const conds = Array.isArray(status.conditions) ? (status.conditions as JsonMap[]) : [];
    const old = conds.find((c) => c.type === 'Available');
    const cond: JsonMap = {
      type: 'Available',
      status: a.status,
      lastTransitionTime: old && old.status === a.status ? old.lastTransitionTime : isoSeconds(),
      reason: a.reason,
      message: a.message,
    };
    if (old && stableJson(old) === stableJson(cond)) continue;
    const next = clone(svc);
    next.status = { ...status, conditions: [...conds.filter((c) => c.type !== 'Available'), cond] };
    core.store.update(APISERVICE_GR, next);
  }
}
