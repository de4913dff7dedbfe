/** What a run changed in the fake cluster: its writes, and everything stored outside the target. */
import type { FakeCluster, RequestRecord } from '../fake/index.js';

/** A stored object as the fake's snapshot returns it. */
export type KObj = { metadata: { namespace?: string; name: string; uid: string } };

/** Requests that change something, other than the DELETE of the target namespace itself. */
export function writes(cluster: FakeCluster, target: string): RequestRecord[] {
  return cluster.requests.filter(
    (r) => r.method !== 'GET' && !(r.method === 'DELETE' && r.path === `/api/v1/namespaces/${target}`),
  );
}

/** `METHOD path status` of each write, for exact assertions. */
export function writeLines(cluster: FakeCluster, target: string): string[] {
  return writes(cluster, target).map((r) => `${r.method} ${r.path} ${r.status}`);
}

/** Everything stored, minus the target namespace and its content. */
export function outside(cluster: FakeCluster, target: string): Record<string, KObj[]> {
  const snap = cluster.snapshot() as Record<string, KObj[]>;
  const out: Record<string, KObj[]> = {};
  for (const [type, items] of Object.entries(snap)) {
    const kept = items.filter(
      (o) => o.metadata.namespace !== target && !(type === 'namespaces' && o.metadata.name === target),
    );
    if (kept.length) out[type] = kept;
  }
  return out;
}
