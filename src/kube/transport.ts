/**
 * The one request path: raw requests through client-node's RequestContext and IsomorphicFetchHttpLibrary (TLS and
 * auth come from the KubeConfig) over one reused dispatcher, with retries, 429 Retry-After, cost counting and
 * failures mapped to KubeError.
 */
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  RequestContext,
  type KubeConfig,
  type ResponseContext,
} from '@kubernetes/client-node';
import { KubeError } from './port.js';
import { errorText, networkCode, networkError, statusError } from './http-errors.js';
import { parseJson } from './map.js';
import { JSON_TYPE, urlOf, type Req, type Res } from './request.js';
import { backoff, isRetriable, retryAfterMs } from './retry.js';

/** Resolved transport options (see `KubeClientOptions`). */
export interface TransportSettings {
  userAgent: string;
  attempts: number;
  baseMs: number;
  maxThrottle: number;
  maxWaitMs: number;
  timeoutMs: number;
  sleep: (ms: number) => Promise<void>;
}

/** A final response; for a stream with status 200 the body is left unread in `response`. */
export type Exchange = Res & { response: ResponseContext };

type Tries = { failures: number; throttled: number };

/** Sends requests to the current cluster of one KubeConfig and counts what they cost. */
export class Transport {
  /** The server URL without trailing slashes, for messages. */
  readonly server: string;
  private readonly kc: KubeConfig;
  private readonly s: TransportSettings;
  private readonly http: IsomorphicFetchHttpLibrary;
  private requests = 0;
  private bytes = 0;
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
      const response = await this.sendOnce(req, url, stream?.signal);
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
    if (res.status === 429 && tries.throttled < s.maxThrottle) {
      tries.throttled++;
      await sleep(retryAfterMs(res.headers, res.text, s.maxWaitMs) ?? backoff(s.baseMs, tries.throttled));
      return true;
    }
    if (res.status >= 500 && res.status !== 501 && req.method === 'GET') {
      tries.failures++;
      if (tries.failures < s.attempts) {
        await sleep(retryAfterMs(res.headers, res.text, s.maxWaitMs) ?? backoff(s.baseMs, tries.failures));
        return true;
      }
    }
    return false;
  }

  /** One HTTP exchange. With `signal`, the body is returned unread (streaming). */
  private async sendOnce(req: Req, url: string, signal?: AbortSignal): Promise<ResponseContext> {
    const ctx = new RequestContext(url, HttpMethod[req.method]);
    try {
      await this.kc.applySecurityAuthentication(ctx);
    } catch (err) {
      throw new KubeError(
        `cannot prepare a request to ${this.server} from the kubeconfig: ${errorText(err)}`,
        0,
        'ClientConfig',
        req.verb,
        req.resource,
      );
    }
    const built = ctx.getDispatcher();
    if (built) {
      if (this.dispatcher) ctx.setDispatcher(this.dispatcher);
      else this.dispatcher = built;
    }
    ctx.setHeaderParam('User-Agent', this.s.userAgent);
    ctx.setHeaderParam('Accept', req.accept ?? JSON_TYPE);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? JSON_TYPE);
      ctx.setBody(JSON.stringify(req.body));
    }
    ctx.setSignal(signal ?? AbortSignal.timeout(this.s.timeoutMs));
    this.requests++;
    return this.http.send(ctx).toPromise();
  }
}
