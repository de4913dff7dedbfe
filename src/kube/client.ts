/**
 * The Kubernetes adapter: implements the `Kube` port with raw requests through client-node's RequestContext and
 * IsomorphicFetchHttpLibrary (TLS and auth come from the KubeConfig), so every call shares one retry, error and
 * cost path, and no generated API class is needed.
 */
import {
  HttpMethod,
  IsomorphicFetchHttpLibrary,
  RequestContext,
  type KubeConfig,
  type ResponseContext,
} from '@kubernetes/client-node';
import {
  KubeError,
  type ApiResource,
  type Condition,
  type Discovery,
  type Kube,
  type MetaPage,
  type NamespaceEvent,
  type NamespaceState,
  type ObjectMeta,
  type OwnerRef,
  type WatchHandle,
} from './port.js';

/** Options of `createKube`. All optional; the defaults suit the action. */
export interface KubeClientOptions {
  /** User-Agent header. Default `namespace-teardown`. */
  userAgent?: string;
  /** Transient failures (network errors, 5xx on GET): total attempts and the first backoff. Default 3 / 250 ms. */
  retry?: { attempts: number; baseMs: number };
  /** 429: how many times to honour Retry-After (default 5) and the longest wait per time (default 30 000 ms). */
  throttle?: { maxRetries: number; maxWaitMs: number };
  /** Per-request timeout (until the whole body is read; for a watch, until the headers). Default 60 000 ms. */
  timeoutMs?: number;
  /** Server-side `timeoutSeconds` of a watch. Default 290. */
  watchTimeoutSeconds?: number;
  /** Parallel requests during legacy discovery. Default 8. */
  discoveryConcurrency?: number;
  /** Waiting between retries; injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
}

/** The adapter: the port plus request accounting and cleanup. */
export type KubeClient = Kube & {
  /** Requests sent (every attempt, watches included) and response body bytes received. */
  cost(): { requests: number; bytes: number };
  /** Stop running watches and close pooled connections. */
  close(): Promise<void>;
};

type Method = 'GET' | 'DELETE' | 'PATCH' | 'PUT';
type Query = Record<string, string | number | undefined>;

interface Req {
  method: Method;
  /** Path below the server URL, without query. */
  path: string;
  query?: Query;
  accept?: string;
  contentType?: string;
  body?: unknown;
  /** For error messages: `get`, `list`, `watch`, `delete`, `patch`, `update`. */
  verb: string;
  /** For error messages: `namespaces`, `pods.metrics.k8s.io`, `namespaces/finalize`. */
  resource?: string;
}

interface Res {
  status: number;
  headers: Record<string, string>;
  text: string;
}

const JSON_TYPE = 'application/json';
const METADATA_LIST_TYPE = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const AGGREGATED_DISCOVERY_TYPE = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList';
const MERGE_PATCH_TYPE = 'application/merge-patch+json';
const UNAVAILABLE = 'the server is currently unable to handle the request';

/** Errors where the request never reached the server: safe to retry for any method. */
const CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Errors after the request may have been sent: retried for GET only. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** Create the adapter for the current context of `kc`. */
export function createKube(kc: KubeConfig, opts: KubeClientOptions = {}): KubeClient {
  const cluster = kc.getCurrentCluster();
  if (!cluster) throw new KubeError('the kubeconfig has no current cluster', 0, 'ClientConfig');
  const server = cluster.server.replace(/\/+$/, '');
  const userAgent = opts.userAgent ?? 'namespace-teardown';
  const attempts = Math.max(1, opts.retry?.attempts ?? 3);
  const baseMs = Math.max(0, opts.retry?.baseMs ?? 250);
  const maxThrottle = opts.throttle?.maxRetries ?? 5;
  const maxWaitMs = opts.throttle?.maxWaitMs ?? 30_000;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const watchTimeoutSeconds = opts.watchTimeoutSeconds ?? 290;
  const concurrency = Math.max(1, opts.discoveryConcurrency ?? 8);
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const http = new IsomorphicFetchHttpLibrary();

  let requests = 0;
  let bytes = 0;
  /** The first dispatcher client-node builds (TLS options, connection pool) is reused for every request. */
  let dispatcher: ReturnType<RequestContext['getDispatcher']>;
  const watches = new Map<symbol, WatchHandle>();

  function urlOf(req: Req): string {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined && v !== '') params.set(k, String(v));
    const qs = params.toString();
    return `${server}${req.path}${qs ? `?${qs}` : ''}`;
  }

