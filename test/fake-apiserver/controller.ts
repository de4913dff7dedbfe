/** The namespace controller (pkg/controller/namespace), running in-process against the fake's API layer. */
import { ConditionUpdater } from './conditions.js';
import { type Core, systemCtx } from './core.js';
import { deleteCollection, deleteObject } from './delete.js';
import { ApiError } from './errors.js';
import { asRecord, clone } from './meta.js';
import type { ResourceType } from './registry.js';
import type { ControllerTiming, KObj, NamespaceCondition } from './types.js';

export const DEFAULT_TIMING: ControllerTiming = {
  queueDelayMs: 5000,
  finalizerRecheckMs: 8000,
  errorBackoffMaxMs: 60000,
};

/** Estimate for content that still has finalizers (seconds), as upstream. */
const FINALIZER_ESTIMATE = 15;

type SyncResult =
  { kind: 'done' } | { kind: 'remaining'; estimate: number } | { kind: 'error'; error: string };

interface GvrResult {
  estimate: number;
  remaining: number;
  finalizers: Map<string, number>;
  error?: string;
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const codeOf = (e: unknown): number => (e instanceof ApiError ? e.code : 0);
const gvrString = (t: ResourceType): string => `${t.group}/${t.version}, Resource=${t.resource}`;
const nsRt = (core: Core): ResourceType => core.registry.byGroupResource('', 'namespaces') as ResourceType;

export class NamespaceController {
  private readonly queue = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  private readonly timing: ControllerTiming;
  /** Told after every pass over a namespace (whatever is left of it then is the controller's doing). */
  private readonly passListeners = new Set<(name: string) => void>();

  constructor(
    private readonly core: Core,
    timing: Partial<ControllerTiming> = {},
  ) {
    this.timing = { ...DEFAULT_TIMING, ...timing };
  }

  start(): void {
    this.unsubscribe = this.core.store.subscribe((e) => {
      if (e.gr === 'namespaces' && e.type !== 'DELETED' && e.obj.metadata.deletionTimestamp) {
        this.addAfter(e.obj.metadata.name, this.timing.queueDelayMs);
      }
    });
    for (const ns of this.core.store.list('namespaces')) {
      if (ns.metadata.deletionTimestamp) this.addAfter(ns.metadata.name, this.timing.queueDelayMs);
    }
  }

  stop(): void {
    this.unsubscribe?.();
    for (const q of this.queue.values()) clearTimeout(q.timer);
    this.queue.clear();
  }

  /** Call `listener` with the namespace's name after each of its passes; returns the unsubscribe. */
  onPass(listener: (name: string) => void): () => void {
    this.passListeners.add(listener);
    return () => this.passListeners.delete(listener);
  }

  /** The delaying queue keeps the earliest requested time per key. */
  private addAfter(name: string, delayMs: number): void {
    const at = Date.now() + delayMs;
    const cur = this.queue.get(name);
    if (cur && cur.at <= at) return;
    if (cur) clearTimeout(cur.timer);
    const timer = setTimeout(() => {
      this.queue.delete(name);
      this.process(name);
    }, delayMs);
    this.queue.set(name, { at, timer });
  }

  private process(name: string): void {
    let r: SyncResult;
    try {
      r = this.sync(name);
    } catch (e) {
      r = { kind: 'error', error: messageOf(e) };
    }
    if (r.kind === 'done') {
      this.failures.delete(name);
    } else if (r.kind === 'remaining') {
      this.failures.delete(name);
      const seconds = Math.floor(r.estimate / 2) + 1;
      this.addAfter(name, (seconds * 1000 * this.timing.finalizerRecheckMs) / 8000);
    } else {
      const n = this.failures.get(name) ?? 0;
      this.failures.set(name, n + 1);
      this.addAfter(name, Math.min(5 * 2 ** n, this.timing.errorBackoffMaxMs));
    }
    for (const listener of this.passListeners) listener(name);
  }

