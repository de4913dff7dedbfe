/**
 * An operator model: a controller bound to one pod (and its Deployment) that, for each of its custom resources being
 * deleted, does its external cleanup and then removes its finalizer — only while its pod runs (exists, not
 * terminating). Every cleanup is recorded, so a test can tell a finished teardown from a forced one.
 */
import { type Core, systemCtx } from './core.js';
import { clone } from './meta.js';
import { grOf } from './registry.js';
import type { Gvr, KObj } from './types.js';

/** How one operator is set up. */
export interface OperatorOptions {
  /** The custom resource type it serves (its CRD must be added). */
  gvr: Gvr;
  /** The finalizer it puts on its resources and removes once it has cleaned up. */
  finalizer: string;
  /** Where its pod and Deployment live: inside a target, or a shared namespace. */
  namespace: string;
  /** Name of its Deployment and pod. Default `widget-operator`. */
  name?: string;
  /** Container image, which the owner evidence matches against the finalizer's domain. */
  image?: string;
  /** Which resources it serves: its own namespace only (default when it lives in a target), or all namespaces. */
  scope?: 'own' | 'all';
  /** How long the cleanup of one object takes. Default 50 ms. */
  delayMs?: number;
  /** Grace period of its pod: how long the kubelet takes to stop it once deleted. Default 1 s. */
  graceSeconds?: number;
  /** What the cleanup is said to remove, e.g. `bucket`. Default `bucket`. */
  what?: string;
  /** Install its RBAC (update on its resources and their finalizers, bound to its ServiceAccount). Default true. */
  rbac?: boolean;
}

/** The operator: watches the store, cleans up after a delay, and stops for good once its pod is going. */
export class Operator {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private unsubscribe: (() => void) | undefined;
  private paused = false;

  constructor(
    private readonly core: Core,
    readonly opts: Required<Omit<OperatorOptions, 'image' | 'rbac'>> & { image: string },
    /** Where cleanups are recorded, e.g. `widget-operator: deleted bucket for pr-1/a`. */
    private readonly cleanups: string[],
  ) {}

  start(): void {
    const gr = this.gr();
    this.unsubscribe = this.core.store.subscribe((e) => {
      if (e.gr === gr || e.gr === 'pods') setImmediate(() => this.reconcile());
    });
    this.reconcile();
  }

  stop(): void {
    this.unsubscribe?.();
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
  }

  private gr(): string {
    const rt = this.core.registry.byGroupResource(this.opts.gvr.group, this.opts.gvr.resource);
    if (!rt) throw new Error(`Operator: unknown resource ${this.opts.gvr.resource}.${this.opts.gvr.group}`);
    return grOf(rt);
  }

  /** Stop cleaning up until `resume`: its pod keeps running, so it is alive and merely slow. */
  pause(): void {
    this.paused = true;
  }

  /** Clean up again: what is being deleted meanwhile is handled now (after `delayMs`). */
  resume(): void {
    this.paused = false;
    this.reconcile();
  }

  /** Its pod exists and is not terminating. */
  running(): boolean {
    const pod = this.core.store.get('pods', this.opts.namespace, this.opts.name);
    return pod !== undefined && !pod.metadata.deletionTimestamp;
  }

  private reconcile(): void {
    if (!this.unsubscribe || !this.running() || this.paused) return;
    const scope = this.opts.scope === 'own' ? this.opts.namespace : undefined;
    for (const obj of this.core.store.list(this.gr(), scope)) {
      const m = obj.metadata;
      if (!m.deletionTimestamp || !(m.finalizers ?? []).includes(this.opts.finalizer)) continue;
      if (this.timers.has(m.uid)) continue;
      this.timers.set(
        m.uid,
        setTimeout(() => this.cleanUp(m.namespace ?? '', m.name, m.uid), this.opts.delayMs),
      );
    }
  }

  private cleanUp(namespace: string, name: string, uid: string): void {
    this.timers.delete(uid);
    // A pod that was stopped meanwhile never finishes the job (a real process is killed mid-way).
    if (!this.running() || this.paused) return;
    const rt = this.core.registry.byGroupResource(this.opts.gvr.group, this.opts.gvr.resource)!;
    const cur: KObj | undefined = this.core.store.get(grOf(rt), namespace, name);
    if (!cur || cur.metadata.uid !== uid) return;
    this.cleanups.push(`${this.opts.name}: deleted ${this.opts.what} for ${namespace}/${name}`);
    const next = clone(cur);
    next.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== this.opts.finalizer);
    try {
      this.core.api.commit(rt, cur, next, '', systemCtx());
    } catch {
      // A conflict: the next event schedules it again.
    }
  }
}
