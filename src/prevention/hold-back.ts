/**
 * Holding back the DELETE of a target that hosts a live actor for objects in other targets: until those targets are
 * gone (their stories ended), or until its share of the timeout ends — said so either way.
 */
import { formatDuration } from '../shared/duration.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { CustomResourcesPhase } from '../model/prevention.js';
import type { Served } from './delete-order.js';

/** Why and how long a host was held. */
export type Held = NonNullable<CustomResourcesPhase['held']>;

export class Holds {
  private served = new Map<string, Served[]>();
  private readonly ended = new Map<string, { promise: Promise<void>; resolve: () => void }>();

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Which targets each host serves (from the pre-mortems). */
  set(served: Map<string, Served[]>): void {
    this.served = served;
    for (const [host, list] of served)
      this.logger.info(
        `${host}: deleted after ${list.map((x) => x.target).join(', ')}: ${list.map((x) => x.why).join('; ')}`,
      );
  }

  private endOf(name: string): { promise: Promise<void>; resolve: () => void } {
    let entry = this.ended.get(name);
    if (!entry) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      entry = { promise, resolve };
      this.ended.set(name, entry);
    }
    return entry;
  }

  /** A target's story ended (gone, stuck at the timeout, or failed): its hosts need not wait for it any more. */
  finished(name: string): void {
    this.endOf(name).resolve();
  }

  /** Plan mode: how `host` would be held (after the targets it serves), without waiting for anything. */
  planned(host: string): Held | undefined {
    const list = this.served.get(host);
    if (!list?.length) return undefined;
    return {
      serves: list.map((x) => x.target),
      why: list.map((x) => x.why).join('; '),
      ended: 'planned',
      ms: 0,
    };
  }

  /** Wait, when `host` serves other targets, until they ended or `until`; what was waited for, and how it ended. */
  async wait(host: string, until: number, signal?: AbortSignal): Promise<Held | undefined> {
    const list = this.served.get(host);
    if (!list?.length) return undefined;
    const started = this.clock.now();
    const stop = new AbortController();
    const abort = (): void => stop.abort();
    signal?.addEventListener('abort', abort, { once: true });
    let served = false;
    const all = Promise.all(list.map((x) => this.endOf(x.target).promise)).then(() => (served = true));
    await Promise.race([all, this.clock.sleep(Math.max(0, until - started), stop.signal)]);
    stop.abort();
    signal?.removeEventListener('abort', abort);
    const ms = this.clock.now() - started;
    const ended = served ? 'served-gone' : 'share-ended';
    const serves = list.map((x) => x.target);
    const words = served
      ? `held ${formatDuration(ms)} until ${serves.join(', ')} ended`
      : `held until its share of the timeout ended (${formatDuration(ms)}); ${serves.join(', ')} had not ended`;
    this.logger.info(`${host}: ${words}; deleting it now`);
    return { serves, why: list.map((x) => x.why).join('; '), ended, ms };
  }
}
