/**
 * Worker thread: runs the fake API server (test/fake-apiserver) on its own event loop, so that the server's CPU work does
 * not queue behind the client being measured (a real API server is another machine). Answers `Command`s.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { parentPort } from 'node:worker_threads';
import { FakeCluster, type StartedCluster, raw } from '../test/fake-apiserver/index.js';
import {
  BIG_FINALIZER,
  GADGET,
  LEAKED,
  LEAKED_FINALIZER,
  RELEASE_ANNOTATION,
  RELEASE_FINALIZER,
  STUCK_FINALIZER,
  bigConfigMap,
  bigTypes,
  scaleKind,
  scaleName,
  type BigSpec,
  type Busy,
  type LeakedSpec,
  type Command,
  type InFlight,
  type LoggedRequest,
  type ManySpec,
  type Reply,
  type Request,
  type ScaleSpec,
  type ScenarioSpec,
  type Started,
} from './protocol.js';

const CONFIGMAPS = { group: '', version: 'v1', resource: 'configmaps' };
const PAUSED = { queueDelayMs: 3_600_000, finalizerRecheckMs: 3_600_000, errorBackoffMaxMs: 3_600_000 };

/** One committed store change, as the fake's store emits it. */
interface StoreEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED';
  gr: string;
  obj: {
    metadata: {
      name: string;
      namespace?: string;
      deletionTimestamp?: string;
      finalizers?: string[];
      annotations?: Record<string, string>;
    };
  };
}

/**
 * The fake has no public hook on store changes; its store (private `core.store`) has `subscribe`, which the
 * namespace controller and the watch hub use. Reached from outside here, read-only: it fires synchronously at the
 * moment of each commit, which is exactly the server-side time we want.
 */
function subscribe(cluster: FakeCluster, fn: (e: StoreEvent) => void): () => void {
  const store = (cluster as unknown as { core?: { store?: { subscribe?: unknown } } }).core?.store;
  if (typeof store?.subscribe !== 'function') {
    throw new Error('bench: FakeCluster.core.store.subscribe is gone; the bench needs a store-change hook');
  }
  return (store.subscribe as (f: (e: StoreEvent) => void) => () => void).call(store, fn);
}

/**
 * The fake's `Registry.crdTypes()` deep-copies every stored CRD on each type lookup (every request, every builder
 * call): O(#CRDs) per request — about 5 ms per request with 150 CRDs, as much as the injected latency, on the
 * server's one thread. A real API server looks types up in O(1). Memoized here from outside, invalidated on every
 * CRD change, so responses are unchanged (each caller still gets fresh objects).
 */
function memoizeCrdTypes(c: FakeCluster): void {
  type Registry = { crdTypes?: () => object[] };
  const registry = (c as unknown as { core?: { registry?: Registry } }).core?.registry;
  const original = registry?.crdTypes;
  if (!registry || typeof original !== 'function') return;
  let cache: object[] | undefined;
  subscribe(c, (e) => {
    if (e.gr === 'customresourcedefinitions.apiextensions.k8s.io') cache = undefined;
  });
  registry.crdTypes = () => {
    cache ??= original.call(registry);
    return cache.map((t) => ({ ...t }));
  };
}

/**
 * The fake's `Store.list(gr, ns)` sorts and deep-copies every object of the type on each call, so each page of a
 * paginated list costs O(all objects), not O(limit): the 10 pages of 5,000 ConfigMaps copy 200 MB, where a real
 * API server reads one page from its watch cache. With `fastLists` on, a list result is kept while the store is
 * unchanged (any write invalidates it) and callers get a fresh array of the same objects. Safe for the read-only
 * big-namespace scenario (nothing there mutates listed objects); used only there, and toggled per measurement.
 */
let fastLists = false;
function cacheLists(c: FakeCluster): void {
  type KList = (gr: string, ns?: string) => object[];
  const store = (c as unknown as { core?: { store?: { list?: KList; currentRv?: () => number } } }).core
    ?.store;
  const original = store?.list;
  if (!store || typeof original !== 'function' || typeof store.currentRv !== 'function') return;
  const currentRv = store.currentRv.bind(store);
  const cache = new Map<string, object[]>();
  let rv = -1;
  store.list = (gr, ns) => {
    if (!fastLists) return original.call(store, gr, ns);
    if (currentRv() !== rv) {
      cache.clear();
      rv = currentRv();
    }
    const key = `${gr}\u0000${ns ?? '\u0001'}`;
    let items = cache.get(key);
    if (!items) cache.set(key, (items = original.call(store, gr, ns)));
    return items.slice();
  };
}

/** The fake takes `latencyMs` only in its constructor; its (private) front state holds the live value. */
function setLatency(c: FakeCluster, latencyMs: number): void {
  const front = (c as unknown as { front?: { latencyMs?: unknown } }).front;
  if (typeof front?.latencyMs !== 'number') throw new Error('bench: FakeCluster.front.latencyMs is gone');
  front.latencyMs = latencyMs;
}

