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
import type { RequestOptions } from 'node:https';
import { Readable } from 'node:stream';
import { createSecureContext } from 'node:tls';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { messageOf } from '../shared/errors.js';
import { Slots } from '../shared/slots.js';
import { cutOutput, lastLines } from './exec-output.js';
import { KubeError } from './port.js';
import { networkCode, networkError, statusError } from './http-errors.js';
import { parseJson } from './map.js';
import { JSON_TYPE, urlOf, type Req, type Res } from './request.js';
import { backoff, isRetriable, retryAfterMs } from './retry.js';

/** client-node's connection pool (an undici Agent). */
type Dispatcher = NonNullable<ReturnType<RequestContext['getDispatcher']>>;

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

/** The most a gzip-encoded body may expand to: a small hostile body must not become gigabytes in memory. */
export const MAX_DECODED_BYTES = 128 * 1024 * 1024;

const gunzipAsync = promisify(gunzip);
const DECODE_CHUNK_BYTES = 256 * 1024;

/**
 * Send through the pool's own `request()` instead of WHATWG fetch: same TLS, auth and connections, a third of the
 * CPU per request. With `gzip`, the request asks for a compressed answer (kube-apiserver compresses those over
 * 128 KiB) and the body is decoded off the main thread; `onWire` is told the body's size as received. The response
 * is wrapped in client-node's ResponseContext so callers see no difference.
 */
async function sendDirect(
  d: DirectDispatcher,
  ctx: RequestContext,
  url: string,
  req: Req,
  gzip: boolean,
  onWire: (bytes: number) => void,
): Promise<ResponseContext> {
  const u = new URL(url);
  const body = ctx.getBody();
  const res = await d.request({
    origin: u.origin,
    path: `${u.pathname}${u.search}`,
    method: ctx.getHttpMethod().toString(),
    headers: gzip ? { ...ctx.getHeaders(), 'Accept-Encoding': 'gzip' } : ctx.getHeaders(),
    body: typeof body === 'string' ? body : undefined,
    signal: ctx.getSignal(),
  });
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const encoded = gzip && headers['content-encoding']?.trim().toLowerCase() === 'gzip';
  const binary = async (): Promise<Buffer> => {
    const wire = Buffer.from(await res.body.arrayBuffer());
    onWire(wire.byteLength);
    return encoded ? decode(wire, req) : wire;
  };
  return new ResponseContext(res.statusCode, headers, {
    text: async () => (await binary()).toString('utf8'),
    binary,
    stream: () => Readable.toWeb(res.body) as ReadableStream<Uint8Array>,
  });
}

/** A gzip body, decoded; a KubeError when it is not gzip or expands past MAX_DECODED_BYTES. */
async function decode(wire: Buffer, req: Req): Promise<Buffer> {
  try {
    // Large output chunks: zlib's default 16 KiB means a dozen main-thread callbacks per list page.
    return await gunzipAsync(wire, { maxOutputLength: MAX_DECODED_BYTES, chunkSize: DECODE_CHUNK_BYTES });
  } catch (err) {
    throw new KubeError(
      `the server's gzip-encoded answer to ${req.verb} ${req.resource ?? req.path} (${wire.byteLength} bytes) cannot be decoded: ${messageOf(err)}`,
      0,
      'UnexpectedServerResponse',
      req.verb,
      req.resource,
    );
  }
}

/** How long auth headers from the kubeconfig are reused before they are made again. */
const AUTH_REFRESH_MS = 60_000;
/** After cancellation, how long a write already sent may take to finish. */
export const WRITE_GRACE_MS = 2_000;
/** Timers fire a little early or late: this close to the deadline counts as past it. */
const DEADLINE_SLACK_MS = 50;

