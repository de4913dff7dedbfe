/** Reads of the cluster for the snapshot: bounded, shared across targets while fresh, every failure recorded. */
import { KubeError, type KubeReader } from '../../kube/port.js';
import type { ApiResource, Cost, ObjectMeta } from '../../model/cluster.js';
import { messageOf } from '../../shared/errors.js';
import { mapPool } from '../../shared/map-pool.js';
import { Slots } from '../../shared/slots.js';

/** One line for a read error: HTTP code and reason when the reader gave them. */
export function describeError(e: unknown): string {
  if (e instanceof KubeError) return `${e.code}${e.reason ? ` ${e.reason}` : ''}: ${e.message}`;
  return messageOf(e);
}

/** A read that failed: what was read, and the error as the server gave it. */
export interface ReadError {
  what: string;
  error: string;
}

/** How long a shared cluster-wide read stays fresh for the snapshots of one run (on the run's clock). */
export const SHARED_FRESH_MS = 10_000;

/**
 * The cluster-wide reads of one run (workloads, roles, Leases, CRDs, webhooks, APIServices, GitOps owners), made once
 * and shared by every snapshot taken while they are fresh: fifty stuck targets diagnosed at the timeout list the
 * cluster's workloads once, not fifty times. A read older than `freshMs` is made again (liveness must be current).
 */
export class SharedReads {
  private readonly entries = new Map<
    string,
    { at: number; result: Promise<{ value: unknown; errors: ReadError[] }> }
  >();

  constructor(
    private readonly now: () => number,
    readonly freshMs = SHARED_FRESH_MS,
  ) {}

  /** The fresh result under `key`, or `load()`'s, kept for later snapshots. */
  get<T>(
    key: string,
    load: () => Promise<{ value: T; errors: ReadError[] }>,
  ): Promise<{ value: T; errors: ReadError[] }> {
    const known = this.entries.get(key);
    if (known && this.now() - known.at <= this.freshMs) {
      return known.result as Promise<{ value: T; errors: ReadError[] }>;
    }
    const result = load();
    this.entries.set(key, { at: this.now(), result });
    return result;
  }
}

/**
 * The snapshot's only way to the cluster: every call goes through here, is counted, waits for one of at most
 * `concurrency` slots, and turns a failure into a recorded read error instead of an exception.
 */
export class Reads {
  readonly errors: ReadError[] = [];
  private readonly counter: { requests: number };
  private readonly slots: Slots;
  private readonly startCost: Cost | undefined;

  constructor(
    private readonly reader: KubeReader,
    readonly concurrency: number,
    private readonly pageSize: number,
    /** The run's shared cluster-wide reads; absent = every read is this snapshot's own. */
    private readonly cache?: SharedReads,
    within?: { slots: Slots; counter: { requests: number } },
  ) {
    this.startCost = within ? undefined : reader.cost?.();
    this.slots = within?.slots ?? new Slots(concurrency);
    this.counter = within?.counter ?? { requests: 0 };
  }

  /**
   * A cluster-wide read the run's snapshots share: made once while fresh, its errors recorded in every snapshot that
   * uses it (each says what it could not read). Without a shared cache it is simply made.
   */
  async shared<T>(key: string, load: (reads: Reads) => Promise<T>): Promise<T> {
    if (!this.cache) return load(this);
    const { value, errors } = await this.cache.get(key, async () => {
      const own = new Reads(this.reader, this.concurrency, this.pageSize, undefined, {
        slots: this.slots,
        counter: this.counter,
      });
      return { value: await load(own), errors: own.errors };
    });
    this.errors.push(...errors);
    return value;
  }

  /**
   * One request; undefined (and a recorded error) when it fails. With `notFound`, a 404 is that value and no
   * error: for a list it means the type is not served, so there is nothing of it.
   */
  async call<T>(what: string, fn: (r: KubeReader) => Promise<T>, notFound?: T): Promise<T | undefined> {
    await this.slots.acquire();
    this.counter.requests++;
    try {
      return await fn(this.reader);
    } catch (e) {
      if (notFound !== undefined && e instanceof KubeError && e.code === 404) return notFound;
      this.errors.push({ what, error: describeError(e) });
      return undefined;
    } finally {
      this.slots.release();
    }
  }

  /** All pages of a metadata-only list in one namespace; what was read before an error is kept. */
  async listMetadata(
    what: string,
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string,
  ): Promise<ObjectMeta[]> {
    return this.paginate(what, async (token) => {
      const opts = { namespace, limit: this.pageSize, ...(token ? { continue: token } : {}) };
      return this.call(what, (r) => r.listMetadata(res, opts), { items: [] });
    });
  }

  /** All pages of a raw list; undefined only when the first page fails. `notFoundIsEmpty`: a 404 lists nothing. */
  async listRaw(what: string, path: string, notFoundIsEmpty = false): Promise<unknown[] | undefined> {
    let first = true;
    let failedFirst = false;
    const items = await this.paginate(what, async (token) => {
      const page = await this.call(
        what,
        (r) => r.listRaw(path, { limit: this.pageSize, ...(token ? { continue: token } : {}) }),
        notFoundIsEmpty ? { items: [] } : undefined,
      );
      failedFirst ||= first && page === undefined;
      first = false;
      return page;
    });
    return failedFirst ? undefined : items;
  }

  /** Whether the reader can ask the API server's authorizer (SubjectAccessReview). */
  canReviewAccess(): boolean {
    return this.reader.reviewAccess !== undefined;
  }

  /** Runs `fn` over `items` in the bounded pool. */
  map<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
    return mapPool(items, this.concurrency, fn);
  }

  /** What the reads cost: the reader's own counters when it has them, else the request count alone. */
  cost(): Cost {
    const now = this.startCost && this.reader.cost?.();
    if (this.startCost && now) {
      return { requests: now.requests - this.startCost.requests, bytes: now.bytes - this.startCost.bytes };
    }
    return { requests: this.counter.requests, bytes: 0 };
  }

  /** All pages of a metadata-only list of a cluster-scoped type (or of a type in all namespaces). */
  async listClusterMetadata(
    what: string,
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
  ): Promise<ObjectMeta[] | undefined> {
    let failed = false;
    const items = await this.paginate(what, async (token) => {
      const opts = { limit: this.pageSize, ...(token ? { continue: token } : {}) };
      const page = await this.call(what, (r) => r.listMetadata(res, opts));
      failed ||= page === undefined && token === undefined;
      return page;
    });
    return failed ? undefined : items;
  }

  private async paginate<I>(
    what: string,
    page: (token: string | undefined) => Promise<{ items: I[]; continue?: string } | undefined>,
  ): Promise<I[]> {
    const items: I[] = [];
    const seen = new Set<string>();
    let token: string | undefined;
    do {
      const p = await page(token);
      if (!p) break;
      items.push(...p.items);
      token = p.continue || undefined;
      if (token !== undefined && seen.has(token)) {
        this.errors.push({ what, error: `the server repeated continue token ${token}; stopped paging` });
        break;
      }
      if (token !== undefined) seen.add(token);
    } while (token !== undefined);
    return items;
  }
}
