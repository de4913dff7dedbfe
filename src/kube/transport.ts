/**
 * The one request path: raw requests through client-node's RequestContext and IsomorphicFetchHttpLibrary (TLS and
 * auth come from the KubeConfig) over one reused dispatcher, with retries, 429 Retry-After, cost counting and
 * failures mapped to KubeError.
 */
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  RequestContext,
  ResponseContext,
  type KubeConfig,
} from '@kubernetes/client-node';
import { Readable } from 'node:stream';
import { messageOf } from '../shared/errors.js';
import { KubeError } from './port.js';
import { networkCode, networkError, statusError } from './http-errors.js';
import { parseJson } from './map.js';
import { JSON_TYPE, urlOf, type Req, type Res } from './request.js';
import { backoff, isRetriable, retryAfterMs } from './retry.js';

/** The part of client-node's connection pool (an undici Agent) used directly. */
interface DirectDispatcher {
  request(opts: {
    origin: string;
    path: string;
    method: string;
    headers: Record<string, string>;
    body?: string;
    signal?: AbortSignal;
  }): Promise<{
    statusCode: number;
    headers: Record<string, string | string[] | undefined>;
    body: Readable & { text(): Promise<string>; arrayBuffer(): Promise<ArrayBuffer> };
  }>;
}

/**
 * Send through the pool's own `request()` instead of WHATWG fetch: same TLS, auth and connections, a third of the
 * CPU per request. The response is wrapped in client-node's ResponseContext so callers see no difference.
 */
