import { compareText } from '../shared/compare.js';
import { PATHS, READ_AREA } from './paths.js';
import {
  readyAddresses,
  toApiService,
  toBinding,
  toCrd,
  toLease,
  toNode,
  toPod,
  toRole,
  toWebhooks,
  toWorkload,
} from './raw.js';
import type { Reads } from './reads.js';
import type {
  ApiServiceState,
  CrdState,
  LeaseState,
  NodeState,
  PodState,
  Snapshot,
  WebhookState,
  WorkloadState,
} from './types.js';

/** The small cluster reads the rules need beyond the namespace scan; each one is read-only and may fail alone. */

type Backing = { serviceExists: boolean; readyEndpoints: number };

/** Whether a Service exists and how many ready addresses its EndpointSlices have; undefined if unreadable. */
export async function readBacking(
  reads: Reads,
  what: string,
  ns: string,
  name: string,
): Promise<Backing | undefined> {
  const service = await reads.call(what, async (r) => ({ body: await r.getRaw(PATHS.service(ns, name)) }));
  if (!service) return undefined;
  if (service.body === undefined) return { serviceExists: false, readyEndpoints: 0 };
  const slices = await reads.call(what, (r) => r.listRaw(PATHS.endpointSlices(ns, name)));
  return slices && { serviceExists: true, readyEndpoints: readyAddresses(slices.items) };
}

/** All APIServices; the backing Service and endpoints only for those not Available. */
export async function readApiServices(reads: Reads): Promise<ApiServiceState[]> {
  const raw = await reads.listRaw(READ_AREA.apiServices, PATHS.apiServices);
  const all = (raw ?? []).map(toApiService).sort((a, b) => compareText(a.name, b.name));
  return reads.map(all, async (a) => {
    if (a.available?.status === 'True' || !a.service) return a;
    const what = `${READ_AREA.apiServices} ${a.name} backing service`;
    const backing = await readBacking(reads, what, a.service.namespace, a.service.name);
    return backing ? { ...a, backing } : a;
  });
}

/** Webhooks intercepting DELETE; backing looked up for failurePolicy Fail ones served in-cluster. */
export async function readWebhooks(reads: Reads): Promise<WebhookState[]> {
  const kinds = Object.keys(PATHS.webhookConfigs) as WebhookState['kind'][];
  const lists = await reads.map(kinds, async (kind) => {
    const raw = await reads.listRaw(`${READ_AREA.webhooks} ${kind}`, PATHS.webhookConfigs[kind]);
    return (raw ?? []).flatMap((o) => toWebhooks(o, kind));
  });
  const hooks = lists.flat();
  const backings = new Map<string, Promise<Backing | undefined>>();
  return reads.map(hooks, async (w) => {
    if (w.failurePolicy !== 'Fail' || !w.service) return w;
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

/** The CRDs with the given names (`plural.group`); a missing CRD is simply absent from the result. */
export async function readCrds(reads: Reads, names: readonly string[]): Promise<CrdState[]> {
  const crds = await reads.map([...names].sort(), async (name) => {
    const body = await reads.call(`${READ_AREA.crds} ${name}`, (r) => r.getRaw(PATHS.crd(name)));
    return body === undefined ? undefined : toCrd(body);
  });
  return crds.flatMap((c) => (c ? [c] : []));
}

/** Deployments, StatefulSets and DaemonSets in all namespaces; a kind the server does not serve lists nothing. */
export async function readWorkloads(reads: Reads): Promise<WorkloadState[]> {
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
  const list = async (what: string, path: string): Promise<unknown[]> =>
    (await reads.listRaw(`${READ_AREA.rbac} ${what}`, path)) ?? [];
  const [clusterRoles, clusterBindings, roleBindings] = await Promise.all([
    list('ClusterRole', PATHS.clusterRoles),
    list('ClusterRoleBinding', PATHS.clusterRoleBindings),
    list('RoleBinding', PATHS.roleBindings(namespace)),
  ]);
  const bindings = [
    ...clusterBindings.map((o) => toBinding(o, 'ClusterRoleBinding')),
    ...roleBindings.map((o) => toBinding(o, 'RoleBinding')),
  ];
  const named = [...new Set(bindings.filter((b) => b.role.kind === 'Role').map((b) => b.role.name))].sort();
  const roles = await reads.map(named, async (name) => {
    const body = await reads.call(`${READ_AREA.rbac} Role ${name}`, (r) =>
      r.getRaw(PATHS.role(namespace, name)),
    );
    return body === undefined ? [] : [toRole(body, 'Role')];
  });
  return { roles: [...clusterRoles.map((o) => toRole(o, 'ClusterRole')), ...roles.flat()], bindings };
}

/** Leader-election Leases in all namespaces; a server without coordination.k8s.io lists nothing. */
export async function readLeases(reads: Reads): Promise<LeaseState[]> {
  return ((await reads.listRaw(READ_AREA.leases, PATHS.leases, true)) ?? []).map(toLease);
}
