/** The small cluster reads the rules need beyond the namespace scan; each one is read-only and may fail alone. */
import { compareText } from '../../shared/compare.js';
import { PATHS, READ_AREA } from './read-paths.js';
import { servedVersion } from './served.js';
import {
  readyAddresses,
  readyEndpointAddresses,
  toApiService,
  toBinding,
  crdFromMeta,
  toLease,
  toNode,
  toPod,
  toRole,
  toWebhooks,
  toWorkload,
} from './raw.js';
import type { KubeReader } from '../../kube/port.js';
import type { Reads } from './reader.js';
import type {
  ApiServiceState,
  Backing,
  BindingState,
  CrdState,
  LeaseState,
  NodeState,
  PodState,
  Snapshot,
  WebhookState,
  WorkloadState,
} from '../types.js';

/**
 * Whether a Service exists and how many ready addresses back it: its EndpointSlices at the version discovery serves
 * (v1, else v1beta1), else its legacy Endpoints where no EndpointSlice is served; undefined if unreadable. Where it is
 * down, whether its namespace is being deleted (the cause one step removed: its provider is being uninstalled).
 */
export async function readBacking(
  reads: Reads,
  what: string,
  ns: string,
  name: string,
): Promise<Backing | undefined> {
  const backing = await readService(reads, what, ns, name);
  if (!backing || (backing.serviceExists && backing.readyEndpoints > 0)) return backing;
  const namespace = await reads.call(`${what} namespace`, (r) => r.getNamespace(ns));
  const since = namespace?.deletionTimestamp;
  return since ? { ...backing, namespaceDeleting: since } : backing;
}

async function readService(
  reads: Reads,
  what: string,
  ns: string,
  name: string,
): Promise<Backing | undefined> {
  const service = await reads.call(what, async (r) => ({ body: await r.getRaw(PATHS.service(ns, name)) }));
  if (!service) return undefined;
  if (service.body === undefined) return { serviceExists: false, readyEndpoints: 0 };
  const served = await servedVersion(reads, 'discovery.k8s.io', 'endpointslices');
  if (served.error) {
    reads.errors.push({
      what,
      error: `which EndpointSlice version is served could not be read: ${served.error}`,
    });
    return undefined;
  }
  if (served.version) {
    const slices = await reads.call(what, (r) => r.listRaw(PATHS.endpointSlices(served.version!, ns, name)));
    return slices && { serviceExists: true, readyEndpoints: readyAddresses(slices.items) };
  }
  const endpoints = await reads.call(what, async (r) => ({
    body: await r.getRaw(PATHS.endpoints(ns, name)),
  }));
  return endpoints && { serviceExists: true, readyEndpoints: readyEndpointAddresses(endpoints.body) };
}

/** All APIServices; the backing Service and endpoints only for those not Available (read once per run). */
export function readApiServices(reads: Reads): Promise<ApiServiceState[]> {
  return reads.shared('apiservices', (r) => readApiServicesNow(r));
}

/** The same, now (never shared); the backing only of those not Available that `want` accepts. */
export async function readApiServicesNow(
  reads: Reads,
  want: (a: ApiServiceState) => boolean = () => true,
): Promise<ApiServiceState[]> {
  const raw = await reads.listRaw(READ_AREA.apiServices, PATHS.apiServices);
  const all = (raw ?? []).map(toApiService).sort((a, b) => compareText(a.name, b.name));
  return reads.map(all, async (a) => {
    if (a.available?.status === 'True' || !a.service || !want(a)) return a;
    const what = `${READ_AREA.apiServices} ${a.name} backing service`;
    const backing = await readBacking(reads, what, a.service.namespace, a.service.name);
    return backing ? { ...a, backing } : a;
  });
}

/** Webhooks intercepting DELETE; backing looked up for failurePolicy Fail ones served in-cluster (once per run). */
export function readWebhooks(reads: Reads): Promise<WebhookState[]> {
  return reads.shared('webhooks', (r) => readWebhooksNow(r));
}

/** The same, now (never shared); the backing only of the Fail ones `want` accepts. */
export async function readWebhooksNow(
  reads: Reads,
  want: (w: WebhookState) => boolean = () => true,
): Promise<WebhookState[]> {
  const kinds = Object.keys(PATHS.webhookConfigs) as WebhookState['kind'][];
  const lists = await reads.map(kinds, async (kind) => {
    const raw = await reads.listRaw(`${READ_AREA.webhooks} ${kind}`, PATHS.webhookConfigs[kind]);
    return (raw ?? []).flatMap((o) => toWebhooks(o, kind));
  });
  const hooks = lists.flat();
  const backings = new Map<string, Promise<Backing | undefined>>();
  return reads.map(hooks, async (w) => {
    if (w.failurePolicy !== 'Fail' || !w.service || !want(w)) return w;
    const key = `${w.service.namespace}/${w.service.name}`;
    const what = `${READ_AREA.webhooks} ${w.configuration} backing service ${key}`;
    if (!backings.has(key)) backings.set(key, readBacking(reads, what, w.service.namespace, w.service.name));
    const backing = await backings.get(key);
    return backing ? { ...w, backing } : w;
  });
}