/** The fake runs its namespace controller on timers only; its (private) `process(name)` is one pass, run here now. */
function controllerPass(c: FakeCluster, namespace: string): void {
  const controller = (c as unknown as { controller?: { process?: unknown } }).controller;
  if (typeof controller?.process !== 'function')
    throw new Error('bench: FakeCluster.controller.process is gone');
  (controller.process as (name: string) => void).call(controller, namespace);
}

let cluster: FakeCluster | undefined;
let started: StartedCluster | undefined;
let removals: Record<string, number> = {};
let unsubscribe: (() => void) | undefined;
const timers = new Set<NodeJS.Timeout>();
let elu = performance.eventLoopUtilization();

function buildBig(spec: BigSpec, latencyMs: number): FakeCluster {
  const c = new FakeCluster({ latencyMs, controller: PAUSED, bookmarkIntervalMs: 0 });
  memoizeCrdTypes(c);
  cacheLists(c);
  c.addNamespace(spec.namespace, { labels: { 'app.kubernetes.io/part-of': 'preview' } });
  const types = bigTypes(spec);
  for (const t of types) c.addCRD({ ...t, version: 'v1', namespaced: true });
  for (let i = 0; i < spec.configMaps; i++) {
    const { name, labels, body } = bigConfigMap(spec, i);
    c.addObject(CONFIGMAPS, {
      namespace: spec.namespace,
      name,
      labels,
      data: { 'application.properties': body },
    });
  }
  for (let j = 0; j < spec.customResources; j++) {
    const t = types[j % types.length];
    if (!t) break;
    c.addObject(
      { group: t.group, version: 'v1', resource: t.plural },
      {
        namespace: spec.namespace,
        name: `${t.kind.toLowerCase()}-${j}`,
        finalizers: j < spec.withFinalizers ? [BIG_FINALIZER] : undefined,
        spec: { replicas: 1, size: 'small', owner: 'team-shop' },
      },
    );
  }
  return c;
}

function buildMany(spec: ManySpec, latencyMs: number): FakeCluster {
  const c = new FakeCluster({ latencyMs, controller: spec.controller, bookmarkIntervalMs: 0 });
  memoizeCrdTypes(c);
  c.addCRD({ group: GADGET.group, version: GADGET.version, kind: 'Gadget', plural: GADGET.resource });
  for (const t of spec.targets) {
    c.addNamespace(t.name, { labels: { 'app.kubernetes.io/part-of': 'preview' } });
    c.addObject(CONFIGMAPS, { namespace: t.name, name: 'app-config', data: { 'app.properties': 'a=b\n' } });
    c.addObject(GADGET, {
      namespace: t.name,
      name: 'gadget',
      finalizers: [t.kind === 'stuck' ? STUCK_FINALIZER : RELEASE_FINALIZER],
      annotations: { [RELEASE_ANNOTATION]: String(t.releaseMs) },
      spec: { size: 'small' },
    });
  }
  return c;
}

function buildLeaked(spec: LeakedSpec, latencyMs: number): FakeCluster {
  const c = new FakeCluster({ latencyMs, controller: PAUSED, bookmarkIntervalMs: 0 });
  memoizeCrdTypes(c);
  c.addCRD({ group: LEAKED.group, version: LEAKED.version, kind: 'Widget', plural: LEAKED.resource });
  c.addNamespace(spec.namespace, { labels: { 'app.kubernetes.io/part-of': 'preview' } });
  for (let i = 1; i <= spec.objects; i++) {
    c.addObject(LEAKED, {
      namespace: spec.namespace,
      name: `held-${String(i).padStart(5, '0')}`,
      finalizers: [LEAKED_FINALIZER],
    });
  }
  return c;
}

/** `names` targets, `existing` of them present (empty, so the controller removes them), `stuck` held by a Gadget. */
function buildScale(spec: ScaleSpec, latencyMs: number): FakeCluster {
  const c = new FakeCluster({ latencyMs, controller: spec.controller, bookmarkIntervalMs: 0 });
  memoizeCrdTypes(c);
  c.addCRD({ group: GADGET.group, version: GADGET.version, kind: 'Gadget', plural: GADGET.resource });
  for (let i = 0; i < spec.names; i++) {
    const kind = scaleKind(spec, i);
    if (kind === 'missing') continue;
    const name = scaleName(i);
    c.addNamespace(name, { labels: { 'preview.example.com/pr': String(i + 1) } });
    if (kind === 'stuck')
      c.addObject(GADGET, {
        namespace: name,
        name: 'gadget',
        finalizers: [STUCK_FINALIZER],
        spec: { size: 'small' },
      });
  }
  return c;
}

