/**
 * The Kubernetes adapter: implements the `Kube` port on one `Transport` (raw requests through client-node's
 * RequestContext and IsomorphicFetchHttpLibrary, TLS and auth from the KubeConfig), so every call shares one retry,
 * error and cost path, and no generated API class is needed.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { systemClock } from '../shared/ports.js';
import type { Cost } from '../model/cluster.js';
import type { Kube } from './port.js';
import { reviewAccess } from './access-review.js';
import { discover } from './discovery.js';
import { execOf, ExecPlugins, pluginName } from './exec-plugin.js';
import { getNamespace, getRaw, listAllNamespaces, listMetadata, listNamespaces, listRaw } from './reads.js';
import { Transport, type TransportSettings } from './transport.js';
import { Watches } from './watch.js';
import {
  deleteNamespace,
  deleteObject,
  deletePod,
  finalizeNamespace,
  patchFinalizers,
  patchSpec,
} from './writes.js';

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
  /**
   * Ask for gzip-encoded answers, as kubectl does (kube-apiserver compresses those over 128 KiB: large list pages).
   * Watches are never compressed. Default true.
   */
  gzip?: boolean;
  /** Server-side `timeoutSeconds` of a watch. Default 290. */
  watchTimeoutSeconds?: number;
  /** Parallel requests during legacy discovery. Default 8. */
  discoveryConcurrency?: number;
  /** Waiting between retries; injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Epoch ms of the run's one deadline: requests, retries, 429 waits, credential plugins and watch starts end by it. */
  deadline?: number;
  /** Cancellation: no new request; reads stop at once, a write in flight gets 2 s to finish. */
  signal?: AbortSignal;
  /** Told every credential requests carry (exec plugins and auth providers included), to mask it. */
  onSecret?: (secret: string) => void;
  /** The time (Retry-After dates, credential refresh); injectable for tests. Default: the system clock. */
  now?: () => number;
  /**
   * Where the text of a credential failure goes (an exec plugin's error output: its last lines, masked and cut). It
   * may hold secrets, so messages only say where it is. Absent = not shown.
   */
  log?: (line: string) => void;
  /** Credentials known from the kubeconfig: masked in that log as well. */
  secrets?: readonly string[];
  /** How messages name that log. Default "the step log". */
  logName?: string;
  /** Most requests in flight at once; watches apart. Default 32. */
  maxInFlight?: number;
  /**
   * Plan mode: every write (any request but a GET) is sent with `dryRun=All`, so the server's authorization and
   * admission answer it and nothing is stored. Default false.
   */
  dryRun?: boolean;
}

/** The adapter: the port plus request accounting and cleanup. */
export type KubeClient = Kube & {
  /** Requests sent (every attempt, watches included) and response body bytes received (compressed when they were). */
  cost(): Cost;
  /** Stop exec credential plugins (and what they started), running watches, and close pooled connections. */
  close(): Promise<void>;
};

/** Create the adapter for the current context of `kc`. */
export function createKube(kc: KubeConfig, opts: KubeClientOptions = {}): KubeClient {
  const t = new Transport(kc, transportSettings(kc, opts));
  const plugins = new ExecPlugins({
    timeoutMs: opts.timeoutMs ?? 60_000,
    left: () => t.left(),
    signal: opts.signal,
    redact: (text) => redactKnown(t.redact(text), opts.secrets ?? []),
    log: opts.log && ((lines) => lines.forEach((l) => opts.log!(l))),
    logName: opts.logName ?? 'the step log',
  });
  plugins.install(kc);
  const watches = new Watches(t, opts.watchTimeoutSeconds ?? 290);
  const concurrency = Math.max(1, opts.discoveryConcurrency ?? 8);
  return {
    getNamespace: (name) => getNamespace(t, name),
    listNamespaces: (labelSelector) => listNamespaces(t, labelSelector),
    listAllNamespaces: (onPage) => listAllNamespaces(t, onPage),
    deleteNamespace: (name, o) => deleteNamespace(t, name, o),
    watchNamespace: (name, resourceVersion, onEvent) =>
      watches.watchNamespace(name, resourceVersion, onEvent),
    watchAllNamespaces: (resourceVersion, onEvent) => watches.watchAll(resourceVersion, onEvent),
    discover: (o) => discover(t, concurrency, o?.core ?? true, o?.groups),
    listMetadata: (res, o) => listMetadata(t, res, o),
    listRaw: (path, o) => listRaw(t, path, o),
    getRaw: (path) => getRaw(t, path),
    reviewAccess: (q) => reviewAccess(t, q),
    patchFinalizers: (res, namespace, name, guard, finalizers) =>
      patchFinalizers(t, res, namespace, name, guard, finalizers),
    patchSpec: (res, namespace, name, guard, spec) => patchSpec(t, res, namespace, name, guard, spec),
    deleteObject: (res, namespace, name, guard) => deleteObject(t, res, namespace, name, guard),
    watchObjects: (res, namespace, resourceVersion, onEvent) =>
      watches.watchObjects(res, namespace, resourceVersion, onEvent),
    deletePod: (namespace, name, uid) => deletePod(t, namespace, name, uid),
    finalizeNamespace: (name, guard, specFinalizers) => finalizeNamespace(t, name, guard, specFinalizers),
    ...(opts.dryRun ? { dryRun: true } : {}),
    cost: () => t.cost(),
    close: async () => {
      plugins.stopAll();
      await watches.stopAll();
      await t.close();
    },
  };
}

function transportSettings(kc: KubeConfig, opts: KubeClientOptions): TransportSettings {
  const exec = execOf(kc.getCurrentUser());
  const log = opts.log;
  return {
    credentials: exec ? `the exec credential plugin ${pluginName(exec)}` : 'the kubeconfig credentials',
    log: log && ((lines) => lines.forEach((l) => log(l))),
    logName: opts.logName ?? 'the step log',
    maxInFlight: opts.maxInFlight ?? 32,
    dryRun: opts.dryRun === true,
    userAgent: opts.userAgent ?? 'namespace-teardown',
    attempts: Math.max(1, opts.retry?.attempts ?? 3),
    baseMs: Math.max(0, opts.retry?.baseMs ?? 250),
    maxThrottle: opts.throttle?.maxRetries ?? 5,
    maxWaitMs: opts.throttle?.maxWaitMs ?? 30_000,
    timeoutMs: opts.timeoutMs ?? 60_000,
    gzip: opts.gzip ?? true,
    sleep: opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    deadline: opts.deadline,
    signal: opts.signal,
    onSecret: opts.onSecret,
    now: opts.now ?? systemClock.now,
  };
}

/** `text` with every known credential (8 characters or longer: shorter ones would hit ordinary words) as `***`. */
function redactKnown(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets)
    if (secret.length >= 8 && out.includes(secret)) out = out.split(secret).join('***');
  return out;
}