/** Resolved transport options (see `KubeClientOptions`). */
export interface TransportSettings {
  userAgent: string;
  attempts: number;
  baseMs: number;
  maxThrottle: number;
  maxWaitMs: number;
  timeoutMs: number;
  /** Ask for gzip-encoded answers (not for watches). */
  gzip: boolean;
  sleep: (ms: number) => Promise<void>;
  /** Epoch ms of the run's one deadline: no request is sent, waited for or retried past it. */
  deadline?: number;
  /** Cancellation: no new request; reads in flight stop at once, a write in flight gets WRITE_GRACE_MS. */
  signal?: AbortSignal;
  /** Told every credential a request carries (exec plugins, auth providers), so that it can be masked. */
  onSecret?: (secret: string) => void;
  /** What makes the credentials, for messages: "the exec credential plugin aws", "the kubeconfig credentials". */
  credentials: string;
  /** Where the text of a credential failure goes (masked and cut); it may hold secrets, so never in a message. */
  log?: (lines: string[]) => void;
  /** Where that log is, for messages: "the step log". */
  logName: string;
  /** Most requests in flight at once (watches apart: they stay open); more wait for a free slot. */
  maxInFlight: number;
  /** The time (Retry-After dates, credential refresh); injectable for tests. */
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
  /** The one connection pool (see `sharedPool`), reused for every request. */
  private dispatcher: Dispatcher | undefined;
  private pool: Promise<Dispatcher> | undefined;
  /** Credentials seen in auth headers: masked by `onSecret` and cut out of server text. */
  private readonly secrets = new Set<string>();
  /** Aborted WRITE_GRACE_MS after cancellation, for writes in flight. */
  private readonly writeSignal: AbortSignal | undefined;
  /** Slots for requests in flight (not for watch streams). */
  private readonly slots: Slots;
  private readonly waitLimits = new Map<'read' | 'write', AbortSignal>();

  constructor(kc: KubeConfig, settings: TransportSettings) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new KubeError('the kubeconfig has no current cluster', 0, 'ClientConfig');
    this.server = cluster.server.replace(/\/+$/, '');
    this.kc = kc;
    this.s = settings;
    this.http = new IsomorphicFetchHttpLibrary();
    this.writeSignal = settings.signal && graced(settings.signal, WRITE_GRACE_MS);
    this.slots = new Slots(Math.max(1, settings.maxInFlight));
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  left(): number {
    return this.s.deadline === undefined ? Infinity : this.s.deadline - this.s.now();
  }

  /** Throw when no new request may start: cancelled, or the deadline has passed. */
  private check(req: Req): void {
    if (this.s.signal?.aborted) throw stopped(req, 'the run was cancelled', 'Cancelled');
    if (this.left() <= 0) throw stopped(req, "the run's deadline has passed", 'DeadlineExceeded');
  }

