/**
 * Causes across clusters: each cluster's causes (src/report/causes.ts) grouped again by what they are, so the same
 * leaked finalizer in three clusters is one block with one script per cluster context. Pure.
 */
import type { FleetReport } from '../model/fleet.js';
import type { Finding } from '../model/findings.js';
import { causesOf, type Cause } from './causes.js';

/** One cluster's share of a cause. */
export interface ClusterCause {
  cluster: string;
  /** The kubeconfig context its commands name; undefined when the run recorded none (in-cluster). */
  context?: string;
  cause: Cause;
}

/** One cause and every cluster and namespace it blocks. */
export interface FleetCause {
  verdict: Finding;
  /** The first cluster's words; for several namespaces, the cause's words without their names. */
  summary: string;
  members: ClusterCause[];
  namespaces: number;
  /** Objects the cause is about across the fleet, when every cluster's findings count them. */
  objects?: number;
}

const keyOf = (f: Finding): string => `${f.id}\u0000${f.cause}`;

/** The fleet's stuck namespaces grouped by cause across clusters: most namespaces first, then most clusters. */
export function fleetCauses(fleet: FleetReport): FleetCause[] {
  const groups = new Map<string, ClusterCause[]>();
  for (const c of fleet.clusters) {
    if (!c.report) continue;
    const context = c.report.context.cluster?.context;
    for (const cause of causesOf(c.report)) {
      const key = keyOf(cause.verdict);
      groups.set(key, [
        ...(groups.get(key) ?? []),
        { cluster: c.name, ...(context ? { context } : {}), cause },
      ]);
    }
  }
  const out = [...groups.values()].map((members): FleetCause => {
    const first = members[0]!.cause;
    const namespaces = members.reduce((n, m) => n + m.cause.targets.length, 0);
    const counted = members.map((m) => m.cause.objects);
    return {
      verdict: first.verdict,
      summary: namespaces > 1 ? (first.verdict.causeSummary ?? first.summary) : first.summary,
      members,
      namespaces,
      ...(counted.every((n) => n !== undefined) ? { objects: counted.reduce((a, b) => a! + b!, 0) } : {}),
    };
  });
  return out.sort(
    (a, b) =>
      b.namespaces - a.namespaces ||
      b.members.length - a.members.length ||
      (a.members[0]!.cluster < b.members[0]!.cluster ? -1 : 1),
  );
}

/**
 * One script for the whole cause: each cluster's own (its `--context` already in it, laid out by `layout`) under a
 * comment naming the cluster, so one paste reaches every cluster. Whole clusters only, up to `max` characters: the
 * rest are counted in a last comment, never cut mid-command. A cluster whose run recorded no context gets a
 * warning line instead, since its command would go to whatever cluster is current.
 */
export function fleetScript(
  members: readonly ClusterCause[],
  pick: (c: Cause) => string | undefined,
  layout: (script: string) => string,
  max = 8_000,
): string | undefined {
  const blocks: string[] = [];
  let size = 0;
  let left = 0;
  for (const m of members) {
    const script = pick(m.cause);
    if (script === undefined) continue;
    const head =
      m.context === undefined
        ? `# ${m.cluster}: its run recorded no kubeconfig context; switch to that cluster first`
        : `# ${m.cluster}`;
    const block = `${head}\n${layout(script)}`;
    if (blocks.length > 0 && size + block.length > max) left++;
    else {
      blocks.push(block);
      size += block.length + 2;
    }
  }
  if (left) blocks.push(`# … and ${left} more cluster(s): see their own job summaries or the JSON report`);
  return blocks.length ? blocks.join('\n\n') : undefined;
}