  /** One HTTP exchange. With `signal`, the body is returned unread (streaming). */
  async function sendOnce(
    req: Req,
    url: string,
    signal?: AbortSignal,
  ): Promise<{ status: number; headers: Record<string, string>; response: ResponseContext }> {
    const ctx = new RequestContext(url, HttpMethod[req.method]);
    try {
      await kc.applySecurityAuthentication(ctx);
    } catch (err) {
      throw new KubeError(
        `cannot prepare a request to ${server} from the kubeconfig: ${errorText(err)}`,
        0,
        'ClientConfig',
        req.verb,
        req.resource,
      );
    }
    const built = ctx.getDispatcher();
    if (built) {
      if (dispatcher) ctx.setDispatcher(dispatcher);
      else dispatcher = built;
    }
    ctx.setHeaderParam('User-Agent', userAgent);
    ctx.setHeaderParam('Accept', req.accept ?? JSON_TYPE);
    if (req.body !== undefined) {
      ctx.setHeaderParam('Content-Type', req.contentType ?? JSON_TYPE);
      ctx.setBody(JSON.stringify(req.body));
    }
    ctx.setSignal(signal ?? AbortSignal.timeout(timeoutMs));
    requests++;
    const response = await http.send(ctx).toPromise();
    return { status: response.httpStatusCode, headers: response.headers, response };
  }

  /** Send with retries; returns the final response (any status) or throws a KubeError for network failures. */
  async function perform(req: Req): Promise<Res>;
  async function perform(req: Req, stream: AbortController): Promise<Res & { response: ResponseContext }>;
  async function perform(req: Req, stream?: AbortController): Promise<Res & { response?: ResponseContext }> {
    const url = urlOf(req);
    let failures = 0;
    let throttled = 0;
    for (;;) {
      let status: number;
      let headers: Record<string, string>;
      let text = '';
      let response: ResponseContext;
      let headerTimer: NodeJS.Timeout | undefined;
      try {
        if (stream) {
          headerTimer = setTimeout(
            () => stream.abort(new DOMException('no response headers in time', 'TimeoutError')),
            timeoutMs,
          );
        }
        ({ status, headers, response } = await sendOnce(req, url, stream?.signal));
        clearTimeout(headerTimer);
        if (!stream || status !== 200) {
          text = await response.body.text();
          bytes += Buffer.byteLength(text);
        }
      } catch (err) {
        clearTimeout(headerTimer);
        if (err instanceof KubeError) throw err;
        const code = networkCode(err);
        failures++;
        const retriable =
          CONNECT_CODES.has(code) ||
          (req.method === 'GET' && TRANSIENT_CODES.has(code) && !stream?.signal.aborted);
        if (retriable && failures < attempts) {
          await sleep(backoff(failures));
          continue;
        }
        throw networkError(err, code, failures, req);
      }
      if (status === 429 && throttled < maxThrottle) {
        throttled++;
        await sleep(retryAfterMs(headers, text) ?? backoff(throttled));
        continue;
      }
      if (status >= 500 && status !== 501 && req.method === 'GET') {
        failures++;
        if (failures < attempts) {
          await sleep(retryAfterMs(headers, text) ?? backoff(failures));
          continue;
        }
      }
      return { status, headers, text, response };
    }
  }

  function backoff(n: number): number {
    return Math.round(baseMs * 2 ** (n - 1) * (0.8 + Math.random() * 0.4));
  }

