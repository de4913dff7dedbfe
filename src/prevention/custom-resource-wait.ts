/**
 * Wait, by watch, until given objects of one type in one namespace are gone: list (metadata only) to learn what is
 * already gone and the resourceVersion, then watch for DELETED events; list again after a gap (410, a reset). A
 * type that cannot be watched is listed every second. Bounded by a deadline and the cancel signal. Reads only.
 */
import type { ApiResource } from '../model/cluster.js';
import type { Kube, ObjectEvent, WatchHandle } from '../kube/port.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';

/** How long the wait may take and who tells the time. */
export interface GoneWaitOptions {
  deadline: number;
  signal?: AbortSignal;
  clock: Clock;
  logger: Logger;
  /** Told each time an object is seen gone (epoch ms). */
  onGone?: (uid: string, at: number) => void;
}

const POLL_MS = 1000;

class GoneWaiter {
  readonly gone = new Map<string, number>();
  private readonly pending: Set<string>;
  private readonly stop = new AbortController();

  constructor(
    private readonly kube: Kube,
    private readonly res: ApiResource,
    private readonly namespace: string,
    uids: Iterable<string>,
    private readonly opts: GoneWaitOptions,
  ) {
    this.pending = new Set(uids);
  }

  private seenGone(uid: string): void {
    if (!this.pending.delete(uid)) return;
    const at = this.opts.clock.now();
    this.gone.set(uid, at);
    this.opts.onGone?.(uid, at);
    if (this.pending.size === 0) this.stop.abort();
  }

  async run(): Promise<Map<string, number>> {
    const { clock, signal, deadline } = this.opts;
    const stopped = this.stop.signal;
    void clock.sleep(Math.max(0, deadline - clock.now()), stopped).then(() => this.stop.abort());
    if (signal?.aborted) this.stop.abort();
    signal?.addEventListener('abort', () => this.stop.abort(), { once: true, signal: stopped });
    let backoffMs = 200;
    while (this.pending.size > 0 && !stopped.aborted) {
      const rv = await this.untilStopped(this.list()).catch((error: unknown) => {
        this.opts.logger.debug(
          `listing ${this.res.resource} in ${this.namespace} failed: ${messageOf(error)}`,
        );
        return 'failed' as const;
      });
      if (stopped.aborted || this.pending.size === 0) break;
      let failed = rv === 'failed';
      if (!failed && this.res.verbs.includes('watch')) failed = await this.watch(rv as string);
      else if (!failed) await clock.sleep(POLL_MS, stopped);
      if (failed) {
        await clock.sleep(backoffMs, stopped);
        backoffMs = Math.min(backoffMs * 2, 5000);
      } else backoffMs = 200;
    }
    this.stop.abort();
    return this.gone;
  }

  /** `p`, or undefined as soon as the wait is stopped (a slow read never holds the wait past its end). */
  private untilStopped<T>(p: Promise<T>): Promise<T | undefined> {
    const stopped = this.stop.signal;
    if (stopped.aborted) return Promise.resolve(undefined);
    return Promise.race([
      p,
      new Promise<undefined>((resolve) =>
        stopped.addEventListener('abort', () => resolve(undefined), { once: true }),
      ),
    ]);
  }

  /** One full metadata list: whatever it no longer shows is gone. Returns the list's resourceVersion. */
  private async list(): Promise<string> {
    const present = new Set<string>();
    let cont: string | undefined;
    let rv = '';
    do {
      const page = await this.kube.listMetadata(this.res, {
        namespace: this.namespace,
        limit: 500,
        continue: cont,
      });
      if (cont === undefined) rv = page.resourceVersion ?? '';
      for (const item of page.items) present.add(item.uid);
      cont = page.continue;
    } while (cont !== undefined && !this.stop.signal.aborted);
    if (this.stop.signal.aborted) return rv;
    for (const uid of [...this.pending]) if (!present.has(uid)) this.seenGone(uid);
    return rv;
  }

  /** Watch from `rv` until the stream ends; true when it failed (an error, 410 Expired). */
  private async watch(rv: string): Promise<boolean> {
    let handle: WatchHandle | undefined;
    let failed = false;
    const onEvent = (e: ObjectEvent): void => {
      if (e.type === 'DELETED') this.seenGone(e.object.uid);
      else if (e.type === 'ERROR') {
        failed = true;
        handle?.stop();
      }
    };
    try {
      handle = await this.kube.watchObjects(this.res, this.namespace, rv, onEvent);
    } catch (error) {
      this.opts.logger.debug(
        `watching ${this.res.resource} in ${this.namespace} failed: ${messageOf(error)}`,
      );
      return true;
    }
    const running = handle;
    const stop = (): void => running.stop();
    this.stop.signal.addEventListener('abort', stop, { once: true });
    // An ERROR or the last DELETED may have come while the watch was starting.
    if (this.stop.signal.aborted || failed) running.stop();
    const ended = await running.done;
    this.stop.signal.removeEventListener('abort', stop);
    return failed || ended.error !== undefined;
  }
}

/** Wait until each of `uids` (objects of `res` in `namespace`) is gone or the wait ends; uid → when seen gone. */
export function waitObjectsGone(
  kube: Kube,
  res: ApiResource,
  namespace: string,
  uids: Iterable<string>,
  opts: GoneWaitOptions,
): Promise<Map<string, number>> {
  return new GoneWaiter(kube, res, namespace, uids, opts).run();
}