  /** Wait `ms` before trying again, unless that would pass the deadline (then stop) or the run is cancelled. */
  private async pause(req: Req, ms: number, why: string): Promise<void> {
    if (ms >= this.left()) {
      const left = Math.max(0, Math.round(this.left() / 1000));
      throw stopped(
        req,
        `${why}, asked to wait ${Math.ceil(ms / 1000)} s with ${left} s left before the deadline`,
        'DeadlineExceeded',
      );
    }
    const { signal } = this.s;
    if (!signal) {
      await this.s.sleep(ms);
    } else {
      // Cancellation ends the wait at once; the listener goes with the wait.
      let onAbort = (): void => undefined;
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([this.s.sleep(ms), aborted]);
      } finally {
        signal.removeEventListener('abort', onAbort);
      }
    }
    this.check(req);
  }

  /** Send with retries; returns the final response (any status) or throws a KubeError for network failures. */
  async perform(req: Req, stream?: AbortController): Promise<Exchange> {
    const url = urlOf(this.server, req);
    const tries: Tries = { failures: 0, throttled: 0 };
    for (;;) {
      this.check(req);
      const res = stream ? await this.attempt(req, url, tries, stream) : await this.inSlot(req, url, tries);
      if (res && !(await this.retryStatus(req, res, tries))) return res;
    }
  }

  /** One attempt in a slot: at most `maxInFlight` at once; a wait for a slot ends with the deadline or a cancel. */
  private async inSlot(req: Req, url: string, tries: Tries): Promise<Exchange | undefined> {
    const cancel = req.method === 'GET' ? this.s.signal : this.writeSignal;
    if (!(await this.slots.acquire(this.waitLimit(cancel)))) {
      if (cancel?.aborted) throw stopped(req, 'the run was cancelled', 'Cancelled');
      throw stopped(req, "no slot for the request before the run's deadline", 'DeadlineExceeded');
    }
    try {
      return await this.attempt(req, url, tries);
    } finally {
      this.slots.release();
    }
  }

  /**
   * What ends a wait for a slot: the deadline or `cancel`. One signal per kind of request for the whole run, made
   * at the first wait: thousands of queued requests then hold no timer or signal of their own.
   */
  private waitLimit(cancel: AbortSignal | undefined): AbortSignal | undefined {
    const key = cancel === this.writeSignal ? 'write' : 'read';
    const made = this.waitLimits.get(key);
    if (made) return made;
    const left = this.left();
    const limits = [
      ...(Number.isFinite(left) ? [AbortSignal.timeout(Math.max(1, left))] : []),
      ...(cancel ? [cancel] : []),
    ];
    const limit = limits.length > 1 ? AbortSignal.any(limits) : limits[0];
    if (limit) this.waitLimits.set(key, limit);
    return limit;
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

  /** Requests sent (every attempt) and response body bytes received (as sent: compressed when they were). */
  cost(): { requests: number; bytes: number } {
    return { requests: this.requests, bytes: this.bytes };
  }

  /** Close pooled connections. */
  async close(): Promise<void> {
    const d = this.dispatcher;
    this.dispatcher = undefined;
    this.pool = undefined;
    if (d) await d.close();
  }

  /** One attempt; undefined when a network failure is to be retried (after the backoff). */
  private async attempt(
    req: Req,
    url: string,
    tries: Tries,
    stream?: AbortController,
  ): Promise<Exchange | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const cancel = req.method === 'GET' ? this.s.signal : this.writeSignal;
    // One controller per attempt, its timer cleared and its listener removed when the attempt ends: nothing of a
    // finished request stays registered on the run's long-lived cancel signal.
    const limit = stream ?? new AbortController();
    const onCancel = (): void => limit.abort(cancel?.reason);
    let streaming = false;
    try {
      // Credentials first, bounded on their own: when an exec plugin is what takes the time, it is named.
      const ctx = new RequestContext(url, HttpMethod[req.method]);
      tries.cachedAuth = await this.authenticate(ctx, req);
      // One request never outlives the deadline, however long the per-request timeout is.
      const timeoutMs = Math.max(1, Math.min(this.s.timeoutMs, this.left()));
      const why = stream ? 'no response headers in time' : 'The operation was aborted due to timeout';
      timer = setTimeout(() => limit.abort(new DOMException(why, 'TimeoutError')), timeoutMs);
      if (cancel?.aborted) onCancel();
      else cancel?.addEventListener('abort', onCancel, { once: true });
      const { signal } = limit;
      // The pool does not always honour the signal while it connects (a TLS handshake that never completes).
      const response = await untilAborted(this.sendOnce(ctx, req, signal, !!stream), signal);
      const { httpStatusCode: status, headers } = response;
      if (stream) clearTimeout(timer);
      let text = '';
      if (!stream || status !== 200) text = this.redact(await response.body.text());
      else {
        // The stream keeps the listener while it is read (cancellation ends it too), and drops it when it ends.
        streaming = true;
        limit.signal.addEventListener('abort', () => cancel?.removeEventListener('abort', onCancel), {
          once: true,
        });
      }
      return { status, headers, text, response };
    } catch (err) {
      if (err instanceof KubeError) throw err;
      if (cancel?.aborted) throw stopped(req, 'the run was cancelled', 'Cancelled');
      const code = networkCode(err);
      tries.failures++;
      if (
        isRetriable(code, req.method, stream?.signal.aborted === true) &&
        tries.failures < this.s.attempts &&
        this.left() > DEADLINE_SLACK_MS
      ) {
        await this.pause(req, backoff(this.s.baseMs, tries.failures), 'retrying after a network failure');
        return undefined;
      }
      if (this.left() <= DEADLINE_SLACK_MS) {
        throw stopped(req, `no answer from ${this.server} before the run's deadline`, 'DeadlineExceeded');
      }
      throw networkError(err, code, tries.failures, req, this.server);
    } finally {
      clearTimeout(timer);
      if (!streaming) cancel?.removeEventListener('abort', onCancel);
    }
  }

  /** Whether a response is to be retried (429 within its budget, 5xx on GET); waits first when so. */
  private async retryStatus(req: Req, res: Res, tries: Tries): Promise<boolean> {
    const { s } = this;
    if (res.status === 401 && tries.cachedAuth && !tries.reauthenticated) {
      // Cached credentials may have expired: make them again once before giving up.
      this.auth = undefined;
      tries.reauthenticated = true;
      return true;
    }
    if (res.status === 429 && tries.throttled < s.maxThrottle) {
      tries.throttled++;
      // A Retry-After longer than what is left means stop and report, not wait.
      const wait =
        retryAfterMs(res.headers, res.text, Infinity, s.now()) ?? backoff(s.baseMs, tries.throttled);
      await this.pause(req, wait >= this.left() ? wait : Math.min(wait, s.maxWaitMs), 'throttled (429)');
      return true;
    }
    if (res.status >= 500 && res.status !== 501 && req.method === 'GET') {
      tries.failures++;
      if (tries.failures < s.attempts && this.left() > 0) {
        const wait =
          retryAfterMs(res.headers, res.text, s.maxWaitMs, s.now()) ?? backoff(s.baseMs, tries.failures);
        await this.pause(req, wait, `retrying after HTTP ${res.status}`);
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
      // An exec credential plugin may never return: it gets the time left, like any request.
      await this.bounded(req, this.kc.applySecurityAuthentication(ctx), this.s.credentials);
    } catch (err) {
      if (err instanceof KubeError) throw err;
      throw this.credentialError(req, err);
    }
    this.auth = { headers: { ...ctx.getHeaders() }, at: now };
    this.learnSecrets(this.auth.headers);
    const built = ctx.getDispatcher();
    if (built) {
      this.pool ??= this.sharedPool(built, req);
      const pool = await this.pool;
      if (pool !== built) built.close().catch(() => undefined);
      this.dispatcher = pool;
      ctx.setDispatcher(pool);
    }
    return false;
  }

  /**
   * The connection pool, with one TLS context for all its connections. client-node's pool hands the kubeconfig's
   * CA, certificate and key to every TLS connect, so Node parses them again for each new connection (the scan opens
   * several, and every watch one more); this pool parses them once. Through a proxy, or when the TLS options cannot
   * be read again, client-node's pool stays.
   */
  private async sharedPool(built: Dispatcher, req: Req): Promise<Dispatcher> {
    const tls: RequestOptions = {};
    try {
      await this.bounded(req, this.kc.applyToHTTPSOptions(tls), this.s.credentials);
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

  /** `work`, or a KubeError when the deadline or cancellation comes first. */
  private async bounded<T>(req: Req, work: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const { signal } = this.s;
    const limit = new Promise<never>((_, reject) => {
      const fail = (): void =>
        reject(
          signal?.aborted
            ? stopped(req, 'the run was cancelled', 'Cancelled')
            : stopped(req, `${what} took until the run's deadline`, 'DeadlineExceeded'),
        );
      timer = setTimeout(fail, Math.max(0, Math.min(this.s.timeoutMs, this.left())));
      signal?.addEventListener('abort', fail, { once: true });
    });
    try {
      return await Promise.race([work, limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Remember (and hand to `onSecret`) the credentials in auth headers: bearer tokens and basic auth. */
  private learnSecrets(headers: Record<string, string>): void {
    for (const [name, value] of Object.entries(headers)) {
      if (name.toLowerCase() !== 'authorization') continue;
      const credential = value.replace(/^\s*(Bearer|Basic)\s+/i, '').trim();
      if (credential.length < 8 || this.secrets.has(credential)) continue;
      this.secrets.add(credential);
      this.s.onSecret?.(credential);
    }
  }

  /**
   * A failure of an auth provider (a command it ran, a token it refreshed): its text may quote the command's
   * arguments and output, so it goes to the log only, masked and cut; the message names where the credentials
   * come from.
   */
  private credentialError(req: Req, err: unknown): KubeError {
    const lines = lastLines(messageOf(err)).map((l) => cutOutput(this.redact(l)));
    if (this.s.log && lines.length)
      this.s.log([`${this.s.credentials} failed:`, ...lines.map((l) => `  | ${l}`)]);
    const where = this.s.log ? `; the error is in ${this.s.logName}` : '';
    return new KubeError(
      `cannot prepare a request to ${this.server}: ${this.s.credentials} failed${where}`,
      0,
      'ClientConfig',
      req.verb,
      req.resource,
    );
  }

  /** Text without any credential we sent (a server may echo the Authorization header; a plugin may print it). */
  redact(text: string): string {
    let out = text;
    // Looked for first: splitting copies the whole body (list pages are hundreds of KiB) even when nothing matches.
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
  }

  /** One HTTP exchange. With `signal`, the body is returned unread (streaming). */
  private async sendOnce(
    ctx: RequestContext,
    req: Req,
    signal?: AbortSignal,
    stream = false,
  ): Promise<ResponseContext> {
    ctx.setHeaderParam('User-Agent', this.s.userAgent);
    ctx.setHeaderParam('Accept', req.accept ?? JSON_TYPE);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? JSON_TYPE);
      ctx.setBody(JSON.stringify(req.body));
    }
    ctx.setSignal(signal ?? AbortSignal.timeout(this.s.timeoutMs));
    if (signal?.aborted) throw signal.reason;
    this.requests++;
    const dispatcher = ctx.getDispatcher() as DirectDispatcher | undefined;
    if (typeof dispatcher?.request !== 'function') {
      // No pool of ours (no TLS options at all): fetch, which negotiates and decodes compression itself.
      const res = await this.http.send(ctx).toPromise();
      const { body } = res;
      return new ResponseContext(res.httpStatusCode, res.headers, {
        text: async () => {
          const text = await body.text();
          this.bytes += Buffer.byteLength(text);
          return text;
        },
        binary: () => body.binary(),
        stream: () => body.stream(),
      });
    }
    const gzip = this.s.gzip && !stream;
    return sendDirect(dispatcher, ctx, ctx.getUrl(), req, gzip, (n) => (this.bytes += n));
  }
}

/** A KubeError for a request that was not sent or not waited for: cancelled, or past the deadline. */
function stopped(req: Req, why: string, reason: 'Cancelled' | 'DeadlineExceeded'): KubeError {
  return new KubeError(`${req.verb} ${req.resource ?? req.path}: ${why}`, 0, reason, req.verb, req.resource);
}

/** A signal that aborts `ms` after `signal` does. */
function graced(signal: AbortSignal, ms: number): AbortSignal {
  const later = new AbortController();
  signal.addEventListener('abort', () => setTimeout(() => later.abort(signal.reason), ms).unref(), {
    once: true,
  });
  return later.signal;
}

/** `work`, or the signal's reason as soon as it aborts. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
