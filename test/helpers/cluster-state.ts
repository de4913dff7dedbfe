/** What a run changed in the fake cluster: its writes, and everything stored outside the target. */
import type { RunReport, TargetReport } from '../../src/model/run.js';
import type { FakeCluster, RequestRecord } from '../fake-apiserver/index.js';
import { runEngine } from './harness.js';

/** A stored object as the fake's snapshot returns it. */
export type KObj = { metadata: { namespace?: string; name: string; uid: string } };

/** Requests that change something, other than the DELETE of the target namespace itself. */
export function writes(cluster: FakeCluster, target: string): RequestRecord[] {
  return cluster.requests.filter(
    (r) => r.method !== 'GET' && !(r.method === 'DELETE' && r.path === `/api/v1/namespaces/${target}`),
  );
}

/**
 * Whether the server takes this request as a dry run, as kube-apiserver reads it: a DELETE with a body by its
 * DeleteOptions body alone (the query is then ignored), any other request by its query.
 */
export function dryRunAsServerReadsIt(r: RequestRecord): boolean {
  const query = new URLSearchParams(r.query).getAll('dryRun').includes('All');
  if (r.method !== 'DELETE' || r.body === undefined) return query;
  const body = r.body as { dryRun?: unknown };
  return Array.isArray(body.dryRun) && body.dryRun.includes('All');
}

/** `METHOD path status` of each write, for exact assertions. */
export function writeLines(cluster: FakeCluster, target: string): string[] {
  return writes(cluster, target).map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** The control plane's own leader-election Lease, renewed every 2 s by kube-controller-manager, never by a run. */
const controlPlaneLease = (type: string, o: KObj): boolean =>
  type.startsWith('leases.') &&
  o.metadata.namespace === 'kube-system' &&
  o.metadata.name === 'kube-controller-manager';

/** Everything stored, minus the target namespace and its content (and what the control plane itself renews). */
export function outside(cluster: FakeCluster, target: string): Record<string, KObj[]> {
  const snap = cluster.snapshot() as Record<string, KObj[]>;
  const out: Record<string, KObj[]> = {};
  for (const [type, items] of Object.entries(snap)) {
    const kept = items.filter(
      (o) =>
        o.metadata.namespace !== target &&
        !(type === 'namespaces' && o.metadata.name === target) &&
        !controlPlaneLease(type, o),
    );
    if (kept.length) out[type] = kept;
  }
  return out;
}

/** Everything stored but what the control plane itself renews: what a run could have changed. */
export const stored = (cluster: FakeCluster): Record<string, KObj[]> => outside(cluster, '');

/** The report of one target. */
export const targetOf = (report: RunReport, name: string): TargetReport =>
  report.targets.find((t) => t.name === name)!;

/**
 * Start the scenario's cluster and run the engine on its namespace with force on after 1 s and a 3 s timeout
 * (both overridable); `before` is everything outside the target, for "nothing else changed".
 */
export async function forceRun(
  s: { cluster: FakeCluster; namespace: string },
  inputs: Record<string, string>,
): Promise<{ report: RunReport; before: Record<string, KObj[]> }> {
  const { kubeconfig } = await s.cluster.start();
  const before = outside(s.cluster, s.namespace);
  const { report } = await runEngine(kubeconfig, {
    namespaces: s.namespace,
    timeout: '3s',
    force: 'on',
    'force-after': '1s',
    ...inputs,
  });
  return { report, before };
}
