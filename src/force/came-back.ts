/**
 * A `/finalize` whose answer showed `spec.finalizers` emptied, and which a later read shows back: put back after the
 * write (a controller writing `/finalize` itself; a mutating webhook would have shown in the answer). It becomes a
 * `not-removed` entry of the audit, naming the manager managedFields give for spec.finalizers, so the next plan does
 * not write it again.
 */
import { shellCommand } from '../diagnosis/index.js';
import { specFinalizerManagers } from '../kube/answers.js';
import { enc } from '../kube/paths.js';
import type { Kube } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import type { AuditEntry, PutBack } from '../model/force.js';
import { OWN_MANAGER } from './put-back.js';

const rec = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** Who put spec.finalizers back, from the namespace's managedFields as read now, and what to change. */
function putBackAfter(ns: string, managers: string[], kept: string[], writes: number): PutBack {
  const what = kept.join(', ');
  return {
    field: 'spec.finalizers',
    kept,
    writes,
    unchanged: false,
    by: managers.length
      ? { kind: 'manager', managers }
      : {
          kind: 'unknown',
          why: 'a read after the write shows it back, and managedFields name no other manager of spec.finalizers',
        },
    remedy: managers.length
      ? `stop or fix ${managers.join(', ')} (the manager managedFields name for spec.finalizers), which writes ${what} back through /finalize`
      : `find what writes ${what} back through /finalize (a namespace lifecycle controller) and change it`,
    lookups: [shellCommand('kubectl', 'get', 'namespace', ns, '--show-managed-fields', '-o', 'yaml')],
  };
}

/**
 * The entry for a `/finalize` done earlier whose finalizers a fresh read shows back (`ns`, as the wait last saw it,
 * only says whether to read); undefined when none came back.
 */
export async function cameBack(
  kube: Kube,
  ns: NamespaceState,
  audit: readonly AuditEntry[],
  at: string,
): Promise<AuditEntry | undefined> {
  const finalize = audit.filter((e) => e.step === 'namespace-finalize');
  const done = finalize.findLast((e) => e.result === 'finalized');
  if (!done || finalize.some((e) => e.result === 'not-removed')) return undefined;
  const removed = done.allowed.map((r) => r.finalizer);
  if (!removed.some((f) => ns.specFinalizers.includes(f))) return undefined;
  // What the wait last saw may predate the write: only a read made now says they came back.
  const now = rec(await kube.getRaw(`/api/v1/namespaces/${enc(ns.name)}`));
  const meta = rec(now.metadata);
  const spec = rec(now.spec).finalizers;
  const fresh = Array.isArray(spec) ? spec.filter((f): f is string => typeof f === 'string') : [];
  const kept = removed.filter((f) => fresh.includes(f));
  if (kept.length === 0 || meta.uid !== ns.uid) return undefined;
  const managers = specFinalizerManagers(meta.managedFields).filter((m) => m !== OWN_MANAGER);
  const putBack = putBackAfter(ns.name, managers, kept, done.writes);
  const why = `the server answered /finalize with ${kept.join(', ')} removed, but a read after it shows ${kept.join(', ')} back in spec.finalizers`;
  return { ...done, at, before: done.after, after: fresh, writes: 0, result: 'not-removed', why, putBack };
}
