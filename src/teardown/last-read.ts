/**
 * The last reads of a target: read it again once its wait ended (gone, recreated under the same name, or still
 * there), find names recreated meanwhile with one list, and say so when this run may no longer read it at all.
 */
import { describeError, lostSightNote } from '../diagnosis/index.js';
import { KubeError, type Kube } from '../kube/port.js';
import type { TargetReport } from '../model/run.js';
import { mapPool } from '../shared/map-pool.js';
import type { Logger } from '../shared/ports.js';
import { identityProblem, reasonOf } from '../targets/resolve.js';
import type { Early } from '../prevention/prevent.js';
import { FALLBACK_READS } from './feed.js';
import type { WaitRecord } from './wait.js';

/**
 * Read the namespace again and apply what the answer shows: gone, recreated (same name, another UID), or its
 * current state. An answer for another name is ignored. Read failures leave the record as it was.
 */
export async function reread(kube: Kube, record: WaitRecord, now: () => number): Promise<void> {
  const name = record.last.name;
  const state = await kube.getNamespace(name).catch((error: unknown) => {
    if (error instanceof KubeError && error.code === 403) record.forbidden = describeError(error);
    return 'failed' as const;
  });
  if (state === 'failed') return;
  delete record.forbidden;
  if (state === undefined) {
    record.goneAt ??= now();
    return;
  }
  if (identityProblem(name, state)) return;
  if (state.uid !== record.last.uid) {
    record.goneAt ??= now();
    record.recreatedUid = state.uid;
  } else {
    // Still there under the same UID: whatever said "gone" was wrong.
    record.goneAt = undefined;
    record.last = state;
  }
}

export const recreatedNote = (uid: string): string =>
  `gone, then recreated under the same name (new UID ${uid}); the new one was not touched`;

/**
 * With the shared feed, the namespaces seen gone are not read one by one: one list of all namespaces at the end
 * shows any name held again by a namespace with another UID (reported recreated, never touched). When the list
 * cannot be read, each is read with a GET, a few at a time.
 */
export async function markRecreated(kube: Kube, reports: TargetReport[], logger: Logger): Promise<void> {
  const gone = new Map(
    reports.filter((r) => (r.outcome === 'gone' || r.outcome === 'forced') && r.uid).map((r) => [r.name, r]),
  );
  if (gone.size === 0) return;
  const now = new Map<string, string>();
  try {
    await kube.listAllNamespaces((items) => {
      for (const ns of items) if (gone.has(ns.name) && ns.uid) now.set(ns.name, ns.uid);
    });
  } catch (error) {
    logger.debug(`listing all namespaces failed: ${reasonOf(error)}; reading each namespace gone instead`);
    await mapPool([...gone.values()], FALLBACK_READS, async (r) => {
      const state = await kube.getNamespace(r.name).catch(() => undefined);
      if (state?.uid && !identityProblem(r.name, state)) now.set(r.name, state.uid);
    });
  }
  for (const [name, uid] of now) {
    const report = gone.get(name)!;
    // A UID is never reused: the same UID here would contradict what the feed saw, so only another one counts.
    if (uid === report.uid) continue;
    report.outcome = 'recreated';
    report.recreatedUid = uid;
    report.note = recreatedNote(uid);
  }
}

/**
 * Reads of the namespace became forbidden after its DELETE: the run lost the right to look (its rights came from a
 * RoleBinding the deletion removed). `error`, never `stuck`; findings from forbidden reads say nothing, and go.
 */
export function lostSight(report: TargetReport, error: string, bindings: Early['roleBindings']): void {
  report.outcome = 'error';
  report.note = lostSightNote(report.name, error, bindings);
  report.findings = [];
  delete report.terminatingForMs;
}