/** Full pod bodies in the namespace. */
export async function readPods(reads: Reads, namespace: string): Promise<PodState[]> {
  const raw = await reads.listRaw(READ_AREA.pods, PATHS.pods(namespace));
  return (raw ?? []).map(toPod);
}

/** The nodes the given pods are bound to. */
export async function readNodes(reads: Reads, pods: readonly PodState[]): Promise<NodeState[]> {
  const names = [...new Set(pods.flatMap((p) => (p.nodeName ? [p.nodeName] : [])))].sort();
  const nodes = await reads.map(names, async (name) => {
    const got = await reads.call(`${READ_AREA.nodes} ${name}`, async (r) => ({
      body: await r.getRaw(PATHS.node(name)),
    }));
    return got && toNode(name, got.body);
  });
  return nodes.flatMap((n) => (n ? [n] : []));
}

/**
 * The CRDs with the given names (`plural.group`), from one metadata-only list of every CRD (once per run): enough to
 * tie a type to the Helm release that installed it and to see the type itself being deleted. A missing CRD is absent.
 */
export async function readCrds(reads: Reads, names: readonly string[]): Promise<CrdState[]> {
  if (names.length === 0) return [];
  const all = await reads.shared('crds', (r) => r.listClusterMetadata(READ_AREA.crds, PATHS.crds));
  const wanted = new Set(names);
  return (all ?? [])
    .filter((m) => wanted.has(m.name))
    .map(crdFromMeta)
    .sort((a, b) => compareText(a.name, b.name));
}

/** Deployments, StatefulSets and DaemonSets in all namespaces (once per run); a kind not served lists nothing. */
export function readWorkloads(reads: Reads): Promise<WorkloadState[]> {
  return reads.shared('workloads', readWorkloadsNow);
}

async function readWorkloadsNow(reads: Reads): Promise<WorkloadState[]> {
  const kinds = Object.keys(PATHS.workloads) as (keyof typeof PATHS.workloads)[];
  const lists = await reads.map(kinds, async (kind) => {
    const raw = await reads.listRaw(`${READ_AREA.workloads} ${kind}`, PATHS.workloads[kind], true);
    return (raw ?? []).map((o) => toWorkload(o, kind));
  });
  return lists.flat();
}

/**
 * Who may update objects in `namespace`: ClusterRoles and ClusterRoleBindings, and the RoleBindings of that namespace
 * with the Roles they name (a RoleBinding elsewhere grants nothing here).
 */
export async function readRbac(reads: Reads, namespace: string): Promise<Snapshot['rbac']> {
  const list = async (r: Reads, what: string, path: string): Promise<unknown[]> =>
    (await r.listRaw(`${READ_AREA.rbac} ${what}`, path)) ?? [];
  // The cluster-wide half is the same for every namespace: read once per run.
  const cluster = reads.shared('rbac', async (r) => {
    const [roles, bindings] = await Promise.all([
      list(r, 'ClusterRole', PATHS.clusterRoles),
      list(r, 'ClusterRoleBinding', PATHS.clusterRoleBindings),
    ]);
    return {
      roles: roles.map((o) => toRole(o, 'ClusterRole')),
      bindings: bindings.map((o) => toBinding(o, 'ClusterRoleBinding')),
    };
  });
  const [clusterWide, roleBindings] = await Promise.all([
    cluster,
    list(reads, 'RoleBinding', PATHS.roleBindings(namespace)),
  ]);
  const bindings = [...clusterWide.bindings, ...roleBindings.map((o) => toBinding(o, 'RoleBinding'))];
  const named = [...new Set(bindings.filter((b) => b.role.kind === 'Role').map((b) => b.role.name))].sort();
  const roles = await reads.map(named, async (name) => {
    const body = await reads.call(`${READ_AREA.rbac} Role ${name}`, (r) =>
      r.getRaw(PATHS.role(namespace, name)),
    );
    return body === undefined ? [] : [toRole(body, 'Role')];
  });
  return { roles: [...clusterWide.roles, ...roles.flat()], bindings };
}

/** Leader-election Leases in all namespaces (once per run); a server without coordination.k8s.io lists nothing. */
export function readLeases(reads: Reads): Promise<LeaseState[]> {
  return reads.shared('leases', async (r) =>
    ((await r.listRaw(READ_AREA.leases, PATHS.leases, true)) ?? []).map(toLease),
  );
}

/** The RoleBindings of one namespace, read once through the port; undefined when they cannot be read. */
export async function readRoleBindings(
  reader: KubeReader,
  namespace: string,
): Promise<BindingState[] | undefined> {
  try {
    const page = await reader.listRaw(PATHS.roleBindings(namespace), { limit: 500 });
    return page.items.map((o) => toBinding(o, 'RoleBinding'));
  } catch {
    return undefined;
  }
}
