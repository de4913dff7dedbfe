/** The HTTP front: request log, latency, bearer auth, throttling, fault injection, routing. */
import { createHash, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { stringify as toYaml, parse as parseYaml } from 'yaml';
import type { Core } from './core.js';
import { answerAccessReview } from './access-review.js';
import { authorize } from './admission.js';
import { endlessList } from './endless.js';
import {
  ApiError,
  badRequest,
  methodNotAllowed,
  routeNotFound,
  status,
  tooManyRequests,
  unauthorized,
  unsupportedMediaType,
} from './errors.js';
import { parseResourcePath, handleResource } from './handlers.js';
import { negotiate } from './render.js';
import { versionInfo } from './discovery.js';
import type { JsonMap } from './types.js';

/** One request as the server saw it. */
export interface RequestRecord {
  method: string;
  path: string;
  query: string;
  status: number;
  bytesOut: number;
  /** Body bytes before compression (equal to bytesOut when the answer went uncompressed). */
  bodyBytes: number;
  accept?: string;
  /** The Accept-Encoding header as sent. */
  acceptEncoding?: string;
  contentType?: string;
  body?: unknown;
  at: number;
}

/**
 * How a matched request is answered: a canned response (default); `reset` destroys the connection; `hang`
 * reads the request and never answers; `endless-line` sends 200 and then bytes without a newline, forever;
 * `endless-body` sends 200 and a list whose items never end, as fast as the client reads; `gzip-bomb` the same
 * gzip-encoded (a few KiB on the wire per MiB decoded).
 */
export type FaultAction = 'respond' | 'reset' | 'hang' | 'endless-line' | 'endless-body' | 'gzip-bomb';

export interface Fault {
  method?: string;
  path: RegExp;
  /** Also match the query string (e.g. `watch=1`). */
  query?: RegExp;
  action: FaultAction;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  times: number;
}

/** Answer a matched fault that is not a canned response. */
function misbehave(action: FaultAction, res: ServerResponse): void {
  if (action === 'reset') {
    res.socket?.destroy();
    return;
  }
  if (action === 'endless-body' || action === 'gzip-bomb') return endlessList(res, action === 'gzip-bomb');
  if (action === 'endless-line') {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
    const chunk = `{"type":"MODIFIED","object":{"kind":"Namespace","metadata":{"name":"${'x'.repeat(64 * 1024)}`;
    const timer = setInterval(() => {
      if (res.destroyed || res.writableEnded) clearInterval(timer);
      else res.write(chunk);
    }, 5);
    res.on('close', () => clearInterval(timer));
  }
  // 'hang': never answer; the server's stop() closes the connection.
}

export interface FrontState {
  token: string;
  latencyMs: number;
  requests: RequestRecord[];
  faults: Fault[];
  throttle: { left: number; retryAfterSeconds: number };
  serverAddress: () => string;
}

type Headers = Record<string, string | string[]>;

/** The size before compression of each compressed answer, for the request log. */
const decodedBytes = new WeakMap<ServerResponse, number>();

/** kube-apiserver's defaultGzipContentEncodingLevel: 1 since 1.26 (and patch releases of 1.22–1.25), 4 before. */
const GZIP_LEVEL = 1;

/** kube-apiserver compresses an answer only when it is larger than this (defaultGzipThresholdBytes). */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;

/** Whether Accept-Encoding has the exact token `gzip`, as the server's negotiateContentEncoding reads it. */
function acceptsGzip(req: IncomingMessage | undefined): boolean {
  const header = req?.headers['accept-encoding'];
  return typeof header === 'string' && header.split(',').some((token) => token.trim() === 'gzip');
}

/**
 * Write an API answer as kube-apiserver does (APIResponseCompression, on by default): gzip with
 * `Content-Encoding: gzip` and `Vary: Accept-Encoding` when the client accepts it and the body is over
 * GZIP_THRESHOLD_BYTES; otherwise as it is.
 */
function writeApiBody(res: ServerResponse, code: number, headers: Headers, text: string): void {
  const body = Buffer.from(text);
  if (body.byteLength <= GZIP_THRESHOLD_BYTES || !acceptsGzip(res.req)) {
    res.writeHead(code, headers);
    res.end(body);
    return;
  }
  decodedBytes.set(res, body.byteLength);
  const vary = [headers.Vary ?? [], 'Accept-Encoding'].flat();
  res.writeHead(code, { ...headers, 'Content-Encoding': 'gzip', Vary: vary });
  res.end(gzipSync(body, { level: GZIP_LEVEL }));
}

function sendJson(
  res: ServerResponse,
  code: number,
  body: unknown,
  headers: Headers = {},
  yaml = false,
): void {
  const text = yaml ? toYaml(body) : `${JSON.stringify(body)}\n`;
  const head = {
    'Audit-Id': randomUUID(),
    'Cache-Control': 'no-cache, private',
    'Content-Type': yaml ? 'application/yaml' : 'application/json',
    ...headers,
  };
  writeApiBody(res, code, head, text);
}

function sendText(res: ServerResponse, code: number, text: string | Uint8Array, headers: Headers = {}): void {
  res.writeHead(code, {
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

const AGGREGATED_V2 = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const AGGREGATED_V2BETA1 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList';

/** The aggregated discovery media type the Accept header asks for first, if the server version serves it. */
function aggregatedType(accept: string | undefined, version: string): string | undefined {
  for (const part of (accept ?? '').split(',')) {
    const [type = '', ...params] = part.split(';').map((s) => s.trim());
    const p = Object.fromEntries(params.map((x) => x.split('=') as [string, string]));
    if (type === 'application/json' && p.as === 'APIGroupDiscoveryList' && p.g === 'apidiscovery.k8s.io') {
      if (p.v === 'v2' && version !== '1.29') return AGGREGATED_V2;
      if (p.v === 'v2beta1' && version === '1.29') return AGGREGATED_V2BETA1;
      continue;
    }
    if ((type === 'application/json' && !p.as) || type === '*/*') return undefined;
  }
  return undefined;
}

function sendDiscovery(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  isCore: boolean,
  legacy: () => JsonMap,
): void {
  const mediaType = aggregatedType(req.headers.accept, core.version);
  if (!mediaType) return sendJson(res, 200, legacy());
  const doc = core.discovery.aggregated(isCore);
  if (mediaType === AGGREGATED_V2BETA1) doc.apiVersion = 'apidiscovery.k8s.io/v2beta1';
  const text = `${JSON.stringify(doc)}\n`;
  const etag = JSON.stringify(createHash('sha512').update(text).digest('hex').toUpperCase());
  const headers = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { ...headers, 'Content-Type': mediaType });
    res.end();
    return;
  }
  writeApiBody(res, 200, { ...headers, 'Content-Type': mediaType }, text);
}

function wantsYaml(accept: string | undefined): boolean {
  try {
    return negotiate(accept) === 'yaml';
  } catch {
    return false;
  }
}

const BODY_TYPES = /^(application\/(json|yaml|[a-z-]+-patch\+(json|yaml))|\*\/\*)?$/;

function parseBody(raw: string, contentType: string): unknown {
  if (raw === '') return undefined;
  if (!BODY_TYPES.test(contentType.split(';')[0]?.trim() ?? '')) {
    throw unsupportedMediaType(['application/json', 'application/yaml']);
  }
  try {
    if (contentType.includes('yaml')) return parseYaml(raw) as unknown;
    return JSON.parse(raw) as unknown;
  } catch (e) {
    throw badRequest(`couldn't get version/kind; json parse error: ${(e as Error).message}`);
  }
}

function route(
  core: Core,
  st: FrontState,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  body: unknown,
): void {
  const parts = url.pathname.split('/').filter(Boolean);
  const method = req.method ?? 'GET';
  const ct = (req.headers['content-type'] ?? '').split(';')[0]?.trim() ?? '';
  const [root, a, b] = parts;
  if (root === 'version' && parts.length === 1) return sendJson(res, 200, versionInfo(core.version));
  if (['healthz', 'livez', 'readyz'].includes(root ?? '')) return sendText(res, 200, 'ok');
  let path: ReturnType<typeof parseResourcePath>;
  if (root === 'api' && parts.length === 1) {
    return sendDiscovery(core, req, res, true, () => core.discovery.apiVersions(st.serverAddress()));
  }
  if (root === 'apis' && parts.length === 1)
    return sendDiscovery(core, req, res, false, () => core.discovery.apiGroupList());
  if (root === 'api' && a === 'v1') {
    if (parts.length === 2) {
      const types = core.registry.all().filter((t) => t.group === '');
      return sendJson(res, 200, core.discovery.resourceList('', 'v1', types));
    }
    path = parseResourcePath('', 'v1', parts.slice(2));
  } else if (root === 'apis' && a) {
    if (parts.length === 2) {
      const g = core.discovery.apiGroup(a);
      if (!g) throw routeNotFound();
      return sendJson(res, 200, g);
    }
    // Not a stored type: answered, never kept (and not among the groups discovery shows: the fake serves a subset).
    if (
      a === 'authorization.k8s.io' &&
      b === 'v1' &&
      parts[3] === 'subjectaccessreviews' &&
      parts.length === 4
    )
      return sendJson(res, 201, accessReview(core, method, body));
    const gv = b ? core.discovery.gv(a, b) : undefined;
    if (!gv || !b) throw routeNotFound();
    if (!gv.local && !gv.available) return sendText(res, 503, 'service unavailable\n');
    if (parts.length === 3)
      return sendJson(res, 200, core.discovery.resourceList(a, b, core.discovery.typesOf(gv)));
    if (
      a === 'authorization.k8s.io' &&
      b === 'v1' &&
      parts[3] === 'subjectaccessreviews' &&
      parts.length === 4
    )
      return sendJson(res, 201, accessReview(core, method, body));
    const p = parseResourcePath(a, b, parts.slice(3));
    if (p && !gv.local) {
      const t = core.discovery.typesOf(gv).find((x) => x.resource === p.resource);
      if (!t || p.name || method !== 'GET') throw routeNotFound();
      return sendJson(res, 200, { kind: `${t.kind}List`, apiVersion: `${a}/${b}`, metadata: {}, items: [] });
    }
    path = p;
  } else throw routeNotFound();
  if (!path) throw routeNotFound();
  const reply = handleResource(core, {
    method,
    path,
    query: url.searchParams,
    accept: req.headers.accept,
    contentType: ct,
    body,
    res,
  });
  if (reply === 'streamed') return;
  sendJson(res, reply.code, reply.body, reply.headers, wantsYaml(req.headers.accept));
}

/** A SubjectAccessReview: created (never stored) by a client allowed to, answered from RBAC and the outside grants. */
function accessReview(core: Core, method: string, body: unknown): JsonMap {
  if (method !== 'POST') throw methodNotAllowed();
  const resource = 'subjectaccessreviews';
  authorize(
    { verb: 'create', group: 'authorization.k8s.io', resource, sub: '', namespace: '', name: '' },
    core.denyRules,
  );
  return answerAccessReview(core.store, core.outsideGrants, body);
}

/** The request listener of the HTTPS server. */
export function makeHandler(core: Core, st: FrontState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    // A client that aborts mid-request leaves nothing to answer.
    serve(core, st, req, res).catch(() => res.destroy());
  };
}

async function serve(core: Core, st: FrontState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'https://fake.invalid');
  const contentType = req.headers['content-type'];
  const rec: RequestRecord = {
    method: req.method ?? 'GET',
    path: url.pathname,
    query: url.search.replace(/^\?/, ''),
    status: 0,
    bytesOut: 0,
    bodyBytes: 0,
    accept: req.headers.accept,
    acceptEncoding: req.headers['accept-encoding'],
    contentType,
    at: Date.now(),
  };
  st.requests.push(rec);
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const count = (chunk: unknown): void => {
    if (typeof chunk === 'string') rec.bytesOut += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) rec.bytesOut += chunk.byteLength;
  };
  res.write = ((...args: unknown[]) => {
    count(args[0]);
    return write(...args);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (typeof args[0] !== 'function') count(args[0]);
    return end(...args);
  }) as typeof res.end;
  res.on('finish', () => {
    rec.status = res.statusCode;
    rec.bodyBytes = decodedBytes.get(res) ?? rec.bytesOut;
  });
  const head = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((...args: unknown[]) => {
    rec.status = Number(args[0]);
    return head(...args);
  }) as typeof res.writeHead;

  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  try {
    rec.body = raw ? (JSON.parse(raw) as unknown) : undefined;
  } catch {
    rec.body = raw;
  }
  if (st.latencyMs > 0) await sleep(st.latencyMs);
  try {
    if (req.headers.authorization !== `Bearer ${st.token}`) throw unauthorized();
    if (st.throttle.left > 0) {
      st.throttle.left--;
      throw tooManyRequests(st.throttle.retryAfterSeconds);
    }
    const fault = st.faults.find(
      (f) =>
        (!f.method || f.method === rec.method) &&
        f.path.test(rec.path) &&
        (!f.query || f.query.test(rec.query)) &&
        f.times > 0,
    );
    if (fault) {
      fault.times--;
      if (fault.times <= 0) st.faults.splice(st.faults.indexOf(fault), 1);
      if (fault.action !== 'respond') return misbehave(fault.action, res);
      if (typeof fault.body === 'string' || fault.body instanceof Uint8Array)
        return sendText(res, fault.status, fault.body, fault.headers);
      const reason = fault.status >= 500 ? 'InternalError' : 'BadRequest';
      return sendJson(
        res,
        fault.status,
        fault.body ?? status(fault.status, reason, `injected ${fault.status}`),
        fault.headers,
      );
    }
    route(core, st, req, res, url, parseBody(raw, contentType ?? ''));
  } catch (e) {
    if (e instanceof ApiError) return sendJson(res, e.code, e.status, e.headers);
    const msg = e instanceof Error ? e.message : String(e);
    sendJson(res, 500, status(500, 'InternalError', `Internal error occurred: ${msg}`));
  }
}