async function sendDirect(d: DirectDispatcher, ctx: RequestContext, url: string): Promise<ResponseContext> {
  const u = new URL(url);
  const body = ctx.getBody();
  const res = await d.request({
    origin: u.origin,
    path: `${u.pathname}${u.search}`,
    method: ctx.getHttpMethod().toString(),
    headers: ctx.getHeaders(),
    body: typeof body === 'string' ? body : undefined,
    signal: ctx.getSignal(),
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return new ResponseContext(res.statusCode, headers, {
    text: () => res.body.text(),
    binary: async () => Buffer.from(await res.body.arrayBuffer()),
    stream: () => Readable.toWeb(res.body) as ReadableStream<Uint8Array>,
  });
}

/** How long auth headers from the kubeconfig are reused before they are made again. */
const AUTH_REFRESH_MS = 60_000;

/** Resolved transport options (see `KubeClientOptions`). */
export interface TransportSettings {
  userAgent: string;
  attempts: number;
  baseMs: number;
  maxThrottle: number;
  maxWaitMs: number;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/** A final response; for a stream with status 200 the body is left unread in `response`. */
export type Exchange = Res & { response: ResponseContext };

type Tries = { failures: number; throttled: number; cachedAuth?: boolean; reauthenticated?: boolean };

/** Sends requests to the current cluster of one KubeConfig and counts what they cost. */
export class Transport {
  /** The server URL without trailing slashes, for messages. */
  readonly server: string;
  private readonly kc: KubeConfig;
  private readonly s: TransportSettings;
  private readonly http: IsomorphicFetchHttpLibrary;
  private requests = 0;
  private bytes = 0;
  /** Auth headers from the last `applySecurityAuthentication`, and when they were made. */
  private auth: { headers: Record<string, string>; at: number } | undefined;
  /** The first dispatcher client-node builds (TLS options, connection pool) is reused for every request. */
  private dispatcher: ReturnType<RequestContext['getDispatcher']>;

  constructor(kc: KubeConfig, settings: TransportSettings) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new KubeError('the kubeconfig has no current cluster', 0, 'ClientConfig');
    this.server = cluster.server.replace(/\/+$/, '');
    this.kc = kc;
    this.s = settings;
    this.http = new IsomorphicFetchHttpLibrary();
  }

  /** Send with retries; returns the final response (any status) or throws a KubeError for network failures. */
  async perform(req: Req, stream?: AbortController): Promise<Exchange> {
    const url = urlOf(this.server, req);
    const tries: Tries = { failures: 0, throttled: 0 };
    for (;;) {
      const res = await this.attempt(req, url, tries, stream);
      if (res && !(await this.retryStatus(req, res, tries))) return res;
    }
  }

  /** Request expecting JSON; 404 → undefined when `allowNotFound`; other errors → KubeError. */
  async requestJson(req: Req, allowNotFound = false): Promise<unknown> {
    const res = await this.perform(req);
    if (res.status === 404 && allowNotFound) return undefined;
    if (res.status < 200 || res.status >= 300) throw statusError(res, req);
    const parsed = parseJson(res.text);
    if (parsed === undefined) {
      throw new KubeError(
        `the server answered ${req.verb} ${req.resource ?? req.path} with a body that is not JSON`,
        res.status,
        'UnexpectedServerResponse',
        req.verb,
        req.resource,
      );
    }
    return parsed;
  }

  /** Count body bytes read from a stream. */
  countBytes(n: number): void {
    this.bytes += n;
  }

  /** Requests sent (every attempt) and response body bytes received. */
  cost(): { requests: number; bytes: number } {
    return { requests: this.requests, bytes: this.bytes };
  }

  /** Close pooled connections. */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    if (d) await d.close();
  }

  /** One attempt; undefined when a network failure is to be retried (after the backoff). */
  private async attempt(
    req: Req,
    url: string,
    tries: Tries,
    stream?: AbortController,
  ): Promise<Exchange | undefined> {
    let headerTimer: NodeJS.Timeout | undefined;
    try {
      if (stream) {
        headerTimer = setTimeout(
          () => stream.abort(new DOMException('no response headers in time', 'TimeoutError')),
          this.s.timeoutMs,
        );
      }
      const response = await this.sendOnce(req, url, tries, stream?.signal);
      const { httpStatusCode: status, headers } = response;
      clearTimeout(headerTimer);
      let text = '';
      if (!stream || status !== 200) {
        text = await response.body.text();
        this.bytes += Buffer.byteLength(text);
      }
      return { status, headers, text, response };
    } catch (err) {
      clearTimeout(headerTimer);
      if (err instanceof KubeError) throw err;
      const code = networkCode(err);
      tries.failures++;
      if (
        isRetriable(code, req.method, stream?.signal.aborted === true) &&
        tries.failures < this.s.attempts
      ) {
        const { sleep } = this.s;
        await sleep(backoff(this.s.baseMs, tries.failures));
        return undefined;
      }
      throw networkError(err, code, tries.failures, req, this.server);
    }
  }

  /** Whether a response is to be retried (429 within its budget, 5xx on GET); waits first when so. */
  private async retryStatus(req: Req, res: Res, tries: Tries): Promise<boolean> {
    const { s } = this;
    const { sleep } = s;
    if (res.status === 401 && tries.cachedAuth && !tries.reauthenticated) {
      // Cached credentials may have expired: make them again once before giving up.
      this.auth = undefined;
      tries.reauthenticated = true;
      return true;
    }
    if (res.status === 429 && tries.throttled < s.maxThrottle) {
      tries.throttled++;
      await sleep(
        retryAfterMs(res.headers, res.text, s.maxWaitMs, s.now()) ?? backoff(s.baseMs, tries.throttled),
      );
      return true;
    }
    if (res.status >= 500 && res.status !== 501 && req.method === 'GET') {
      tries.failures++;
      if (tries.failures < s.attempts) {
        await sleep(
          retryAfterMs(res.headers, res.text, s.maxWaitMs, s.now()) ?? backoff(s.baseMs, tries.failures),
        );
        return true;
      }
    }
    return false;
  }

  /**
   * TLS and auth from the kubeconfig. client-node decodes the CA and builds a new connection pool on every call,
   * which costs more CPU than the request itself: do it once, reuse the pool and the auth headers, and refresh
   * them every AUTH_REFRESH_MS so expiring credentials (exec plugins, OIDC) are renewed.
   */
  private async authenticate(ctx: RequestContext, req: Req): Promise<boolean> {
    const now = this.s.now();
    if (this.auth && this.dispatcher && now - this.auth.at < AUTH_REFRESH_MS) {
      for (const [name, value] of Object.entries(this.auth.headers)) ctx.setHeaderParam(name, value);
      ctx.setDispatcher(this.dispatcher);
      return true;
    }
    try {
      await this.kc.applySecurityAuthentication(ctx);
    } catch (err) {
      throw new KubeError(
        `cannot prepare a request to ${this.server} from the kubeconfig: ${messageOf(err)}`,
        0,
        'ClientConfig',
        req.verb,
        req.resource,
      );
    }
    this.auth = { headers: { ...ctx.getHeaders() }, at: now };
    const built = ctx.getDispatcher();
    if (built) {
      if (this.dispatcher) ctx.setDispatcher(this.dispatcher);
      else this.dispatcher = built;
    }
    return false;
  }

  /** One HTTP exchange. With `signal`, the body is returned unread (streaming). */
  private async sendOnce(
    req: Req,
    url: string,
    tries: Tries,
    signal?: AbortSignal,
  ): Promise<ResponseContext> {
    const ctx = new RequestContext(url, HttpMethod[req.method]);
    tries.cachedAuth = await this.authenticate(ctx, req);
    ctx.setHeaderParam('User-Agent', this.s.userAgent);
    ctx.setHeaderParam('Accept', req.accept ?? JSON_TYPE);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? JSON_TYPE);
      ctx.setBody(JSON.stringify(req.body));
    }
    ctx.setSignal(signal ?? AbortSignal.timeout(this.s.timeoutMs));
    this.requests++;
    const dispatcher = ctx.getDispatcher() as DirectDispatcher | undefined;
    if (typeof dispatcher?.request !== 'function') return this.http.send(ctx).toPromise();
    return sendDirect(dispatcher, ctx, url);
  }
}
