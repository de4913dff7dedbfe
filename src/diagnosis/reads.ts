import { KubeError, type KubeReader } from '../kube/port.js';
import type { ApiResource, Cost, ObjectMeta } from '../model/cluster.js';
import { messageOf } from '../shared/errors.js';
import { mapPool } from '../shared/pool.js';
import { Slots } from '../shared/slots.js';

/** One line for a read error: HTTP code and reason when the reader gave them. */
export function describeError(e: unknown): string {
  if (e instanceof KubeError) return `${e.code}${e.reason ? ` ${e.reason}` : ''}: ${e.message}`;
  return messageOf(e);
}

/**
 * The snapshot's only way to the cluster: every call goes through here, is counted, waits for one of at most
 * `concurrency` slots, and turns a failure into a recorded read error instead of an exception.
 */
export class Reads {
  readonly errors: { what: string; error: string }[] = [];
  private requests = 0;
  private readonly slots: Slots;
  private readonly startCost: Cost | undefined;

  constructor(
    private readonly reader: KubeReader,
    readonly concurrency: number,
    private readonly pageSize: number,
  ) {
    this.startCost = reader.cost?.();
    this.slots = new Slots(concurrency);
  }

  /**
   * One request; undefined (and a recorded error) when it fails. With `notFound`, a 404 is that value and no
   * error: for a list it means the type is not served, so there is nothing of it.
   */
  async call<T>(what: string, fn: (r: KubeReader) => Promise<T>, notFound?: T): Promise<T | undefined> {
    await this.slots.acquire();
    this.requests++;
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
    return { requests: this.requests, bytes: 0 };
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
