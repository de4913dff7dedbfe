/** Watch streams: newline-delimited JSON events, bookmarks, 410 Expired, timeouts and fault injection. */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { status } from './errors.js';
import { type ResourceType, apiVersionOf, grOf } from './registry.js';
import { type Output, renderObject } from './render.js';
import { type FieldTerm, type LabelSelector, matchesFields, matchesLabels } from './selectors.js';
import type { Store, StoreEvent } from './store.js';
import type { JsonMap, KObj, KubeVersion } from './types.js';

export interface WatchRequest {
  rt: ResourceType;
  /** undefined = all namespaces (or a cluster-scoped type). */
  ns: string | undefined;
  labels: LabelSelector;
  fields: FieldTerm[];
  resourceVersion: string;
  timeoutSeconds?: number;
  bookmarks: boolean;
  sendInitialEvents: boolean;
  out: Output;
  includeObject: string | null;
}

interface Active {
  req: WatchRequest;
  res: ServerResponse;
  lastRv: number;
  close: () => void;
}

/** Tracks open watches so tests can reset or expire them. */
export class WatchHub {
  private readonly active = new Set<Active>();

  constructor(
    private readonly store: Store,
    private readonly version: KubeVersion,
    private readonly bookmarkIntervalMs: number,
  ) {}

  get open(): number {
    return this.active.size;
  }

  private matches(w: WatchRequest, obj: KObj): boolean {
    if (w.ns !== undefined && w.rt.namespaced && obj.metadata.namespace !== w.ns) return false;
    return matchesLabels(w.labels, obj.metadata.labels) && matchesFields(w.fields, obj);
  }

  private send(a: Active, type: string, object: JsonMap): void {
    a.res.write(`${JSON.stringify({ type, object })}\n`);
  }

  private sendEvent(a: Active, e: { type: string; obj: KObj; rv: number }): void {
    a.lastRv = e.rv;
    this.send(a, e.type, renderObject(a.req.rt, e.obj, a.req.out, a.req.includeObject));
  }

  private bookmark(rt: ResourceType, rv: number, initialEnd = false): JsonMap {
    const metadata: JsonMap = { resourceVersion: String(rv) };
    if (this.version !== '1.34') metadata.creationTimestamp = null;
    if (initialEnd) metadata.annotations = { 'k8s.io/initial-events-end': 'true' };
    const obj: JsonMap = { kind: rt.kind, apiVersion: apiVersionOf(rt), metadata };
    if (rt.kind === 'Namespace') Object.assign(obj, { spec: {}, status: {} });
    return obj;
  }

  /** Serve a watch on an HTTP response whose head has not been written yet. */
  start(w: WatchRequest, res: ServerResponse): void {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
    res.flushHeaders();
    const gr = grOf(w.rt);
    const current = this.store.currentRv();
    const timers: NodeJS.Timeout[] = [];
    let unsubscribe = (): void => undefined;
    const a: Active = {
      req: w,
      res,
      lastRv: current,
      close: () => {
        unsubscribe();
        timers.forEach((t) => clearTimeout(t));
        this.active.delete(a);
      },
    };
    this.active.add(a);
    res.on('close', a.close);

    const rvParam = w.resourceVersion;
    if (rvParam === '' || rvParam === '0' || w.sendInitialEvents) {
      for (const obj of this.store.list(gr, w.rt.namespaced ? w.ns : undefined)) {
        if (this.matches(w, obj)) this.sendEvent(a, { type: 'ADDED', obj, rv: current });
      }
      a.lastRv = current;
      if (w.sendInitialEvents) this.send(a, 'BOOKMARK', this.bookmark(w.rt, current, true));
    } else {
      const from = Number(rvParam);
      const past = this.store.eventsSince(from);
      if (past === 'expired') {
        this.expire(a, from);
        return;
      }
      a.lastRv = from;
      for (const e of past) if (e.gr === gr && this.matches(w, e.obj)) this.sendEvent(a, e);
    }
    unsubscribe = this.store.subscribe((e: StoreEvent) => {
      if (e.gr === gr && this.matches(w, e.obj)) this.sendEvent(a, e);
    });
    if (w.bookmarks && this.bookmarkIntervalMs > 0) {
      const tick = (): void => {
        this.send(a, 'BOOKMARK', this.bookmark(w.rt, this.store.currentRv()));
        timers[0] = setTimeout(tick, this.bookmarkIntervalMs);
      };
      timers[0] = setTimeout(tick, this.bookmarkIntervalMs);
    }
    if (w.timeoutSeconds !== undefined && w.timeoutSeconds > 0) {
      timers.push(
        setTimeout(() => {
          a.close();
          res.end();
        }, w.timeoutSeconds * 1000),
      );
    }
  }

  private expire(a: Active, rv: number): void {
    const msg = `too old resource version: ${rv} (${this.store.compactedRv})`;
    this.send(a, 'ERROR', { ...status(410, 'Expired', msg) });
    a.close();
    a.res.end();
  }

  /** Compact the history, send 410 Expired to every open watch and close it. */
  expireAll(): void {
    this.store.compact();
    for (const a of [...this.active]) this.expire(a, a.lastRv);
  }

  /** Drop every watch connection abruptly (TCP reset where possible). */
  resetAll(): void {
    for (const a of [...this.active]) {
      a.close();
      const sock = a.res.socket as (Socket & { _parent?: Socket }) | null;
      try {
        (sock?._parent ?? sock)?.resetAndDestroy();
      } catch {
        sock?.destroy();
      }
      sock?.destroy();
    }
  }

  /** End all watches cleanly (server shutdown). */
  closeAll(): void {
    for (const a of [...this.active]) {
      a.close();
      a.res.end();
    }
  }
}
