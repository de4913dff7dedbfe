/** The main thread's handle on the fake API server running in a worker thread (bench/server.ts). */
import { Worker } from 'node:worker_threads';
import type { Command, Reply, Results } from './protocol.js';

type Op = Command['op'];
type Args<O extends Op> = Omit<Extract<Command, { op: O }>, 'op'>;

export class RemoteCluster {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor() {
    this.worker = new Worker(new URL('./server.ts', import.meta.url));
    this.worker.on('message', (reply: Reply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      if (reply.ok) p.resolve(reply.result);
      else p.reject(new Error(`fake server: ${reply.error}`));
    });
    this.worker.on('error', (e) => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
    });
  }

  call<O extends Op>(op: O, args: Args<O>): Promise<Results[O]> {
    const id = this.next++;
    return new Promise<Results[O]>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ ...args, op, id });
    });
  }

  start(args: Args<'start'>): Promise<Results['start']> {
    return this.call('start', args);
  }
  stop(): Promise<null> {
    return this.call('stop', {});
  }
  mark(): Promise<number> {
    return this.call('mark', {});
  }
  requests(from: number): Promise<Results['requests']> {
    return this.call('requests', { from });
  }
  throttle(times: number, retryAfterSeconds: number): Promise<null> {
    return this.call('throttle', { times, retryAfterSeconds });
  }
  removals(): Promise<Results['removals']> {
    return this.call('removals', {});
  }
  busy(): Promise<Results['busy']> {
    return this.call('busy', {});
  }

  fastLists(on: boolean): Promise<null> {
    return this.call('fastLists', { on });
  }

  latency(ms: number): Promise<null> {
    return this.call('latency', { ms });
  }

  /** One pass of the (paused) namespace controller over `namespace`: it deletes what it can and writes its conditions. */
  controllerPass(namespace: string): Promise<null> {
    return this.call('controllerPass', { namespace });
  }

  /** The most requests (and watches) the server had open at once since `start`. */
  inFlight(): Promise<Results['inFlight']> {
    return this.call('inFlight', {});
  }

  async close(): Promise<void> {
    await this.stop().catch(() => undefined);
    await this.worker.terminate();
  }
}