  function retryAfterMs(headers: Record<string, string>, text: string): number | undefined {
    let seconds: number | undefined;
    const header = headers['retry-after'];
    if (header !== undefined && header.trim() !== '') {
      const n = Number(header);
      if (Number.isFinite(n)) seconds = n;
      else {
        const date = Date.parse(header);
        if (!Number.isNaN(date)) seconds = (date - Date.now()) / 1000;
      }
    }
    if (seconds === undefined) {
      const details = rec(rec(parseJson(text)).details);
      if (typeof details.retryAfterSeconds === 'number') seconds = details.retryAfterSeconds;
    }
    if (seconds === undefined) return undefined;
    return Math.min(Math.max(0, seconds * 1000), maxWaitMs);
  }

  function networkError(err: unknown, code: string, tries: number, req: Req): KubeError {
    const cause = innermostMessage(err);
    const detail = `${code}${cause && cause !== code ? ` (${cause})` : ''}${tries > 1 ? ` after ${tries} attempts` : ''}`;
    let message: string;
    if (CONNECT_CODES.has(code) || code === 'ENOTFOUND') {
      message = `cannot reach the Kubernetes API server at ${server}: ${detail}`;
    } else if (/CERT|^ERR_TLS|^ERR_SSL|SIGNATURE/.test(code)) {
      message = `TLS with the Kubernetes API server at ${server} failed: ${detail}`;
    } else {
      message = `${req.verb} ${req.resource ?? req.path} on the Kubernetes API server at ${server} failed: ${detail}`;
    }
    return new KubeError(message, 0, code, req.verb, req.resource);
  }

