/**
 * One list-then-watch of all namespaces feeding the waits of many targets: one watch stream and one paged list per
 * poll, whatever the number of targets, instead of a watch and a poll loop per target. Events are matched to the
 * targets by name and checked by UID. Reads the cluster only.
 */
import type { Kube, NamespaceEvent } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import { messageOf } from '../shared/errors.js';
import { mapPool } from '../shared/map-pool.js';
import type { Clock, Logger } from '../shared/ports.js';

/** A wait the feed serves (one target). */
export interface FeedTarget {
  readonly name: string;
  readonly uid: string;
  /** A state read with a GET or a list (undefined = not there); `deleted` for a DELETED event. */
  observe(ns: NamespaceState | undefined, deleted?: boolean): void;
  /** Read the namespace now (an event named it with another UID: a GET decides). */
  readNow(): Promise<unknown>;
  /** The shared watch restarted: after 410 Expired, or after it broke. */
  noteRestart(cause: 'expired' | 'reset'): void;
}

/** From this many targets to wait for, the waits share one feed. */
export const SHARED_WATCH_FROM = 64;

/** GETs at once when the list cannot be read (RBAC without a cluster-wide list): the poll falls back to them. */
export const FALLBACK_READS = 8;

/** The feed: `add` targets, `start`, `close` when the waits are over. */
export class NamespaceFeed {
  private readonly targets = new Map<string, FeedTarget>();
  private readonly stop = new AbortController();
  private relisting: Promise<string | undefined> | undefined;

  constructor(
    private readonly kube: Kube,
    private readonly opts: { clock: Clock; logger: Logger; pollMs: number },
  ) {}

  add(target: FeedTarget): void {
    this.targets.set(target.name, target);
  }

  remove(target: FeedTarget): void {
    if (this.targets.get(target.name) === target) this.targets.delete(target.name);
  }

  /** Start the watch and the poll; they run until `close`. */
  start(): void {
    void this.watchLoop();
    void this.pollLoop();
  }

  close(): void {
    this.stop.abort();
  }

  private get closed(): boolean {
    return this.stop.signal.aborted;
  }

  private onEvent(e: NamespaceEvent): void {
    if (e.type === 'ERROR' || e.type === 'BOOKMARK') return;
    const target = this.targets.get(e.namespace.name);
    if (!target) return;
    // An event with another UID is no proof by itself: a GET decides whether the name was recreated.
    if (e.namespace.uid === target.uid) target.observe(e.namespace, e.type === 'DELETED');
    else void target.readNow();
  }

  private async watchLoop(): Promise<void> {
    let rv = (await this.relist()) ?? '';
    let backoffMs = 100;
    while (!this.closed) {
      let expired = false;
      const ended = await this.watchOnce(rv, (e) => {
        if (e.type === 'ERROR') expired = e.code === 410;
        else if (e.type === 'BOOKMARK') rv = e.resourceVersion;
        else rv = e.namespace.resourceVersion || rv;
        this.onEvent(e);
      });
      if (this.closed) return;
      const broke = expired || ended.error !== undefined;
      if (broke) for (const t of this.targets.values()) t.noteRestart(expired ? 'expired' : 'reset');
      if (ended.error) this.opts.logger.debug(`the watch on all namespaces ended: ${ended.error.message}`);
      // After a gap, list again (a namespace may have gone meanwhile) and watch on from the list's version;
      // after 410 without a list, from now (the current state is replayed).
      const listed = await this.relist();
      if (this.closed) return;
      rv = listed ?? (expired ? '' : rv);
      if (broke) {
        await this.opts.clock.sleep(backoffMs, this.stop.signal);
        backoffMs = Math.min(backoffMs * 2, 5000);
      } else backoffMs = 100;
    }
  }

  private async watchOnce(rv: string, onEvent: (e: NamespaceEvent) => void): Promise<{ error?: Error }> {
    try {
      const handle = await this.kube.watchAllNamespaces(rv, onEvent);
      const stop = (): void => handle.stop();
      this.stop.signal.addEventListener('abort', stop, { once: true });
      const ended = await handle.done;
      this.stop.signal.removeEventListener('abort', stop);
      return ended;
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
  }

  private async pollLoop(): Promise<void> {
    while (!this.closed) {
      await this.opts.clock.sleep(this.opts.pollMs, this.stop.signal);
      if (this.closed) return;
      await this.relist();
    }
  }

  /** One list at a time; callers at once share it. The list's resourceVersion, or undefined when it failed. */
  private relist(): Promise<string | undefined> {
    this.relisting ??= this.listOnce().finally(() => (this.relisting = undefined));
    return this.relisting;
  }

  /**
   * Apply one list to the targets registered before it started (absent = gone). When the list cannot be read, each
   * target is read with a GET instead, a few at a time.
   */
  private async listOnce(): Promise<string | undefined> {
    const before = [...this.targets.values()];
    const seen = new Map<string, NamespaceState>();
    try {
      const rv = await this.kube.listAllNamespaces((items) => {
        for (const ns of items) if (this.targets.has(ns.name)) seen.set(ns.name, ns);
      });
      for (const t of before) {
        const ns = seen.get(t.name);
        // Another UID under the name: a GET decides, as for a watch event.
        if (ns && ns.uid !== t.uid) void t.readNow();
        else t.observe(ns);
      }
      return rv;
    } catch (error) {
      this.opts.logger.debug(
        `listing all namespaces failed: ${messageOf(error)}; reading each target instead`,
      );
      await mapPool(before, FALLBACK_READS, async (t) => {
        if (this.targets.get(t.name) === t) await t.readNow();
      });
      return undefined;
    }
  }
}
