/** The cloud load balancer behind each Service the load-balancer finalizer holds: what forcing it would leak. */
import type { Leftover } from '../../model/findings.js';
import { PATHS } from './read-paths.js';
import type { Reads } from './reader.js';

const LB_CLEANUP = 'service.kubernetes.io/load-balancer-cleanup';
/** At most this many Services are read, and this many addresses kept for each. */
const MAX_SERVICES = 20;
const MAX_ADDRESSES = 5;
/** An IP or a DNS name as status.loadBalancer.ingress gives it; anything else from the cluster is dropped. */
const ADDRESS = /^[A-Za-z0-9.:-]{1,253}$/;

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The addresses in a Service's status.loadBalancer.ingress (ip, else hostname), untrusted and bounded. */
export function loadBalancerOf(service: unknown): string[] {
  const ingress = record(record(record(service).status).loadBalancer).ingress;
  if (!Array.isArray(ingress)) return [];
  return ingress
    .map((i) => record(i).ip ?? record(i).hostname)
    .filter((a): a is string => typeof a === 'string' && ADDRESS.test(a))
    .slice(0, MAX_ADDRESSES);
}

/** By Service name: the load balancer of each leftover Service held by the load-balancer finalizer (one GET each). */
export async function readLoadBalancers(
  reads: Reads,
  namespace: string,
  leftovers: readonly Leftover[],
): Promise<Record<string, string[]>> {
  const held = leftovers
    .filter((l) => l.resource.group === '' && l.resource.resource === 'services')
    .filter((l) => l.meta.finalizers.includes(LB_CLEANUP))
    .slice(0, MAX_SERVICES);
  const found = await Promise.all(
    held.map(async (l) => {
      const what = `services ${l.meta.name} status.loadBalancer`;
      const body = await reads.call(what, (r) => r.getRaw(PATHS.service(namespace, l.meta.name)));
      return [l.meta.name, loadBalancerOf(body)] as const;
    }),
  );
  return Object.fromEntries(found.filter(([, a]) => a.length > 0));
}
