/** Helpers for tests of and against the fake server: raw HTTPS requests, watch streams, polling. */
import type { IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { StartedCluster } from './cluster.js';

/** Loosely typed JSON for assertions on server responses. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** Controller timings that make the namespace controller act within tens of milliseconds. */
export const FAST = { queueDelayMs: 20, finalizerRecheckMs: 60, errorBackoffMaxMs: 200 };

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The body as received (not decoded). */
  body: Buffer;
  text: string;
  json: Loose;
}

export interface RawOptions {
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as-is. */
  body?: unknown;
  /** Override the bearer token ('' = none). */
  token?: string;
}

const bodyText = (b: unknown): string => (typeof b === 'string' ? b : JSON.stringify(b));

function requestOptions(
  s: StartedCluster,
  method: string,
  path: string,
  o: RawOptions,
): https.RequestOptions {
  const url = new URL(path, s.url);
  const headers: Record<string, string> = { ...o.headers };
  const token = o.token ?? s.token;
  if (token) headers.Authorization = `Bearer ${token}`;
  if (o.body !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
  // Node does not chunk DELETE bodies by default: the length must be explicit.
  if (o.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(bodyText(o.body)));
  return {
    method,
    host: url.hostname,
    port: url.port,
    path: url.pathname + url.search,
    headers,
    ca: Buffer.from(s.caData, 'base64').toString('utf8'),
    agent: false,
  };
}

/** One HTTPS request through node:https with the fake's CA; the body is returned byte-exact. */
export function raw(
  s: StartedCluster,
  method: string,
  path: string,
  o: RawOptions = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = https.request(requestOptions(s, method, path, o), (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const text = body.toString('utf8');
        let json: Loose;
        try {
          json = text ? JSON.parse(text) : undefined;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text, json });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    if (o.body !== undefined) req.end(bodyText(o.body));
    else req.end();
  });
}

/** The first `bytes` bytes of an answer as received (at least; the rest is not read): the connection is then closed. */
export function head(
  s: StartedCluster,
  path: string,
  bytes: number,
  o: RawOptions = {},
): Promise<Omit<RawResponse, 'json'>> {
  return new Promise((resolve, reject) => {
    const req = https.request(requestOptions(s, 'GET', path, o), (res) => {
      const chunks: Buffer[] = [];
      let got = 0;
      const finish = (): void => {
        req.destroy();
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      };
      res.on('data', (c: Buffer) => {
        chunks.push(c);
        got += c.byteLength;
        if (got >= bytes) finish();
      });
      res.on('end', finish);
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export interface WatchStream {
  status: Promise<number>;
  headers: Promise<IncomingHttpHeaders>;
  /** Parsed events in arrival order. */
  events: Loose[];
  /** Raw bytes received. */
  text: () => string;
  /** Resolves when the server ends the stream (error set when the connection broke). */
  done: Promise<{ error?: Error }>;
  close: () => void;
}

/** Open a watch (path must include `watch=1` or `watch=true`) and collect its events. */
export function watch(s: StartedCluster, path: string): WatchStream {
  const events: Loose[] = [];
  let buf = '';
  let all = '';
  let setStatus: (n: number) => void = () => undefined;
  let setHeaders: (h: IncomingHttpHeaders) => void = () => undefined;
  let finish: (r: { error?: Error }) => void = () => undefined;
  const status = new Promise<number>((r) => (setStatus = r));
  const headers = new Promise<IncomingHttpHeaders>((r) => (setHeaders = r));
  const done = new Promise<{ error?: Error }>((r) => (finish = r));
  const req = https.request(requestOptions(s, 'GET', path, {}), (res) => {
    setStatus(res.statusCode ?? 0);
    setHeaders(res.headers);
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      all += chunk;
      buf += chunk;
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line) events.push(JSON.parse(line));
      }
    });
    res.on('end', () => finish({}));
    res.on('aborted', () => finish({ error: new Error('aborted') }));
    res.on('error', (error) => finish({ error }));
  });
  req.on('error', (error) => finish({ error }));
  req.end();
  return { status, headers, events, text: () => all, done, close: () => req.destroy() };
}

/** GET a namespace's JSON (undefined when missing). */
export const getNamespace = (s: StartedCluster, name: string): Promise<Loose> =>
  raw(s, 'GET', `/api/v1/namespaces/${name}`).then((r) => (r.status === 200 ? r.json : undefined));

/** DELETE a namespace with optional query string and DeleteOptions body. */
export const deleteNamespace = (
  s: StartedCluster,
  name: string,
  query = '',
  body?: unknown,
): Promise<RawResponse> => raw(s, 'DELETE', `/api/v1/namespaces/${name}${query}`, { body });

/** Poll until `fn` returns a truthy value; fails after `timeoutMs`. */
export async function waitFor<T>(
  fn: () => T | Promise<T>,
  timeoutMs = 5000,
  intervalMs = 10,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`waitFor: condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The JSON body a client-node ApiException carries (its `body` is a string). */
export function statusOf(e: unknown): Loose {
  const body = (e as { body?: unknown }).body;
  return typeof body === 'string' ? JSON.parse(body) : body;
}
