/**
 * After the waits: whether a live GitOps owner will bring a target back. Every target that went (or is going) is
 * checked against the cluster's owner objects, read once per run; a target a live owner recreates gets the verdict,
 * so a namespace deleted only to be applied again never reads "gone, the check passes". Reads only.
 */
import {
  compareFindings,
  readGitOps,
  readLeases,
  readRbac,
  Reads,
  readWorkloads,
  willRecreate,
  type SharedReads,
} from '../diagnosis/index.js';
import type { Kube } from '../kube/port.js';
import type { Outcome, TargetReport } from '../model/run.js';
import type { Clock, Logger } from '../shared/ports.js';

/** The outcomes after which a namespace may be applied again by its owner. */
const CHECKED = new Set<Outcome>(['gone', 'already-gone', 'forced', 'stuck', 'recreated']);

/** What the check needs. */
export interface OwnersDeps {
  kube: Kube;
  clock: Clock;
  logger: Logger;
  shared?: SharedReads;
}

/** Adds the recreate verdict to every target a GitOps owner applies; what could not be read goes to `unread`. */
export async function checkOwners(deps: OwnersDeps, targets: TargetReport[]): Promise<void> {
  const checked = targets.filter((t) => CHECKED.has(t.outcome));
  if (checked.length === 0) return;
  const reads = new Reads(deps.kube, 8, 500, deps.shared);
  const gitops = await readGitOps(reads);
  const takenAt = new Date(deps.clock.now()).toISOString();
  const base = {
    takenAt,
    gitops,
    workloads: [],
    rbac: { roles: [], bindings: [] },
    leases: [],
    readErrors: [],
  };
  const linked = checked.filter((t) => willRecreate({ ...base, namespace: namespaceOf(t) }).length > 0);
  if (linked.length === 0) return noteUnread(checked, reads);
  // Only now are the owners' controllers looked for: most runs have no GitOps owner of a target at all.
  const [workloads, leases] = await Promise.all([readWorkloads(reads), readLeases(reads)]);
  for (const t of linked) {
    const rbac = await readRbac(reads, t.name);
    const view = { ...base, workloads, leases, rbac, readErrors: reads.errors, namespace: namespaceOf(t) };
    const found = willRecreate(view);
    for (const f of found) deps.logger.info(`${t.name}: ${f.severity} ${f.id}: ${f.summary}`);
    t.findings = [...t.findings.filter((f) => f.id !== 'will-recreate'), ...found].sort(compareFindings);
  }
  noteUnread(checked, reads);
}

function namespaceOf(t: TargetReport): { name: string; labels: Record<string, string> } {
  return { name: t.name, labels: t.labels ?? {} };
}

/** A failed read of the owners leaves whether they come back unknown: say so on each target checked. */
function noteUnread(targets: TargetReport[], reads: Reads): void {
  const errors = reads.errors.filter((e) => e.what.startsWith('gitops'));
  if (errors.length === 0) return;
  for (const t of targets) t.unread = [...(t.unread ?? []), ...errors];
}
