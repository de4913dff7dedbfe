/** In-memory object storage with a global resourceVersion counter, event history and change fan-out. */
import { clone, normalizeMeta } from './meta.js';
import type { KObj } from './types.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One committed change. `obj` carries the RV of the change (for DELETED: the last state, deletion RV). */
export interface StoreEvent {
  type: EventType;
  /** `resource.group` (core: `resource`). */
  gr: string;
  obj: KObj;
  rv: number;
}

const HISTORY_LIMIT = 20000;

const key = (ns: string | undefined, name: string): string => `${ns ?? ''}/${name}`;

/** The fake's etcd: every write bumps one counter and is kept in a bounded history for watches. */
export class Store {
  private rv = 100;
  /** Watches from an RV below this get 410 Expired. */
  compactedRv = 0;
  private readonly data = new Map<string, Map<string, KObj>>();
  private history: StoreEvent[] = [];
  private readonly listeners = new Set<(e: StoreEvent) => void>();

  currentRv(): number {
    return this.rv;
  }

  private bucket(gr: string): Map<string, KObj> {
    let b = this.data.get(gr);
    if (!b) {
      b = new Map();
      this.data.set(gr, b);
    }
    return b;
  }

  /** A deep copy of the stored object. */
  get(gr: string, ns: string | undefined, name: string): KObj | undefined {
    const o = this.data.get(gr)?.get(key(ns, name));
    return o ? clone(o) : undefined;
  }

  has(gr: string, ns: string | undefined, name: string): boolean {
    return this.data.get(gr)?.has(key(ns, name)) ?? false;
  }

  /** Deep copies sorted by namespace/name; `ns` undefined = all namespaces. */
  list(gr: string, ns?: string): KObj[] {
    const b = this.data.get(gr);
    if (!b) return [];
    const out: KObj[] = [];
    const keys = [...b.keys()].sort();
    for (const k of keys) {
      const o = b.get(k);
      if (o && (ns === undefined || (o.metadata.namespace ?? '') === ns)) out.push(clone(o));
    }
    return out;
  }

  /** Read-only iteration without copies (callers must not mutate). */
  forEach(gr: string, fn: (o: Readonly<KObj>) => void): void {
    for (const o of this.data.get(gr)?.values() ?? []) fn(o);
  }

  /** The `resource.group` keys that hold objects. */
  kinds(): string[] {
    return [...this.data.keys()].filter((gr) => (this.data.get(gr)?.size ?? 0) > 0);
  }

  /** Store a new object (RV assigned here) and emit ADDED. Returns the stored copy. */
  create(gr: string, obj: KObj): KObj {
    return this.write(gr, obj, 'ADDED');
  }

  /** Replace an existing object (RV assigned here) and emit MODIFIED. */
  update(gr: string, obj: KObj): KObj {
    return this.write(gr, obj, 'MODIFIED');
  }

  private write(gr: string, obj: KObj, type: EventType): KObj {
    this.rv++;
    const stored = clone(obj);
    stored.metadata = normalizeMeta({ ...stored.metadata, resourceVersion: String(this.rv) });
    this.bucket(gr).set(key(stored.metadata.namespace, stored.metadata.name), stored);
    this.emit({ type, gr, obj: clone(stored), rv: this.rv });
    return clone(stored);
  }

  /** Delete and emit DELETED with the last stored state at the deletion RV. Returns that state. */
  remove(gr: string, ns: string | undefined, name: string): KObj | undefined {
    const b = this.data.get(gr);
    const k = key(ns, name);
    const last = b?.get(k);
    if (!b || !last) return undefined;
    b.delete(k);
    this.rv++;
    const gone = clone(last);
    gone.metadata.resourceVersion = String(this.rv);
    this.emit({ type: 'DELETED', gr, obj: clone(gone), rv: this.rv });
    return gone;
  }

  private emit(e: StoreEvent): void {
    this.history.push(e);
    if (this.history.length > HISTORY_LIMIT) {
      const dropped = this.history.splice(0, this.history.length - HISTORY_LIMIT);
      const last = dropped[dropped.length - 1];
      if (last) this.compactedRv = Math.max(this.compactedRv, last.rv);
    }
    for (const l of this.listeners) l(e);
  }

  /** Events after `rv`, or 'expired' when the history no longer reaches back that far. */
  eventsSince(rv: number): StoreEvent[] | 'expired' {
    if (rv < this.compactedRv) return 'expired';
    return this.history.filter((e) => e.rv > rv).map((e) => ({ ...e, obj: clone(e.obj) }));
  }

  /** Forget the history (like an etcd compaction): every RV handed out so far becomes too old. */
  compact(): void {
    this.rv++;
    this.compactedRv = this.rv;
    this.history = [];
  }

  subscribe(fn: (e: StoreEvent) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Deep copy of everything, keyed by `resource.group`, objects sorted by namespace/name. */
  snapshot(): Record<string, KObj[]> {
    const out: Record<string, KObj[]> = {};
    for (const gr of [...this.data.keys()].sort()) {
      const items = this.list(gr);
      if (items.length) out[gr] = items;
    }
    return out;
  }
}
