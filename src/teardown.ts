/** The story per namespace: resolve → delete → wait → outcome. Talks to the cluster only through the Kube port. */
import { formatDuration } from './duration.js';
import { KubeError, type Kube, type NamespaceState } from './kube/port.js';
import type { Outcome, TargetReport } from './outcome.js';
import type { Clock, Logger } from './ports.js';
import { isProtected, type Settings } from './settings.js';
import { waitUntilGone, type WaitRecord } from './wait.js';

export interface TeardownDeps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  /** Safety-net poll interval while waiting (default 10 s). */
  pollMs?: number;
  /** Interval of the progress line while waiting (default 15 s). */
  progressMs?: number;
}

/** A target as resolved before deletion: its state, or why there is nothing to do. */
interface Resolved {
  name: string;
  state?: NamespaceState;
  refused?: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** Resolve names and the selector into targets; protected selector matches are refused, never touched. */
export async function resolveTargets(settings: Settings, kube: Kube): Promise<Resolved[]> {
  const byName = new Map<string, Resolved>();
  const named = await Promise.all(settings.namespaces.map((n) => kube.getNamespace(n)));
  settings.namespaces.forEach((name, i) => byName.set(name, { name, state: named[i] }));
  if (settings.selector !== undefined) {
    for (const state of await kube.listNamespaces(settings.selector)) {
      const refused = isProtected(settings, state.name)
        ? `protected namespace matched by selector "${settings.selector}"; not touched`
        : undefined;
      byName.set(state.name, { name: state.name, state, refused });
    }
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** Request deletion (Background, UID precondition). Returns the state to wait on, or the outcome already known. */
async function requestDeletion(
  kube: Kube,
  target: NamespaceState,
  logger: Logger,
): Promise<{ state: NamespaceState } | { outcome: Outcome; note: string }> {
  if (target.deletionTimestamp !== undefined) {
    logger.info(`${target.name}: already Terminating since ${target.deletionTimestamp}`);
    return { state: target };
  }
  try {
    const result = await kube.deleteNamespace(target.name, { uid: target.uid });
    if (result === 'gone') return { outcome: 'already-gone', note: 'gone before the delete request arrived' };
  } catch (error) {
    if (error instanceof KubeError && error.code === 409) {
      return { outcome: 'recreated', note: 'replaced by a new namespace before deletion; the new one was not deleted' };
    }
    throw error;
  }
  logger.info(`${target.name}: deletion requested`);
  const after = await kube.getNamespace(target.name);
  if (after === undefined) return { outcome: 'gone', note: 'gone at once' };
  if (after.uid !== target.uid) return { outcome: 'recreated', note: `recreated with UID ${after.uid}` };
  return { state: after };
}

function outcomeOf(record: WaitRecord): Outcome {
  if (record.recreatedUid !== undefined) return 'recreated';
  if (record.goneAt !== undefined) return 'gone';
  return record.last.deletionTimestamp === undefined ? 'active' : 'stuck';
}

/** `requestedMs`: when we sent the DELETE, or undefined when someone else did (then deletionTimestamp). */
function reportFromWait(record: WaitRecord, requestedMs: number | undefined, now: number): TargetReport {
  const ns = record.last;
  const outcome = outcomeOf(record);
  const fromServer = ns.deletionTimestamp ? Date.parse(ns.deletionTimestamp) : undefined;
  const since = requestedMs ?? fromServer;
  return {
    name: ns.name,
    uid: ns.uid,
    outcome,
    requestedAt: since !== undefined ? iso(since) : undefined,
    goneAt: record.goneAt !== undefined ? iso(record.goneAt) : undefined,
    durationMs: record.goneAt !== undefined && since !== undefined ? Math.max(0, record.goneAt - since) : undefined,
    terminatingForMs: outcome === 'stuck' && since !== undefined ? Math.max(0, now - since) : undefined,
    transitions: record.transitions.map((t) => ({ phase: t.phase, at: iso(t.at) })),
    conditions: ns.conditions,
    recreatedUid: record.recreatedUid,
    watchRestarts: record.restarts,
    findings: [],
  };
}

function simpleReport(name: string, outcome: Outcome, note: string, state?: NamespaceState): TargetReport {
  return {
    name,
    uid: state?.uid,
    outcome,
    transitions: [],
    conditions: state?.conditions ?? [],
    watchRestarts: { expired: 0, reset: 0 },
    findings: [],
    note,
  };
}

function startProgress(records: Map<string, WaitRecord>, deps: TeardownDeps, startedMs: number): () => void {
  const stop = new AbortController();
  const every = deps.progressMs ?? 15_000;
  void (async () => {
    for (;;) {
      await deps.clock.sleep(every, stop.signal);
      if (stop.signal.aborted) return;
      const waiting = [...records.values()].filter((r) => r.goneAt === undefined && r.recreatedUid === undefined);
      const list = waiting.map((r) => `${r.last.name} (${r.last.phase})`).join(', ');
      deps.logger.info(`waiting ${formatDuration(deps.clock.now() - startedMs)}: ${waiting.length} left — ${list}`);
    }
  })();
  return () => stop.abort();
}

/** Delete (unless `delete: false`) and wait for every target, concurrently, bounded by the timeout. */
export async function deleteAndWait(settings: Settings, deps: TeardownDeps, deadline: number): Promise<TargetReport[]> {
  const { kube, logger, clock } = deps;
  const resolved = await logger.group('Resolve targets', async () => {
    const targets = await resolveTargets(settings, kube);
    for (const t of targets) logger.info(`${t.name}: ${t.refused ?? (t.state ? t.state.phase : 'not found')}`);
    return targets;
  });
  const startedMs = clock.now();
  const records = new Map<string, WaitRecord>();
  const stopProgress = startProgress(records, deps, startedMs);
  try {
    return await logger.group('Delete and wait', () =>
      Promise.all(
        resolved.map(async (t): Promise<TargetReport> => {
          if (t.refused !== undefined) return simpleReport(t.name, 'refused', t.refused, t.state);
          if (t.state === undefined) return simpleReport(t.name, 'already-gone', 'not found: nothing to delete');
          let state = t.state;
          let requestedMs: number | undefined;
          if (settings.delete && state.deletionTimestamp === undefined) requestedMs = clock.now();
          if (settings.delete) {
            const requested = await requestDeletion(kube, state, logger);
            if ('outcome' in requested) return simpleReport(t.name, requested.outcome, requested.note, state);
            state = requested.state;
          }
          const record = await waitUntilGone(kube, state, {
            deadline,
            clock,
            logger,
            pollMs: deps.pollMs ?? 10_000,
            onChange: (r) => records.set(t.name, r),
          }).finally(() => records.delete(t.name));
          const report = reportFromWait(record, requestedMs, clock.now());
          logger.info(`${t.name}: ${report.outcome}${report.durationMs !== undefined ? ` after ${formatDuration(report.durationMs)}` : ''}`);
          return report;
        }),
      ),
    );
  } finally {
    stopProgress();
  }
}