  /** Request expecting JSON; 404 → undefined when `allowNotFound`; other errors → KubeError. */
  async function requestJson(req: Req, allowNotFound = false): Promise<unknown> {
    const res = await perform(req);
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

  async function getNamespace(name: string): Promise<NamespaceState | undefined> {
    const obj = await requestJson(
      { method: 'GET', path: `/api/v1/namespaces/${enc(name)}`, verb: 'get', resource: 'namespaces' },
      true,
    );
    return obj === undefined ? undefined : mapNamespace(obj);
  }

  async function listNamespaces(labelSelector: string): Promise<NamespaceState[]> {
    const out: NamespaceState[] = [];
    let cont: string | undefined;
    do {
      const list = rec(
        await requestJson({
          method: 'GET',
          path: '/api/v1/namespaces',
          query: { labelSelector, limit: 500, continue: cont },
          verb: 'list',
          resource: 'namespaces',
        }),
      );
      for (const item of arr(list.items)) out.push(mapNamespace(item));
      cont = str(rec(list.metadata).continue) || undefined;
    } while (cont);
    return out;
  }

  async function deleteNamespace(name: string, o?: { uid?: string }): Promise<'requested' | 'gone'> {
    const body: Record<string, unknown> = {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
    };
    if (o?.uid) body.preconditions = { uid: o.uid };
    const req: Req = {
      method: 'DELETE',
      path: `/api/v1/namespaces/${enc(name)}`,
      body,
      verb: 'delete',
      resource: 'namespaces',
    };
    const res = await perform(req);
    if (res.status === 404) return 'gone';
    if (res.status >= 200 && res.status < 300) return 'requested';
    throw statusError(res, req);
  }

  async function watchNamespace(
    name: string,
    resourceVersion: string,
    onEvent: (e: NamespaceEvent) => void,
  ): Promise<WatchHandle> {
    const controller = new AbortController();
    const req: Req = {
      method: 'GET',
      path: '/api/v1/namespaces',
      query: {
        fieldSelector: `metadata.name=${name}`,
        watch: 1,
        resourceVersion,
        allowWatchBookmarks: 'true',
        timeoutSeconds: watchTimeoutSeconds,
      },
      verb: 'watch',
      resource: 'namespaces',
    };
    const res = await perform(req, controller);
    if (res.status === 410) {
      // An expired resourceVersion rejected before the stream started: report it like the in-stream ERROR event.
      const err = statusError(res, req);
      const handle: WatchHandle = {
        stop: () => undefined,
        done: Promise.resolve().then(() => {
          onEvent({ type: 'ERROR', code: 410, reason: err.reason ?? 'Expired', message: err.message });
          return {};
        }),
      };
      return handle;
    }
    if (res.status !== 200) throw statusError(res, req);
    const body = res.response.body.stream();
    if (!body) throw new KubeError('the watch response has no body', res.status, 'UnexpectedServerResponse');

    const token = Symbol(name);
    let stopped = false;
    let expired = false;
    let callbackError: unknown;
    const reader = body.getReader();
    const guard = setTimeout(
      () => {
        expired = true;
        controller.abort();
      },
      (watchTimeoutSeconds + 30) * 1000,
    );
    guard.unref();

    const dispatch = (line: string): void => {
      const event = parseWatchLine(line);
      if (!event || stopped) return;
      try {
        onEvent(event);
      } catch (err) {
        callbackError = err;
        throw err;
      }
    };

    const done = (async (): Promise<{ error?: Error }> => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for (;;) {
          const { done: end, value } = await reader.read();
          if (end) break;
          bytes += value.byteLength;
          buffer += decoder.decode(value, { stream: true });
          for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
            const line = buffer.slice(0, i).trim();
            buffer = buffer.slice(i + 1);
            if (line) dispatch(line);
          }
        }
        buffer += decoder.decode();
        if (buffer.trim()) dispatch(buffer.trim());
        return {};
      } catch (err) {
        if (callbackError !== undefined) {
          return { error: callbackError instanceof Error ? callbackError : new Error(String(callbackError)) };
        }
        if (stopped) return {};
        if (expired) {
          return {
            error: new KubeError(
              `the watch on namespace "${name}" did not end after ${watchTimeoutSeconds + 30} s; the connection to ${server} is probably dead`,
              0,
              'ETIMEDOUT',
              'watch',
              'namespaces',
            ),
          };
        }
        const code = networkCode(err);
        const cause = innermostMessage(err);
        return {
          error: new KubeError(
            `the watch on namespace "${name}" at ${server} was interrupted: ${code}${cause && cause !== code ? ` (${cause})` : ''}`,
            0,
            code,
            'watch',
            'namespaces',
          ),
        };
      } finally {
        clearTimeout(guard);
        watches.delete(token);
        if (!controller.signal.aborted) controller.abort();
      }
    })();

    const handle: WatchHandle = {
      stop: () => {
        if (stopped) return;
        stopped = true;
        controller.abort();
      },
      done,
    };
    watches.set(token, handle);
    return handle;
  }

  async function discover(): Promise<Discovery> {
    const accept = `${AGGREGATED_DISCOVERY_TYPE},${JSON_TYPE}`;
    const [core, groups] = await Promise.all([
      requestJson({ method: 'GET', path: '/api', accept, verb: 'get', resource: undefined }),
      requestJson({ method: 'GET', path: '/apis', accept, verb: 'get', resource: undefined }),
    ]);
    const isAggregated = (doc: unknown): boolean => rec(doc).kind === 'APIGroupDiscoveryList';
    if (isAggregated(core) && isAggregated(groups)) {
      const acc = new ResourceAccumulator();
      const failed: Discovery['failed'] = [];
      for (const item of [...arr(rec(core).items), ...arr(rec(groups).items)]) {
        const group = str(rec(rec(item).metadata).name) ?? '';
        for (const v of arr(rec(item).versions)) {
          const version = str(rec(v).version) ?? '';
          const gv = group ? `${group}/${version}` : version;
          if (rec(v).freshness === 'Stale') {
            failed.push({ groupVersion: gv, error: `stale GroupVersion discovery: ${gv}` });
            continue;
          }
          for (const r of arr(rec(v).resources)) {
            const resource = str(rec(r).resource) ?? '';
            if (!resource || resource.includes('/')) continue;
            acc.add({
              group,
              version,
              resource,
              kind: str(rec(rec(r).responseKind).kind) ?? '',
              namespaced: rec(r).scope === 'Namespaced',
              verbs: strs(rec(r).verbs),
            });
          }
        }
      }
      return { resources: acc.list, failed, mode: 'aggregated' };
    }
    return legacyDiscovery(rec(groups).kind === 'APIGroupList' ? groups : undefined);
  }

  async function legacyDiscovery(groupList: unknown): Promise<Discovery> {
    const groups =
      groupList ?? (await requestJson({ method: 'GET', path: '/apis', verb: 'get', resource: undefined }));
    /** Group-versions in preference order: core, then each group's preferred version first. */
    const gvs: { group: string; version: string }[] = [{ group: '', version: 'v1' }];
    for (const g of arr(rec(groups).groups)) {
      const group = str(rec(g).name) ?? '';
      const preferred = str(rec(rec(g).preferredVersion).version);
      const versions = arr(rec(g).versions)
        .map((v) => str(rec(v).version) ?? '')
        .filter((v) => v !== '');
      const ordered = preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions;
      for (const version of ordered) gvs.push({ group, version });
    }
    const results = await mapLimit(gvs, concurrency, async ({ group, version }) => {
      const gv = group ? `${group}/${version}` : version;
      try {
        const doc = await requestJson({
          method: 'GET',
          path: group ? `/apis/${group}/${version}` : `/api/${version}`,
          verb: 'get',
          resource: undefined,
        });
        return { gv, group, version, doc };
      } catch (err) {
        const error =
          err instanceof KubeError && err.code === 503
            ? UNAVAILABLE
            : err instanceof Error
              ? err.message
              : String(err);
        return { gv, group, version, error };
      }
    });
    const acc = new ResourceAccumulator();
    const failed: Discovery['failed'] = [];
    for (const r of results) {
      if (r.error !== undefined) {
        failed.push({ groupVersion: r.gv, error: r.error });
        continue;
      }
      for (const item of arr(rec(r.doc).resources)) {
        const resource = str(rec(item).name) ?? '';
        if (!resource || resource.includes('/')) continue;
        acc.add({
          group: r.group,
          version: r.version,
          resource,
          kind: str(rec(item).kind) ?? '',
          namespaced: rec(item).namespaced === true,
          verbs: strs(rec(item).verbs),
        });
      }
    }
    return { resources: acc.list, failed, mode: 'legacy' };
  }

  async function listMetadata(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    o: { namespace?: string; limit?: number; continue?: string; labelSelector?: string },
  ): Promise<MetaPage> {
    const list = rec(
      await requestJson({
        method: 'GET',
        path: resourcePath(res, o.namespace),
        query: { limit: o.limit, continue: o.continue, labelSelector: o.labelSelector },
        // Falls back to full objects if an aggregated API ignores the transformation; the mapping reads metadata.
        accept: `${METADATA_LIST_TYPE},${JSON_TYPE}`,
        verb: 'list',
        resource: resourceName(res),
      }),
    );
    const cont = str(rec(list.metadata).continue);
    return { items: arr(list.items).map(mapMeta), ...(cont ? { continue: cont } : {}) };
  }

  async function listRaw(
    path: string,
    o?: { limit?: number; continue?: string },
  ): Promise<{ items: unknown[]; continue?: string }> {
    const { path: p, query } = splitPath(path);
    const list = rec(
      await requestJson({
        method: 'GET',
        path: p,
        query: { ...query, limit: o?.limit, continue: o?.continue },
        verb: 'list',
        resource: describePath(p).resource,
      }),
    );
    const cont = str(rec(list.metadata).continue);
    return { items: arr(list.items), ...(cont ? { continue: cont } : {}) };
  }

  async function getRaw(path: string): Promise<unknown> {
    const { path: p, query } = splitPath(path);
    return requestJson(
      { method: 'GET', path: p, query, verb: 'get', resource: describePath(p).resource },
      true,
    );
  }

  async function patchFinalizers(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string | undefined,
    name: string,
    guard: { uid: string; resourceVersion: string },
    finalizers: string[],
  ): Promise<'patched' | 'gone'> {
    const req: Req = {
      method: 'PATCH',
      path: `${resourcePath(res, namespace)}/${enc(name)}`,
      contentType: MERGE_PATCH_TYPE,
      body: { metadata: { uid: guard.uid, resourceVersion: guard.resourceVersion, finalizers } },
      verb: 'patch',
      resource: resourceName(res),
    };
    const r = await perform(req);
    if (r.status === 404) return 'gone';
    if (r.status >= 200 && r.status < 300) return 'patched';
    throw statusError(r, req);
  }

  async function finalizeNamespace(
    name: string,
    guard: { uid: string; resourceVersion: string },
    specFinalizers: string[],
  ): Promise<'finalized' | 'gone'> {
    const current = await requestJson(
      { method: 'GET', path: `/api/v1/namespaces/${enc(name)}`, verb: 'get', resource: 'namespaces' },
      true,
    );
    if (current === undefined) return 'gone';
    const obj = rec(current);
    const metadata = rec(obj.metadata);
    if (metadata.uid !== guard.uid) {
      throw new KubeError(
        `Operation cannot be fulfilled on namespaces "${name}": uid changed (expected ${guard.uid}, found ${str(metadata.uid) ?? 'none'})`,
        409,
        'Conflict',
        'update',
        'namespaces/finalize',
      );
    }
    const body = {
      ...obj,
      kind: 'Namespace',
      apiVersion: 'v1',
      metadata: { ...metadata, resourceVersion: guard.resourceVersion },
      spec: { ...rec(obj.spec), finalizers: specFinalizers },
    };
    const req: Req = {
      method: 'PUT',
      path: `/api/v1/namespaces/${enc(name)}/finalize`,
      body,
      verb: 'update',
      resource: 'namespaces/finalize',
    };
    const r = await perform(req);
    if (r.status === 404) return 'gone';
    if (r.status >= 200 && r.status < 300) return 'finalized';
    throw statusError(r, req);
  }

  return {
    getNamespace,
    listNamespaces,
    deleteNamespace,
    watchNamespace,
    discover,
    listMetadata,
    listRaw,
    getRaw,
    patchFinalizers,
    finalizeNamespace,
    cost: () => ({ requests, bytes }),
    close: async () => {
      for (const w of [...watches.values()]) {
        w.stop();
        await w.done;
      }
      const d = dispatcher;
      dispatcher = undefined;
      if (d) await d.close();
    },
  };
}

