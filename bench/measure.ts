/** One measured call against the fake: wall time, the server's request log delta, both threads' busy time. */
import { performance } from 'node:perf_hooks';
import type { LoggedRequest } from './protocol.js';
import type { RemoteCluster } from './remote.js';

export interface Sample {
  wallMs: number;
  /** Requests the server logged during the call (every attempt, watches included). */
  requests: number;
  /** Response body bytes the server sent (on the wire: gzip-encoded where the answer was compressed). */
  bytes: number;
  /** The same before compression: what the client had to parse. */
  bodyBytes: number;
  /** Event-loop active time of the server thread during the call. */
  serverBusyMs: number;
  /** Event-loop active time of the bench's main thread (the client) during the call. */
  clientBusyMs: number;
}

export interface Measured<T> {
  sample: Sample;
  value: T;
  log: LoggedRequest[];
  /** performance.now() when the call started, and its epoch equivalent. */
  startedAt: number;
  startedEpochMs: number;
}

export async function measure<T>(remote: RemoteCluster, fn: () => Promise<T>): Promise<Measured<T>> {
  const from = await remote.mark();
  await remote.busy();
  const elu = performance.eventLoopUtilization();
  const startedAt = performance.now();
  const value = await fn();
  const wallMs = performance.now() - startedAt;
  const clientBusyMs = performance.eventLoopUtilization(elu).active;
  const busy = await remote.busy();
  const log = await remote.requests(from);
  return {
    sample: {
      wallMs,
      requests: log.length,
      bytes: log.reduce((a, r) => a + r.bytesOut, 0),
      bodyBytes: log.reduce((a, r) => a + r.bodyBytes, 0),
      serverBusyMs: busy.activeMs,
      clientBusyMs,
    },
    value,
    log,
    startedAt,
    startedEpochMs: performance.timeOrigin + startedAt,
  };
}

/** `METHOD path` with the namespace names replaced, to group requests by kind. */
export function requestKind(r: LoggedRequest, namespaces: ReadonlySet<string>): string {
  const path = r.path
    .split('/')
    .map((p) => (namespaces.has(p) ? 'NS' : p))
    .join('/');
  const watch = /(^|&)watch=(1|true)/.test(r.query) ? ' (watch)' : '';
  return `${r.method} ${path}${watch} → ${r.status}`;
}

/** Counts per key, most frequent first. */
export function tally(keys: readonly string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}
