/** Watches: one streaming GET per watch, read line by line into events (a namespace, or one type's objects). */
import { KubeError, type NamespaceEvent, type ObjectEvent, type WatchHandle } from './port.js';
import { type ApiResource } from '../model/cluster.js';
import { causeDetail, networkCode, statusError } from './http-errors.js';
import { parseObjectWatchLine, parseWatchLine } from './map.js';
import { resourceName, resourcePath } from './paths.js';
import { mebibytes, METADATA_TYPE, urlOf, type Req } from './request.js';
import type { Transport } from './transport.js';

type ErrorEvent = { type: 'ERROR'; code: number; reason?: string; message: string };
type Outcome = { error?: Error };
type StreamState = { stopped: boolean; expired: boolean; callbackError: unknown };

/** What one running watch needs to know to read its stream and explain how it ended. */
interface Stream {
  /** For messages: `namespace "pr-1"`, `widgets.example.com in namespace "pr-1"`. */
  what: string;
  /** For errors: the watched resource, e.g. `namespaces`. */
  resource: string;
  /** For errors: the request, `GET /api/v1/namespaces?watch=1&…`. */
  request: string;
  timeoutSeconds: number;
  transport: Transport;
  controller: AbortController;
  onLine: (line: string) => void;
  /** Called once the stream has ended, however it ended. */
  onEnd: () => void;
}

/** The running watches of one client, so that closing the client can stop them. */
export class Watches {
  private readonly running = new Map<symbol, WatchHandle>();

  constructor(
    private readonly transport: Transport,
    private readonly timeoutSeconds: number,
  ) {}

  /** Watch one namespace by `metadata.name` field selector from `resourceVersion`. */
  watchNamespace(
    name: string,
    resourceVersion: string,
    onEvent: (e: NamespaceEvent) => void,
  ): Promise<WatchHandle> {
    const query = { fieldSelector: `metadata.name=${name}`, ...this.query(resourceVersion) };
    return this.namespaces(query, `namespace "${name}"`, onEvent);
  }

  /** Watch every namespace from `resourceVersion`: one stream however many targets wait. */
  watchAll(resourceVersion: string, onEvent: (e: NamespaceEvent) => void): Promise<WatchHandle> {
    return this.namespaces(this.query(resourceVersion), 'all namespaces', onEvent);
  }

  private namespaces(
    query: Req['query'],
    what: string,
    onEvent: (e: NamespaceEvent) => void,
  ): Promise<WatchHandle> {
    const req: Req = {
      method: 'GET',
      path: '/api/v1/namespaces',
      query,
      verb: 'watch',
      resource: 'namespaces',
    };
    return this.start(req, what, onEvent, (line) => parseWatchLine(line));
  }

  /** Watch the objects of one type in one namespace, metadata only (PartialObjectMetadata), from `resourceVersion`. */
  watchObjects(
    res: Pick<ApiResource, 'group' | 'version' | 'resource'>,
    namespace: string,
    resourceVersion: string,
    onEvent: (e: ObjectEvent) => void,
  ): Promise<WatchHandle> {
    const req: Req = {
      method: 'GET',
      path: resourcePath(res, namespace),
      query: this.query(resourceVersion),
      accept: METADATA_TYPE,
      verb: 'watch',
      resource: resourceName(res),
    };
    const what = `${resourceName(res)} in namespace "${namespace}"`;
    return this.start(req, what, onEvent, (line) => parseObjectWatchLine(line));
  }

  private query(resourceVersion: string): Req['query'] {
    return { watch: 1, resourceVersion, allowWatchBookmarks: 'true', timeoutSeconds: this.timeoutSeconds };
  }

  private async start<E>(
    req: Req,
    what: string,
    onEvent: (e: E) => void,
    parse: (line: string) => E | undefined,
  ): Promise<WatchHandle> {
    const controller = new AbortController();
    const res = await this.transport.perform(req, controller);
    // An expired resourceVersion rejected before the stream started: report it like the in-stream ERROR event.
    if (res.status === 410) return expiredHandle(statusError(res, req), onEvent as (e: ErrorEvent) => void);
    if (res.status !== 200) throw statusError(res, req);
    const body = res.response.body.stream();
    if (!body) throw new KubeError('the watch response has no body', res.status, 'UnexpectedServerResponse');
    const token = Symbol(what);
    const { transport, timeoutSeconds } = this;
    const onEnd = (): boolean => this.running.delete(token);
    const onLine = (line: string): void => {
      const event = parse(line);
      if (event) onEvent(event);
    };
    const resource = req.resource ?? '';
    const request = `${req.method} ${urlOf('', req)}`;
    const handle = follow(body, {
      what,
      resource,
      request,
      timeoutSeconds,
      transport,
      controller,
      onLine,
      onEnd,
    });
    this.running.set(token, handle);
    return handle;
  }

