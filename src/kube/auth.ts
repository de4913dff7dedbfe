/** Auth headers from the kubeconfig, reused a while; the credentials in them, masked; credential failures. */
import type { KubeConfig, RequestContext } from '@kubernetes/client-node';
import { messageOf } from '../shared/errors.js';
import type { Deadline } from './deadline.js';
import { cutOutput, lastLines } from './exec-output.js';
import type { SharedPool } from './pool.js';
import { KubeError } from './port.js';
import type { Req } from './request.js';

/** How long auth headers from the kubeconfig are reused before they are made again. */
const AUTH_REFRESH_MS = 60_000;

/** What credentials need (the matching fields of `TransportSettings`). */
export interface AuthSettings {
  /** Told every credential a request carries (exec plugins, auth providers), so that it can be masked. */
  onSecret?: (secret: string) => void;
  /** What makes the credentials, for messages: "the exec credential plugin aws", "the kubeconfig credentials". */
  credentials: string;
  /** Where the text of a credential failure goes (masked and cut); it may hold secrets, so never in a message. */
  log?: (lines: string[]) => void;
  /** Where that log is, for messages: "the step log". */
  logName: string;
  /** The time (credential refresh); injectable for tests. */
  now: () => number;
}

/** The credentials of one transport's requests, and the secrets among them. */
export class Auth {
  /** Auth headers from the last `applySecurityAuthentication`, and when they were made. */
  private cached: { headers: Record<string, string>; at: number } | undefined;
  /** Credentials seen in auth headers: masked by `onSecret` and cut out of server text. */
  private readonly secrets = new Set<string>();

  /** `server` is the server URL, for messages. */
  constructor(
    private readonly kc: KubeConfig,
    private readonly s: AuthSettings,
    private readonly server: string,
    private readonly pool: SharedPool,
    private readonly deadline: Deadline,
  ) {}

  /**
   * TLS and auth from the kubeconfig onto `ctx`; true when they came from the cache. client-node decodes the CA
   * and builds a new connection pool on every call, which costs more CPU than the request itself: do it once,
   * reuse the pool and the auth headers, and refresh them every AUTH_REFRESH_MS so expiring credentials (exec
   * plugins, OIDC) are renewed.
   */
  async apply(ctx: RequestContext, req: Req): Promise<boolean> {
    const now = this.s.now();
    const dispatcher = this.pool.current();
    if (this.cached && dispatcher && now - this.cached.at < AUTH_REFRESH_MS) {
      for (const [name, value] of Object.entries(this.cached.headers)) ctx.setHeaderParam(name, value);
      ctx.setDispatcher(dispatcher);
      return true;
    }
    try {
      // An exec credential plugin may never return: it gets the time left, like any request.
      await this.deadline.bounded(req, this.kc.applySecurityAuthentication(ctx), this.s.credentials);
    } catch (err) {
      if (err instanceof KubeError) throw err;
      throw this.credentialError(req, err);
    }
    this.cached = { headers: { ...ctx.getHeaders() }, at: now };
    this.learnSecrets(this.cached.headers);
    const built = ctx.getDispatcher();
    if (built) ctx.setDispatcher(await this.pool.adopt(built, req));
    return false;
  }

  /** Drop the cached auth headers (they may have expired): the next request makes them again. */
  forget(): void {
    this.cached = undefined;
  }

  /** Text without any credential we sent (a server may echo the Authorization header; a plugin may print it). */
  redact(text: string): string {
    let out = text;
    // Looked for first: splitting copies the whole body (list pages are hundreds of KiB) even when nothing matches.
    for (const secret of this.secrets) if (out.includes(secret)) out = out.split(secret).join('***');
    return out;
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
}
