/** The one request path: each request in a slot, with credentials, retried within the deadline, counted. */
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  RequestContext,
  type ResponseContext,
  type KubeConfig,
} from '@kubernetes/client-node';
import { Slots } from '../shared/slots.js';
import { Auth, type AuthSettings } from './auth.js';
import { Deadline, DEADLINE_SLACK_MS, type DeadlineSettings, stopped, untilAborted } from './deadline.js';
import { networkCode, networkError, statusError } from './http-errors.js';
import { parseJson } from './map.js';
import { SharedPool } from './pool.js';
import { KubeError } from './port.js';
import { asDryRun, urlOf, type Req, type Res } from './request.js';
import { backoff, isRetriable, statusRetry, type RetryPolicy, type Tries } from './retry.js';
import { sendOnce, type Meter } from './send.js';

export { WRITE_GRACE_MS } from './deadline.js';
export { BODY_LIMITS } from './request.js';

/** Resolved transport options (see `KubeClientOptions`): those of the deadline, credentials and retries, and: */
export interface TransportSettings extends DeadlineSettings, AuthSettings, RetryPolicy {
  userAgent: string;
  /** Ask for gzip-encoded answers (not for watches). */
  gzip: boolean;
  /** Most requests in flight at once (watches apart: they stay open); more wait for a free slot. */
  maxInFlight: number;
  /** Plan mode: every request but a GET is sent as a dry run (`asDryRun`), whoever builds it. */
  dryRun: boolean;
}

/** A final response; for a stream with status 200 the body is left unread in `response`. */
export type Exchange = Res & { response: ResponseContext };

/** Sends requests to the current cluster of one KubeConfig and counts what they cost. */
export class Transport {
  /** The server URL without trailing slashes, for messages. */
  readonly server: string;
  private readonly s: TransportSettings;
  private readonly http: IsomorphicFetchHttpLibrary;
  private readonly meter: Meter = { requests: 0, bytes: 0, answers: 0 };
  /** The deadline and cancellation of the run. */
  private readonly deadline: Deadline;
  /** The one connection pool, reused for every request. */
  private readonly pool: SharedPool;
  /** Auth headers, reused for a while, and the credentials in them. */
  private readonly auth: Auth;
  /** Slots for requests in flight (not for watch streams). */
  private readonly slots: Slots;

  constructor(kc: KubeConfig, settings: TransportSettings) {
    const cluster = kc.getCurrentCluster();
    if (!cluster) throw new KubeError('the kubeconfig has no current cluster', 0, 'ClientConfig');
    this.server = cluster.server.replace(/\/+$/, '');
    this.s = settings;
    this.http = new IsomorphicFetchHttpLibrary();
    this.deadline = new Deadline(settings);
    this.pool = new SharedPool(kc, this.deadline, settings.credentials);
    this.auth = new Auth(kc, settings, this.server, this.pool, this.deadline);
    this.slots = new Slots(Math.max(1, settings.maxInFlight));
  }

  /** Milliseconds left before the deadline (Infinity without one). */
  left(): number {
    return this.deadline.left();
  }

  /** Send with retries; returns the final response (any status) or throws a KubeError for network failures. */
  async perform(asked: Req, stream?: AbortController): Promise<Exchange> {
    // The one place a request becomes a URL and a body: in plan mode no write can leave without dryRun=All.
    const req = this.s.dryRun ? asDryRun(asked) : asked;
    const url = urlOf(this.server, req);
    const tries: Tries = { failures: 0, throttled: 0 };
    for (;;) {
      this.deadline.check(req);
      const res = stream ? await this.attempt(req, url, tries, stream) : await this.inSlot(req, url, tries);
      if (res && !(await this.retryStatus(req, res, tries))) return res;
    }
  }

  /** One attempt in a slot: at most `maxInFlight` at once; a wait for a slot ends with the deadline or a cancel. */
  private async inSlot(req: Req, url: string, tries: Tries): Promise<Exchange | undefined> {
    const cancel = this.deadline.cancelOf(req);
    if (!(await this.slots.acquire(this.deadline.waitLimit(cancel)))) {
      if (cancel?.aborted) throw stopped(req, 'the run was cancelled', 'Cancelled');
      throw stopped(req, "no slot for the request before the run's deadline", 'DeadlineExceeded');
    }
    try {
      return await this.attempt(req, url, tries);
    } finally {
      this.slots.release();
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
    this.meter.bytes += n;
  }

  /** Requests sent (every attempt), response body bytes received (as sent: compressed when they were), answers. */
  cost(): { requests: number; bytes: number; answers: number } {
    return { requests: this.meter.requests, bytes: this.meter.bytes, answers: this.meter.answers };
  }

  /** Close pooled connections. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  /** Text without any credential we sent (a server may echo the Authorization header; a plugin may print it). */
  redact(text: string): string {
    return this.auth.redact(text);
  }

  /** One attempt; undefined when a network failure is to be retried (after the backoff). */
  private async attempt(
    req: Req,
    url: string,
    tries: Tries,
    stream?: AbortController,
  ): Promise<Exchange | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const cancel = this.deadline.cancelOf(req);
    // One controller per attempt, its timer cleared and its listener removed when the attempt ends: nothing of a
    // finished request stays registered on the run's long-lived cancel signal.
    const limit = stream ?? new AbortController();
    const onCancel = (): void => limit.abort(cancel?.reason);
    let streaming = false;
    try {
      // Credentials first, bounded on their own: when an exec plugin is what takes the time, it is named.
      const ctx = new RequestContext(url, HttpMethod[req.method]);
      tries.cachedAuth = await this.auth.apply(ctx, req);
      // One request never outlives the deadline, however long the per-request timeout is.
      const timeoutMs = Math.max(1, Math.min(this.s.timeoutMs, this.left()));
      const why = stream ? 'no response headers in time' : 'The operation was aborted due to timeout';
      timer = setTimeout(() => limit.abort(new DOMException(why, 'TimeoutError')), timeoutMs);
      if (cancel?.aborted) onCancel();
      else cancel?.addEventListener('abort', onCancel, { once: true });
      const { signal } = limit;
      // The pool does not always honour the signal while it connects (a TLS handshake that never completes).
      const response = await untilAborted(
        sendOnce(this.http, ctx, req, this.s, this.meter, signal, !!stream),
        signal,
      );
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
        await this.deadline.pause(
          req,
          backoff(this.s.baseMs, tries.failures),
          'retrying after a network failure',
        );
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

  /** Whether a response is to be retried (see `statusRetry`); waits first, or drops cached credentials, when so. */
  private async retryStatus(req: Req, res: Res, tries: Tries): Promise<boolean> {
    const retry = statusRetry(req, res, tries, this.s, () => this.left());
    if (!retry) return false;
    if ('ms' in retry) await this.deadline.pause(req, retry.ms, retry.why);
    else this.auth.forget();
    return true;
  }
}
