/** The one connection pool a transport reuses for every request, one parsed TLS context for all of it. */
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';
import type { RequestOptions } from 'node:https';
import { createSecureContext } from 'node:tls';
import type { Deadline } from './deadline.js';
import type { Req } from './request.js';

/** client-node's connection pool (an undici Agent). */
export type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

/** The pool of one KubeConfig's current cluster, made from the first pool client-node builds. */
export class SharedPool {
  /** The pool in use, once made. */
  private dispatcher: Dispatcher | undefined;
  private pool: Promise<Dispatcher> | undefined;

  /** `credentials` names what makes the credentials, for messages (see `TransportSettings`). */
  constructor(
    private readonly kc: KubeConfig,
    private readonly deadline: Deadline,
    private readonly credentials: string,
  ) {}

  /** The pool in use, if one has been made (and not closed since). */
  current(): Dispatcher | undefined {
    return this.dispatcher;
  }

  /** The pool to use instead of `built` (client-node's new one, closed unless it is the one kept). */
  async adopt(built: Dispatcher, req: Req): Promise<Dispatcher> {
    this.pool ??= this.make(built, req);
    const pool = await this.pool;
    if (pool !== built) built.close().catch(() => undefined);
    this.dispatcher = pool;
    return pool;
  }

  /** Close pooled connections. */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    this.pool = undefined;
    if (d) await d.close();
  }

  /**
   * The connection pool, with one TLS context for all its connections. client-node's pool hands the kubeconfig's
   * CA, certificate and key to every TLS connect, so Node parses them again for each new connection (the scan opens
   * several, and every watch one more); this pool parses them once. Through a proxy, or when the TLS options cannot
   * be read again, client-node's pool stays.
   */
  private async make(built: Dispatcher, req: Req): Promise<Dispatcher> {
    const tls: RequestOptions = {};
    try {
      await this.deadline.bounded(req, this.kc.applyToHTTPSOptions(tls), this.credentials);
    } catch {
      return built;
    }
    const { ca, cert, key, pfx, passphrase, rejectUnauthorized, servername } = tls;
    const plan = this.kc.createDispatcherOptions(this.kc.getCurrentCluster(), {
      ca,
      cert,
      key,
      pfx,
      passphrase,
      rejectUnauthorized,
      servername,
    });
    if (plan.type !== 'agent') return built;
    const connect: Record<string, unknown> = { ...plan.connect };
    for (const material of ['ca', 'cert', 'key', 'pfx', 'passphrase']) delete connect[material];
    connect.secureContext = createSecureContext({ ca, cert, key, pfx, passphrase });
    // The same pool class client-node builds (undici's Agent), with the parsed context instead of the raw material.
    const Pool = built.constructor as new (options: { connect: Record<string, unknown> }) => Dispatcher;
    return new Pool({ connect });
  }
}