  /** Stop every running watch and wait for each to end. */
  async stopAll(): Promise<void> {
    for (const w of [...this.running.values()]) {
      w.stop();
      await w.done;
    }
  }
}

function expiredHandle(err: KubeError, onEvent: (e: ErrorEvent) => void): WatchHandle {
  return {
    stop: () => undefined,
    done: Promise.resolve().then(() => {
      onEvent({ type: 'ERROR', code: 410, reason: err.reason ?? 'Expired', message: err.message });
      return {};
    }),
  };
}

/** Read the stream in the background; a guard timer aborts a connection that outlives the server's timeout. */
function follow(body: ReadableStream<Uint8Array>, w: Stream): WatchHandle {
  const state: StreamState = { stopped: false, expired: false, callbackError: undefined };
  const reader = body.getReader();
  const guard = setTimeout(
    () => {
      state.expired = true;
      w.controller.abort();
    },
    (w.timeoutSeconds + 30) * 1000,
  );
  guard.unref();
  const done = consume(reader, state, guard, w);
  return {
    stop: () => {
      if (state.stopped) return;
      state.stopped = true;
      w.controller.abort();
    },
    done,
  };
}

async function consume(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  state: StreamState,
  guard: NodeJS.Timeout,
  w: Stream,
): Promise<Outcome> {
  const dispatch = (line: string): void => {
    if (state.stopped) return;
    try {
      w.onLine(line);
    } catch (err) {
      state.callbackError = err;
      throw err;
    }
  };
  try {
    await readLines(reader, dispatch, (n) => w.transport.countBytes(n), w);
    return {};
  } catch (err) {
    return endedBy(err, state, w);
  } finally {
    clearTimeout(guard);
    w.onEnd();
    if (!w.controller.signal.aborted) w.controller.abort();
  }
}

/** A watch line longer than this is refused: a namespace object is far smaller, and memory stays bounded. */
export const MAX_WATCH_LINE = 4 * 1024 * 1024;

/** Feed each non-empty line of the stream to `onLine`, counting the bytes read. */
async function readLines(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  onLine: (line: string) => void,
  countBytes: (n: number) => void,
  w: Pick<Stream, 'what' | 'resource' | 'request'>,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    countBytes(value.byteLength);
    const text = decoder.decode(value, { stream: true });
    buffer += text;
    // Only a chunk with a newline can complete a line: no rescan of a long unfinished one.
    for (let i = text.includes('\n') ? buffer.indexOf('\n') : -1; i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i).trim();
      buffer = buffer.slice(i + 1);
      if (line) onLine(line);
    }
    if (buffer.length > MAX_WATCH_LINE) {
      throw new KubeError(
        `the watch on ${w.what} (${w.request}) sent a line that grew past ${mebibytes(MAX_WATCH_LINE)} without a ` +
          'newline; the stream was closed',
        0,
        'LineTooLong',
        'watch',
        w.resource,
      );
    }
  }
  buffer += decoder.decode();
  if (buffer.trim()) onLine(buffer.trim());
}

/** Why a stream failed: the callback's own error, a stop (no error), the guard timer, or the network. */
function endedBy(err: unknown, state: StreamState, w: Stream): Outcome {
  const { callbackError } = state;
  if (callbackError !== undefined) {
    return { error: callbackError instanceof Error ? callbackError : new Error(String(callbackError)) };
  }
  if (state.stopped) return {};
  // Our own refusal (a line past its bound) says what happened better than "interrupted" would.
  if (err instanceof KubeError) return { error: err };
  const server = w.transport.server;
  if (state.expired) {
    return {
      error: new KubeError(
        `the watch on ${w.what} did not end after ${w.timeoutSeconds + 30} s; the connection to ${server} is probably dead`,
        0,
        'ETIMEDOUT',
        'watch',
        w.resource,
      ),
    };
  }
  const code = networkCode(err);
  return {
    error: new KubeError(
      `the watch on ${w.what} at ${server} was interrupted: ${causeDetail(err, code)}`,
      0,
      code,
      'watch',
      w.resource,
    ),
  };
}