/** Collects discovered resources; the first version seen for a group+resource wins (preference order). */
class ResourceAccumulator {
  readonly list: ApiResource[] = [];
  private readonly seen = new Set<string>();
  add(r: ApiResource): void {
    const key = `${r.group}/${r.resource}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(r);
  }
}

// ---- errors ---------------------------------------------------------------------------------------------------

/** Messages client-go uses when an error response carries no Status. */
const GENERIC_MESSAGES: Record<number, [string, string]> = {
  400: ['BadRequest', 'the server rejected our request for an unknown reason'],
  401: ['Unauthorized', 'Unauthorized'],
  403: ['Forbidden', 'the server does not allow access to the requested resource'],
  404: ['NotFound', 'the server could not find the requested resource'],
  405: ['MethodNotAllowed', 'the server does not allow this method on the requested resource'],
  406: ['NotAcceptable', 'the server was unable to respond with a content type that the client supports'],
  409: ['Conflict', 'the server reported a conflict'],
  410: ['Expired', 'the resource version is too old'],
  415: ['UnsupportedMediaType', 'the server does not support the request content type'],
  422: ['Invalid', 'the server rejected our request due to an error in our request'],
  429: ['TooManyRequests', 'the server has received too many requests and has asked us to try again later'],
  500: ['InternalError', 'an error on the server has prevented the request from succeeding'],
  503: ['ServiceUnavailable', UNAVAILABLE],
  504: ['Timeout', 'the server was unable to return a response in the time allotted'],
};

/** Turn an error response into a KubeError: the Status message when there is one, else client-go's wording. */
function statusError(res: Res, req: Req): KubeError {
  const status = rec(parseJson(res.text));
  if (status.kind === 'Status' && typeof status.message === 'string' && status.message !== '') {
    return new KubeError(status.message, res.status, str(status.reason) || undefined, req.verb, req.resource);
  }
  const [reason, generic] = GENERIC_MESSAGES[res.status] ?? [
    res.status >= 500 ? 'InternalError' : 'Unknown',
    `the server responded with HTTP ${res.status}`,
  ];
  const text = res.text.trim();
  const detail =
    text && res.status >= 500 && res.status !== 503 && text.length <= 200 && !text.startsWith('{')
      ? ` ("${text}")`
      : '';
  const on = req.resource ? ` (${req.verb} ${req.resource})` : ` (${req.verb} ${req.path})`;
  return new KubeError(`${generic}${detail}${on}`, res.status, reason, req.verb, req.resource);
}

/** The first error code found along the cause chain (undici wraps socket errors in `TypeError: fetch failed`). */
function networkCode(err: unknown): string {
  let e: unknown = err;
  for (let depth = 0; depth < 6 && e; depth++) {
    const o = e as { code?: unknown; name?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.code === 'string' && o.code !== '') return o.code;
    if (o.name === 'TimeoutError') return 'ETIMEDOUT';
    if (Array.isArray(o.errors) && o.errors.length > 0) {
      const inner = networkCode(o.errors[0]);
      if (inner !== 'UNKNOWN') return inner;
    }
    e = o.cause;
  }
  if ((err as { name?: unknown }).name === 'AbortError') return 'ABORTED';
  return 'UNKNOWN';
}

function innermostMessage(err: unknown): string {
  let e: unknown = err;
  let message = '';
  for (let depth = 0; depth < 6 && e; depth++) {
    const o = e as { message?: unknown; cause?: unknown; errors?: unknown };
    if (typeof o.message === 'string' && o.message !== '' && o.message !== 'fetch failed')
      message = o.message;
    e = o.cause ?? (Array.isArray(o.errors) ? o.errors[0] : undefined);
  }
  return message;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// ---- paths ----------------------------------------------------------------------------------------------------

function enc(s: string): string {
  return encodeURIComponent(s);
}

function resourcePath(res: Pick<ApiResource, 'group' | 'version' | 'resource'>, namespace?: string): string {
  const base = res.group ? `/apis/${res.group}/${res.version}` : `/api/${res.version}`;
  return `${base}${namespace ? `/namespaces/${enc(namespace)}` : ''}/${res.resource}`;
}

function resourceName(res: Pick<ApiResource, 'group' | 'resource'>): string {
  return res.group ? `${res.resource}.${res.group}` : res.resource;
}

function splitPath(path: string): { path: string; query: Query } {
  const i = path.indexOf('?');
  if (i < 0) return { path, query: {} };
  return { path: path.slice(0, i), query: Object.fromEntries(new URLSearchParams(path.slice(i + 1))) };
}

/** `resource[.group]` of an API path, for error messages; undefined for discovery paths. */
export function describePath(path: string): { resource?: string; name?: string } {
  const parts = path.split('/').filter((p) => p !== '');
  let group = '';
  let rest: string[];
  if (parts[0] === 'api') rest = parts.slice(2);
  else if (parts[0] === 'apis') {
    group = parts[1] ?? '';
    rest = parts.slice(3);
  } else return {};
  if (rest.length === 0) return {};
  let resource: string | undefined;
  let name: string | undefined;
  let sub: string | undefined;
  if (
    rest[0] === 'namespaces' &&
    rest.length >= 3 &&
    !(rest.length === 3 && ['finalize', 'status'].includes(rest[2]!))
  ) {
    [resource, name, sub] = rest.slice(2);
  } else {
    [resource, name, sub] = rest;
  }
  if (!resource) return {};
  const full = `${resource}${sub ? `/${sub}` : ''}${group ? `.${group}` : ''}`;
  return { resource: full, ...(name ? { name } : {}) };
}

// ---- JSON mapping ---------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function rec(v: unknown): Obj {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {};
}

function arr(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function strs(v: unknown): string[] {
  return arr(v).filter((x): x is string => typeof x === 'string');
}

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(rec(v))) if (typeof val === 'string') out[k] = val;
  return out;
}

/** Map a Namespace object (from a GET, a list or a watch event) to the engine's view. */
export function mapNamespace(v: unknown): NamespaceState {
  const o = rec(v);
  const m = rec(o.metadata);
  const status = rec(o.status);
  const ns: NamespaceState = {
    name: str(m.name) ?? '',
    uid: str(m.uid) ?? '',
    resourceVersion: str(m.resourceVersion) ?? '',
    phase: str(status.phase) ?? '',
    labels: stringMap(m.labels),
    metadataFinalizers: strs(m.finalizers),
    specFinalizers: strs(rec(o.spec).finalizers),
    conditions: arr(status.conditions).map(mapCondition),
  };
  if (typeof m.creationTimestamp === 'string') ns.creationTimestamp = m.creationTimestamp;
  if (typeof m.deletionTimestamp === 'string') ns.deletionTimestamp = m.deletionTimestamp;
  return ns;
}

function mapCondition(v: unknown): Condition {
  const c = rec(v);
  const out: Condition = { type: str(c.type) ?? '', status: str(c.status) ?? '' };
  if (typeof c.reason === 'string') out.reason = c.reason;
  if (typeof c.message === 'string') out.message = c.message;
  if (typeof c.lastTransitionTime === 'string') out.lastTransitionTime = c.lastTransitionTime;
  return out;
}

/** Map a PartialObjectMetadata (or a full object) to its ObjectMeta. */
export function mapMeta(v: unknown): ObjectMeta {
  const m = rec(rec(v).metadata);
  const meta: ObjectMeta = {
    name: str(m.name) ?? '',
    uid: str(m.uid) ?? '',
    resourceVersion: str(m.resourceVersion) ?? '',
    finalizers: strs(m.finalizers),
    ownerReferences: arr(m.ownerReferences).map(mapOwnerRef),
    labels: stringMap(m.labels),
  };
  if (typeof m.namespace === 'string') meta.namespace = m.namespace;
  if (typeof m.creationTimestamp === 'string') meta.creationTimestamp = m.creationTimestamp;
  if (typeof m.deletionTimestamp === 'string') meta.deletionTimestamp = m.deletionTimestamp;
  if (typeof m.deletionGracePeriodSeconds === 'number')
    meta.deletionGracePeriodSeconds = m.deletionGracePeriodSeconds;
  return meta;
}

function mapOwnerRef(v: unknown): OwnerRef {
  const r = rec(v);
  const out: OwnerRef = {
    apiVersion: str(r.apiVersion) ?? '',
    kind: str(r.kind) ?? '',
    name: str(r.name) ?? '',
    uid: str(r.uid) ?? '',
  };
  if (typeof r.controller === 'boolean') out.controller = r.controller;
  if (typeof r.blockOwnerDeletion === 'boolean') out.blockOwnerDeletion = r.blockOwnerDeletion;
  return out;
}

/** One line of a watch stream to a NamespaceEvent; undefined for lines that are not events. */
export function parseWatchLine(line: string): NamespaceEvent | undefined {
  const e = rec(parseJson(line));
  const type = e.type;
  const object = rec(e.object);
  switch (type) {
    case 'ADDED':
    case 'MODIFIED':
    case 'DELETED':
      return { type, namespace: mapNamespace(object) };
    case 'BOOKMARK':
      return { type, resourceVersion: str(rec(object.metadata).resourceVersion) ?? '' };
    case 'ERROR': {
      const reason = str(object.reason);
      return {
        type,
        code: typeof object.code === 'number' ? object.code : 500,
        ...(reason ? { reason } : {}),
        message: str(object.message) ?? 'watch error',
      };
    }
    default:
      return undefined;
  }
}

async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
