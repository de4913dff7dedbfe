/**
 * After the waits: what outlives the namespaces this run deleted or forced — a `failurePolicy: Fail` webhook or an
 * APIService whose backend lived in one of them (or that a forced one was stuck on), a policy binding whose parameter
 * did — read fresh (never from the reads taken before the DELETEs), and reported on that target as still broken.
 */
import {
  brokenApiService,
  brokenBinding,
  brokenWebhook,
  compareFindings,
  readAllPolicyBindings,
  readApiServicesNow,
  Reads,
  readWebhooksNow,
} from '../diagnosis/index.js';
import type { Kube } from '../kube/port.js';
import type { Finding } from '../model/findings.js';
import type { TargetReport } from '../model/run.js';
import type { Logger } from '../shared/ports.js';

/** Whether one of a forced target's findings named this webhook or APIService: it was forced past it. */
const named = (t: TargetReport, name: string): boolean =>
  t.outcome === 'forced' && t.findings.some((f) => f.cause.split(/[:,/|]/).includes(name));

/** Adds a still-broken finding to each target gone or forced whose deletion left a cluster-wide control broken. */
export async function checkOutlived(
  deps: { kube: Kube; logger: Logger },
  targets: TargetReport[],
): Promise<void> {
  const gone = targets.filter((t) => t.outcome === 'gone' || t.outcome === 'forced');
  if (gone.length === 0) return;
  const names = new Set(gone.map((t) => t.name));
  const concerns = (svcNs: string | undefined, name: string): boolean =>
    (svcNs !== undefined && names.has(svcNs)) || gone.some((t) => named(t, name));
  const reads = new Reads(deps.kube, 8, 500);
  const [hooks, apis, bindings] = await Promise.all([
    readWebhooksNow(reads, (w) => concerns(w.service?.namespace, w.name)),
    readApiServicesNow(reads, (a) => concerns(a.service?.namespace, a.name)),
    readAllPolicyBindings(reads),
  ]);
  for (const t of gone) {
    const forced = t.outcome === 'forced';
    const mine = (svcNs: string | undefined, name: string): boolean => svcNs === t.name || named(t, name);
    const found: Finding[] = [
      ...hooks.flatMap((w) =>
        mine(w.service?.namespace, w.name) ? (brokenWebhook(w, t.name, forced) ?? []) : [],
      ),
      ...apis.flatMap((a) =>
        mine(a.service?.namespace, a.name) ? (brokenApiService(a, t.name, forced) ?? []) : [],
      ),
      ...bindings.flatMap((b) => brokenBinding(b, t.name) ?? []),
    ];
    const unique = [...new Map(found.map((f) => [f.cause, f])).values()];
    if (unique.length === 0) continue;
    for (const f of unique) deps.logger.warning(`${t.name}: ${f.summary}`);
    t.findings = [...t.findings.filter((f) => f.id !== 'still-broken'), ...unique].sort(compareFindings);
  }
}
