/** An in-memory Kube that records every call, pages like the API server and measures concurrency. */
import type { ApiResource, NamespaceState, ObjectMeta } from '../../src/model/cluster.js';
import type {
  DeleteAnswer,
  Discovery,
  Kube,
  MetaPage,
  NamespaceEvent,
  WatchHandle,
  WriteAnswer,
} from '../../src/kube/port.js';

export interface Call {
  method: string;
  args: unknown[];
}

export interface FakeData {
  discovery?: Discovery;
  /** Metadata by `group/resource` (core: `/pods`), all in the scanned namespace. */
  objects?: Record<string, ObjectMeta[]>;
  /** Bodies for listRaw, by path. */
  lists?: Record<string, unknown[]>;
  /** Bodies for getRaw, by path; a path not present is a 404 (undefined). */
  bodies?: Record<string, unknown>;
  /** Errors thrown for a path, a `group/resource` key, or `discover`. */
  errors?: Record<string, Error>;
  /** Milliseconds every call takes, so calls overlap. */
  delayMs?: number;
  /** Expose `cost()` counting requests and 100 bytes per request. */
  withCost?: boolean;
}

const key = (r: Pick<ApiResource, 'group' | 'resource'>): string => `${r.group}/${r.resource}`;

export class RecordingReader implements Kube {
  readonly calls: Call[] = [];
  inFlight = 0;
  maxInFlight = 0;
  private spent = 0;

  constructor(private readonly data: FakeData = {}) {
    if (data.withCost)
      Object.assign(this, { cost: () => ({ requests: this.spent, bytes: this.spent * 100 }) });
  }

  private async enter<T>(method: string, args: unknown[], errorKey: string, fn: () => T): Promise<T> {
    this.calls.push({ method, args });
    this.spent++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await new Promise((r) => setTimeout(r, this.data.delayMs ?? 0));
      const error = this.data.errors?.[errorKey];
      if (error) throw error;
      return fn();
    } finally {
      this.inFlight--;
    }
  }

  /** Calls of one method. */
  of(method: string): Call[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** Paths passed to listRaw and getRaw. */
  rawPaths(): string[] {
    return this.calls
      .filter((c) => c.method === 'listRaw' || c.method === 'getRaw')
      .map((c) => String(c.args[0]));
  }

  /** As the adapter: without `core` no core types; legacy discovery with `groups` has only those groups. */
  discover(opts?: { core?: boolean; groups?: readonly string[] }): Promise<Discovery> {
    return this.enter('discover', opts ? [opts] : [], 'discover', () => {
      const d = this.data.discovery ?? { resources: [], failed: [], mode: 'aggregated' };
      const only = d.mode === 'legacy' ? opts?.groups : undefined;
      const resources = d.resources.filter((r) =>
        r.group === '' ? opts?.core !== false : only === undefined || only.includes(r.group),
      );
      return only ? { ...d, resources, onlyGroups: [...only] } : { ...d, resources };
    });
  }

  listMetadata(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    opts: { namespace?: string; limit?: number; continue?: string; labelSelector?: string },
  ): Promise<MetaPage> {
    return this.enter('listMetadata', [res, opts], key(res), () =>
      page(this.data.objects?.[key(res)] ?? [], opts),
    );
  }

  listRaw(
    path: string,
    opts?: { limit?: number; continue?: string },
  ): Promise<{ items: unknown[]; continue?: string }> {
    return this.enter('listRaw', [path, opts], path, () => page(this.data.lists?.[path] ?? [], opts ?? {}));
  }

  getRaw(path: string): Promise<unknown> {
    return this.enter('getRaw', [path], path, () => this.data.bodies?.[path]);
  }

  getNamespace(name: string): Promise<NamespaceState | undefined> {
    return this.enter('getNamespace', [name], '', () => undefined);
  }

  listNamespaces(labelSelector: string): Promise<NamespaceState[]> {
    return this.enter('listNamespaces', [labelSelector], '', () => []);
  }
  listAllNamespaces(): Promise<string> {
    return this.enter('listAllNamespaces', [], '', () => '');
  }

  // Writes: a read-only snapshot must never get here.
  deleteNamespace(name: string): Promise<DeleteAnswer | 'gone'> {
    return this.write('deleteNamespace', [name]);
  }
  watchNamespace(name: string, rv: string, _onEvent: (e: NamespaceEvent) => void): Promise<WatchHandle> {
    return this.write('watchNamespace', [name, rv]);
  }
  watchAllNamespaces(rv: string, _onEvent: (e: NamespaceEvent) => void): Promise<WatchHandle> {
    return this.write('watchAllNamespaces', [rv]);
  }
  patchFinalizers(...args: unknown[]): Promise<WriteAnswer | 'gone'> {
    return this.write('patchFinalizers', args);
  }
  patchSpec(...args: unknown[]): Promise<WriteAnswer | 'gone'> {
    return this.write('patchSpec', args);
  }
  deletePod(...args: unknown[]): Promise<DeleteAnswer | 'gone'> {
    return this.write('deletePod', args);
  }
  deleteObject(...args: unknown[]): Promise<DeleteAnswer | 'gone'> {
    return this.write('deleteObject', args);
  }
  watchObjects(...args: unknown[]): Promise<WatchHandle> {
    return this.write('watchObjects', args.slice(0, 3));
  }
  finalizeNamespace(...args: unknown[]): Promise<WriteAnswer | 'gone'> {
    return this.write('finalizeNamespace', args);
  }

  private write<T>(method: string, args: unknown[]): Promise<T> {
    this.calls.push({ method, args });
    return Promise.reject(new Error(`${method} called on a read-only path`));
  }
}

/** One page: the continue token is the offset of the next item. */
function page<T>(all: T[], opts: { limit?: number; continue?: string }): { items: T[]; continue?: string } {
  const from = Number(opts.continue ?? 0);
  const to = opts.limit ? from + opts.limit : all.length;
  return { items: all.slice(from, to), ...(to < all.length ? { continue: String(to) } : {}) };
}