/** Counts the requests the HTTPS server has open, and the most at once; watches apart (they stay open). */
let open: InFlight = { requests: 0, watches: 0 };
let most: InFlight = { requests: 0, watches: 0 };
function countInFlight(c: FakeCluster): void {
  const server = (c as unknown as { server?: Server }).server;
  if (!server) throw new Error('bench: FakeCluster.server is gone');
  open = { requests: 0, watches: 0 };
  most = { requests: 0, watches: 0 };
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const key: keyof InFlight = /[?&]watch=(1|true)(&|$)/.test(req.url ?? '') ? 'watches' : 'requests';
    open[key]++;
    most[key] = Math.max(most[key], open[key]);
    res.once('close', () => open[key]--);
  });
}

/** The simulated operator: removes its finalizer `cleanup-ms` after the controller marked the Gadget deleted. */
function operate(c: FakeCluster): (e: StoreEvent) => void {
  const scheduled = new Set<string>();
  return (e) => {
    const m = e.obj.metadata;
    if (e.gr !== `${GADGET.resource}.${GADGET.group}` || e.type === 'DELETED' || !m.deletionTimestamp) return;
    if (!(m.finalizers ?? []).includes(RELEASE_FINALIZER)) return;
    const key = `${m.namespace}/${m.name}`;
    if (scheduled.has(key)) return;
    scheduled.add(key);
    const ms = Number(m.annotations?.[RELEASE_ANNOTATION] ?? 0);
    const timer = setTimeout(() => {
      timers.delete(timer);
      c.removeFinalizer(GADGET, m.namespace, m.name, RELEASE_FINALIZER);
    }, ms);
    timers.add(timer);
  };
}

async function start(spec: ScenarioSpec, latencyMs: number): Promise<Started> {
  await stop();
  const c =
    spec.kind === 'big'
      ? buildBig(spec, latencyMs)
      : spec.kind === 'leaked'
        ? buildLeaked(spec, latencyMs)
        : spec.kind === 'scale'
          ? buildScale(spec, latencyMs)
          : buildMany(spec, latencyMs);
  const operator = spec.kind === 'many' ? operate(c) : undefined;
  removals = {};
  unsubscribe = subscribe(c, (e) => {
    if (e.gr === 'namespaces' && e.type === 'DELETED') removals[e.obj.metadata.name] = Date.now();
    operator?.(e);
  });
  started = await c.start();
  countInFlight(c);
  cluster = c;
  if (spec.kind === 'big' || spec.kind === 'leaked') {
    // Terminating, with its content intact: the controller is paused (its first sync is an hour away).
    const res = await raw(started, 'DELETE', `/api/v1/namespaces/${spec.namespace}`);
    if (res.status !== 200) throw new Error(`bench: DELETE of ${spec.namespace} answered ${res.status}`);
  }
  // One pass marks every leaked object for deletion (they stay: their finalizer's controller is gone).
  if (spec.kind === 'leaked') controllerPass(c, spec.namespace);
  return {
    url: started.url,
    kubeconfig: started.kubeconfig,
    crdTypes: spec.kind === 'big' ? spec.types : 1,
  };
}

async function stop(): Promise<null> {
  for (const t of timers) clearTimeout(t);
  timers.clear();
  unsubscribe?.();
  unsubscribe = undefined;
  const c = cluster;
  cluster = undefined;
  started = undefined;
  if (c) await c.stop();
  return null;
}

function need(): FakeCluster {
  if (!cluster) throw new Error('bench: no cluster started');
  return cluster;
}

function requests(from: number): LoggedRequest[] {
  return need()
    .requests.slice(from)
    .map((r) => ({
      method: r.method,
      path: r.path,
      query: r.query,
      status: r.status,
      bytesOut: r.bytesOut,
      bodyBytes: r.bodyBytes,
      at: r.at,
      accept: r.accept,
    }));
}

function busy(): Busy {
  const now = performance.eventLoopUtilization();
  const d = performance.eventLoopUtilization(now, elu);
  elu = now;
  return { activeMs: d.active, wallMs: d.active + d.idle };
}

async function handle(cmd: Command): Promise<unknown> {
  switch (cmd.op) {
    case 'start':
      return start(cmd.spec, cmd.latencyMs);
    case 'stop':
      return stop();
    case 'mark':
      return need().requests.length;
    case 'requests':
      return requests(cmd.from);
    case 'throttle':
      need().throttle({ times: cmd.times, retryAfterSeconds: cmd.retryAfterSeconds });
      return null;
    case 'removals':
      return { ...removals };
    case 'busy':
      return busy();
    case 'fastLists':
      fastLists = cmd.on;
      return null;
    case 'latency':
      setLatency(need(), cmd.ms);
      return null;
    case 'controllerPass':
      controllerPass(need(), cmd.namespace);
      return null;
    case 'inFlight':
      return { ...most };
  }
}

const port = parentPort;
if (!port) throw new Error('bench/server.ts runs as a worker thread');
port.on('message', (req: Request) => {
  handle(req).then(
    (result) => port.postMessage({ id: req.id, ok: true, result } satisfies Reply),
    (e: unknown) =>
      port.postMessage({
        id: req.id,
        ok: false,
        error: e instanceof Error ? (e.stack ?? e.message) : String(e),
      } satisfies Reply),
  );
});