  /** namespacedResourcesDeleter.Delete. */
  private sync(name: string): SyncResult {
    const rt = nsRt(this.core);
    let ns = this.core.store.get('namespaces', '', name);
    if (!ns?.metadata.deletionTimestamp) return { kind: 'done' };
    if (asRecord(ns.status).phase !== 'Terminating') {
      const got = this.retryOnConflict(ns, (cur) => {
        const body = clone(cur);
        body.status = { ...asRecord(cur.status), phase: 'Terminating' };
        return this.core.api.update(rt, '', name, 'status', body, systemCtx()).body as KObj;
      });
      if (!got) return { kind: 'done' };
      ns = got;
    }
    const spec = asRecord(ns.spec).finalizers;
    if (!Array.isArray(spec) || spec.length === 0) return { kind: 'done' };
    const { estimate, errors } = this.deleteAllContent(ns);
    if (errors.length)
      return { kind: 'error', error: errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]` };
    if (estimate > 0) return { kind: 'remaining', estimate };
    this.retryOnConflict(ns, (cur) => {
      const finalizers = [...new Set((asRecord(cur.spec).finalizers as string[]) ?? [])]
        .filter((f) => f !== 'kubernetes')
        .sort();
      const body = { metadata: cur.metadata, spec: { finalizers } };
      return this.core.api.update(rt, '', name, 'finalize', body, systemCtx()).body as KObj;
    });
    return { kind: 'done' };
  }

  /** Run `fn`; on 409 re-read and retry (the UID must not change). NotFound ends it (undefined). */
  private retryOnConflict(start: KObj, fn: (cur: KObj) => KObj): KObj | undefined {
    let cur = start;
    for (let i = 0; i < 10; i++) {
      try {
        return fn(cur);
      } catch (e) {
        if (codeOf(e) === 404) return undefined;
        if (codeOf(e) !== 409) throw e;
        const latest = this.core.store.get('namespaces', '', cur.metadata.name);
        if (!latest) return undefined;
        if (latest.metadata.uid !== cur.metadata.uid) {
          throw new Error('namespace uid has changed across retries', { cause: e });
        }
        cur = latest;
      }
    }
    throw new Error('too many conflicts');
  }

  /** deleteAllContent: discovery, pods first (1.33+), then every other deletable type. */
  private deleteAllContent(ns: KObj): { estimate: number; errors: string[] } {
    const name = ns.metadata.name;
    const deletedAt = Date.parse(ns.metadata.deletionTimestamp ?? '');
    const errors: string[] = [];
    const upd = new ConditionUpdater();
    const { types, failed } = this.core.discovery.preferredNamespaced();
    if (failed.length) {
      const parts = failed.map((f) => `${f.gv}: ${f.err}`).sort();
      const err = `unable to retrieve the complete list of server APIs: ${parts.join(', ')}`;
      errors.push(err);
      upd.discoveryFailed(failed.length, err);
    }
    let deletable = types.filter((t) => t.verbs.includes('delete'));
    const gvrRemaining = new Map<string, number>();
    const finRemaining = new Map<string, number>();
    let estimate = 0;
    const account = (t: ResourceType, r: GvrResult): void => {
      if (r.error) {
        errors.push(r.error);
        upd.contentError(r.error);
      }
      estimate = Math.max(estimate, r.estimate);
      if (r.remaining > 0) {
        gvrRemaining.set(`${t.resource}.${t.group}`, r.remaining);
        for (const [f, n] of r.finalizers) finRemaining.set(f, (finRemaining.get(f) ?? 0) + n);
      }
    };
    const pods = deletable.find((t) => t.group === '' && t.resource === 'pods');
    if (pods && this.core.version !== '1.29') {
      account(pods, this.deleteAllOf(pods, name, deletedAt));
      // Upstream writes the conditions here without the content totals (issue #138208).
      if ((gvrRemaining.get('pods.') ?? 0) > 0) {
        this.writeConditions(ns, upd);
        return { estimate, errors };
      }
      deletable = deletable.filter((t) => t !== pods);
    }
    for (const t of deletable) account(t, this.deleteAllOf(t, name, deletedAt));
    upd.contentTotals(gvrRemaining, finRemaining);
    this.writeConditions(ns, upd);
    return { estimate, errors };
  }

  private writeConditions(ns: KObj, upd: ConditionUpdater): void {
    const status = asRecord(ns.status);
    const conditions = clone(
      Array.isArray(status.conditions) ? (status.conditions as NamespaceCondition[]) : [],
    );
    if (!upd.update(conditions)) return;
    const body = { ...ns, status: { ...status, conditions } };
    try {
      this.core.api.update(nsRt(this.core), '', ns.metadata.name, 'status', body, systemCtx());
    } catch {
      // upstream only logs "couldn't update status condition for namespace"
    }
  }

  /** deleteAllContentForGroupVersionResource. */
  private deleteAllOf(t: ResourceType, ns: string, deletedAt: number): GvrResult {
    const api = this.core.api;
    const ctx = systemCtx();
    const none = { labels: [], fields: [] };
    let estimate = t.group === '' && t.resource === 'pods' ? this.podEstimate(ns) : 0;
    if (Date.now() - deletedAt >= estimate * 1000) estimate = 0;
    const base: GvrResult = { estimate, remaining: 0, finalizers: new Map() };
    const background = { propagationPolicy: 'Background', dryRun: false };
    let collected = false;
    if (t.verbs.includes('deletecollection') && t.verbs.includes('list')) {
      try {
        deleteCollection(api, t, ns, background, none, ctx);
        collected = true;
      } catch (e) {
        if (codeOf(e) !== 405 && codeOf(e) !== 404) return { ...base, error: messageOf(e) };
      }
    }
    if (!collected) {
      try {
        for (const item of api.list(t, ns, none)) {
          try {
            deleteObject(api, t, ns, item.metadata.name, background, ctx);
          } catch (err) {
            if (codeOf(err) !== 404 && codeOf(err) !== 405) throw err;
          }
        }
      } catch (err) {
        return { ...base, error: messageOf(err) };
      }
    }
    const items = t.verbs.includes('list') ? api.list(t, ns, none) : [];
    if (items.length === 0) return { ...base, estimate: 0 };
    const finalizers = new Map<string, number>();
    for (const it of items)
      for (const f of it.metadata.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
    const remaining = items.length;
    if (estimate !== 0) return { estimate, remaining, finalizers };
    if (finalizers.size) return { estimate: FINALIZER_ESTIMATE, remaining, finalizers };
    return {
      estimate,
      remaining,
      finalizers: new Map(),
      error: `unexpected items still remain in namespace: ${ns} for gvr: ${gvrString(t)}`,
    };
  }

  /** The largest terminationGracePeriodSeconds of non-terminal pods. */
  private podEstimate(ns: string): number {
    let est = 0;
    for (const pod of this.core.store.list('pods', ns)) {
      const phase = asRecord(pod.status).phase;
      if (phase === 'Succeeded' || phase === 'Failed') continue;
      const g = asRecord(pod.spec).terminationGracePeriodSeconds;
      if (typeof g === 'number' && g > est) est = g;
    }
    return est;
  }
}
