/** Watch-based wait for one namespace to be gone, with a slow poll as a safety net. Reads the cluster only. */
import { describeError } from '../diagnosis/index.js';
import { KubeError, type Kube, type NamespaceEvent, type WatchHandle } from '../kube/port.js';
import type { NamespaceState } from '../model/cluster.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { FeedTarget, NamespaceFeed } from './feed.js';

/** What the wait saw of one namespace. */
export interface WaitRecord {
  /** Phase changes with the time they were seen (ms since epoch). */
  transitions: { phase: string; at: number }[];
  /** The last state seen before the namespace went away or the wait ended. */
  last: NamespaceState;
  /** When the namespace was seen gone. */
  goneAt?: number;
  /** Set when the name now belongs to a new namespace (another UID): the old one is gone. */
  recreatedUid?: string;
  /** Watch restarts, by cause, for the report. */
  restarts: { expired: number; reset: number };
  /** The last read of the namespace was refused (403): this identity may no longer see it. Cleared by a read. */
  forbidden?: string;
}

export interface WaitOptions {
  deadline: number;
  /** Cancellation: ends the wait like the deadline does. */
  signal?: AbortSignal;
  /** Ends the wait early too, without the namespace gone: `wait: settled` found it settled. */
  settled?: AbortSignal;
  clock: Clock;
  logger: Logger;
  /** Safety-net poll interval; the watch normally reports first. */
  pollMs: number;
  /** Called on every state change (for progress lines). */
  onChange?: (record: WaitRecord) => void;
  /** The shared watch and list of many targets; absent = this wait watches and polls its namespace itself. */
  feed?: NamespaceFeed;
}

type Finish = (why: 'gone' | 'recreated' | 'timeout') => void;

class NamespaceWaiter implements FeedTarget {
  readonly record: WaitRecord;
  private readonly stop = new AbortController();
  private finished = false;
  private resolveDone!: () => void;
  readonly done = new Promise<void>((resolve) => (this.resolveDone = resolve));

  constructor(
    private readonly kube: Kube,
    private readonly initial: NamespaceState,
    private readonly opts: WaitOptions,
  ) {
    this.record = {
      transitions: [{ phase: initial.phase, at: opts.clock.now() }],
      last: initial,
      restarts: { expired: 0, reset: 0 },
    };
  }

  get name(): string {
    return this.initial.name;
  }

  get uid(): string {
    return this.initial.uid;
  }

  readonly finish: Finish = (why) => {
    if (this.finished) return;
    this.finished = true;
    if (why !== 'timeout') this.record.goneAt = this.opts.clock.now();
    this.opts.feed?.remove(this);
    this.stop.abort();
    this.resolveDone();
  };

  noteRestart(cause: 'expired' | 'reset'): void {
    if (!this.finished) this.record.restarts[cause]++;
  }

  /** Apply a state read with GET (undefined = not found); only a GET may show the name recreated. */
  observe(ns: NamespaceState | undefined, deleted = false): void {
    if (this.finished) return;
    if (ns === undefined) return this.finish('gone');
    if (ns.name !== this.initial.name || !ns.uid) return;
    if (ns.uid !== this.initial.uid) {
      this.record.recreatedUid = ns.uid;
      return this.finish('recreated');
    }
    if (deleted) return this.finish('gone');
    const previous = this.record.last.phase;
    this.record.last = ns;
    if (ns.phase !== previous) this.record.transitions.push({ phase: ns.phase, at: this.opts.clock.now() });
    this.opts.onChange?.(this.record);
  }

  async run(): Promise<WaitRecord> {
    this.opts.onChange?.(this.record);
    const remaining = this.opts.deadline - this.opts.clock.now();
    void this.opts.clock.sleep(Math.max(0, remaining), this.stop.signal).then(() => this.finish('timeout'));
    const cancel = this.opts.signal;
    if (cancel?.aborted) this.finish('timeout');
    cancel?.addEventListener('abort', () => this.finish('timeout'), { once: true, signal: this.stop.signal });
    this.opts.settled?.addEventListener('abort', () => this.finish('timeout'), {
      once: true,
      signal: this.stop.signal,
    });
    if (this.opts.feed) {
      if (!this.finished) this.opts.feed.add(this);
    } else {
      void this.watchLoop();
      void this.pollLoop();
    }
    await this.done;
    return this.record;
  }

  private async watchLoop(): Promise<void> {
    let rv = this.initial.resourceVersion;
    let backoffMs = 100;
    while (!this.finished) {
      let expired = false;
      const onEvent = (e: NamespaceEvent): void => {
        if (e.type === 'ERROR') {
          expired = e.code === 410;
          return;
        }
        if (e.type === 'BOOKMARK') rv = e.resourceVersion;
        else if (e.namespace.name === this.initial.name) {
          rv = e.namespace.resourceVersion;
          // An event with another UID is no proof by itself: a GET decides whether the name was recreated.
          if (e.namespace.uid === this.initial.uid) this.observe(e.namespace, e.type === 'DELETED');
          else void this.readNow();
        }
      };
      const ended = await this.watchOnce(rv, onEvent);
      if (this.finished) return;
      if (expired) this.record.restarts.expired++;
      else if (ended.error) this.record.restarts.reset++;
      if (ended.error) this.opts.logger.debug(`watch on ${this.initial.name} ended: ${ended.error.message}`);
      // After a gap (expired resourceVersion, reset), re-read: the namespace may have gone meanwhile.
      const fresh = await this.readNow();
      if (this.finished) return;
      // After 410 the history is compacted: restart from "now" (no resourceVersion), which replays the current state.
      if (expired) rv = '';
      else if (fresh !== undefined && fresh !== 'error') rv = fresh.resourceVersion;
      if (ended.error || expired) {
        await this.opts.clock.sleep(backoffMs, this.stop.signal);
        backoffMs = Math.min(backoffMs * 2, 5000);
      } else backoffMs = 100;
    }
  }

  private async watchOnce(rv: string, onEvent: (e: NamespaceEvent) => void): Promise<{ error?: Error }> {
    let handle: WatchHandle;
    try {
      handle = await this.kube.watchNamespace(this.initial.name, rv, onEvent);
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
    const stop = (): void => handle.stop();
    this.stop.signal.addEventListener('abort', stop, { once: true });
    const ended = await handle.done;
    this.stop.signal.removeEventListener('abort', stop);
    return ended;
  }

  async readNow(): Promise<NamespaceState | undefined | 'error'> {
    try {
      const ns = await this.kube.getNamespace(this.initial.name);
      delete this.record.forbidden;
      this.observe(ns);
      return ns;
    } catch (error) {
      this.opts.logger.debug(`reading ${this.initial.name} failed: ${messageOf(error)}`);
      if (error instanceof KubeError && error.code === 403) this.record.forbidden = describeError(error);
      return 'error';
    }
  }

  private async pollLoop(): Promise<void> {
    while (!this.finished) {
      await this.opts.clock.sleep(this.opts.pollMs, this.stop.signal);
      if (this.finished) return;
      await this.readNow();
    }
  }
}

/** Wait until `initial` is gone (its UID no longer exists), or the deadline passes. Never writes. */
export function waitUntilGone(kube: Kube, initial: NamespaceState, opts: WaitOptions): Promise<WaitRecord> {
  return new NamespaceWaiter(kube, initial, opts).run();
}
