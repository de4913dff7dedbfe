/** The cluster's other control loops: kubelet pod removal, PVC protection, garbage collector, aggregator. */
import { reconcileApiServices } from './apiservices.js';
import { type Core, systemCtx } from './core.js';
import { genericDelete } from './delete.js';
import { asRecord, clone } from './meta.js';
import { type ResourceType, grOf } from './registry.js';
import { PVC_PROTECTION } from './strategy.js';
import type { KObj } from './types.js';

const TERMINAL = new Set(['Succeeded', 'Failed']);
const GC_FINALIZERS = ['orphan', 'foregroundDeletion'];

/** Run one reconcile step; a failing API call (e.g. a webhook) is retried on the next pass. */
function attempt(fn: () => void): void {
  try {
    fn();
  } catch {
    // the next pass retries
  }
}

export class Background {
  private running = false;
  private queued = false;
  private gcDirty = true;
  private wakeTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;
  /** UIDs of objects deleted while running, whose dependents the GC must collect. */
  private readonly deletedUids = new Set<string>();

  constructor(private readonly core: Core) {}

  start(): void {
    this.running = true;
    this.unsubscribe = this.core.store.subscribe((e) => {
      const m = e.obj.metadata;
      if (e.type === 'DELETED') {
        this.deletedUids.add(m.uid);
        this.gcDirty = true;
      } else if (m.deletionTimestamp && (m.finalizers ?? []).some((f) => GC_FINALIZERS.includes(f))) {
        this.gcDirty = true;
      }
      this.kick();
    });
    this.kick();
  }

  stop(): void {
    this.running = false;
    this.unsubscribe?.();
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
  }

  private kick(): void {
    if (!this.running || this.queued) return;
    this.queued = true;
    setImmediate(() => {
      this.queued = false;
      if (this.running) this.run();
    });
  }

  /** One pass of every loop; schedules itself for the earliest pending pod deadline. */
  run(): void {
    reconcileApiServices(this.core);
    const wake = this.kubelet();
    this.pvcProtection();
    if (this.gcDirty) {
      this.gcDirty = false;
      this.garbageCollect();
    }
    if (this.wakeTimer) clearTimeout(this.wakeTimer);
    if (wake !== undefined && this.running) {
      this.wakeTimer = setTimeout(() => this.kick(), Math.max(10, wake - Date.now() + 5));
    }
  }

  private rt(gr: string): ResourceType | undefined {
    return this.core.registry.byGr(gr);
  }

  private nodeReady(name: string): boolean {
    const node = name ? this.core.store.get('nodes', '', name) : undefined;
    const conds = asRecord(node?.status).conditions;
    return (
      Array.isArray(conds) && conds.some((c) => asRecord(c).type === 'Ready' && asRecord(c).status === 'True')
    );
  }

  /** A kubelet on a Ready node deletes a terminating pod (grace 0) once its grace period is over. */
  private kubelet(): number | undefined {
    const rt = this.rt('pods');
    if (!rt) return undefined;
    let wake: number | undefined;
    const due: KObj[] = [];
    this.core.store.forEach('pods', (pod) => {
      const ts = pod.metadata.deletionTimestamp;
      if (!ts || !pod.metadata.deletionGracePeriodSeconds) return;
      if (!this.nodeReady(String(asRecord(pod.spec).nodeName ?? ''))) return;
      const at = Date.parse(ts);
      if (Date.now() >= at) due.push(clone(pod));
      else wake = Math.min(wake ?? at, at);
    });
    for (const pod of due) {
      const opts = { gracePeriodSeconds: 0, dryRun: false, preconditions: { uid: pod.metadata.uid } };
      attempt(() => genericDelete(this.core.api, rt, pod, opts, systemCtx()));
    }
    return wake;
  }

  /** The pvc-protection controller drops its finalizer once no live pod mounts the claim. */
  private pvcProtection(): void {
    const rt = this.rt('persistentvolumeclaims');
    if (!rt) return;
    const pending: KObj[] = [];
    this.core.store.forEach('persistentvolumeclaims', (pvc) => {
      if (pvc.metadata.deletionTimestamp && (pvc.metadata.finalizers ?? []).includes(PVC_PROTECTION))
        pending.push(clone(pvc));
    });
    for (const pvc of pending) {
      const inUse = this.core.store.list('pods', pvc.metadata.namespace).some((pod) => {
        if (TERMINAL.has(String(asRecord(pod.status).phase))) return false;
        const vols = asRecord(pod.spec).volumes;
        return (
          Array.isArray(vols) &&
          vols.some((v) => asRecord(asRecord(v).persistentVolumeClaim).claimName === pvc.metadata.name)
        );
      });
      if (!inUse) this.removeFinalizer(rt, pvc, PVC_PROTECTION);
    }
  }

  private removeFinalizer(rt: ResourceType, obj: KObj, finalizer: string): void {
    const next = clone(obj);
    next.metadata.finalizers = (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    attempt(() => this.core.api.commit(rt, obj, next, '', systemCtx()));
  }

  /** orphan: strip owner refs, then the finalizer; foregroundDeletion: dependents first; cascade. */
  private garbageCollect(): void {
    const live = new Set<string>();
    const byOwner = new Map<string, [ResourceType, KObj][]>();
    const deleting: [ResourceType, KObj][] = [];
    for (const gr of this.core.store.kinds()) {
      const rt = this.rt(gr);
      this.core.store.forEach(gr, (o) => {
        live.add(o.metadata.uid);
        if (!rt) return;
        for (const ref of o.metadata.ownerReferences ?? []) {
          byOwner.set(ref.uid, [...(byOwner.get(ref.uid) ?? []), [rt, clone(o)]]);
        }
        const fin = o.metadata.finalizers ?? [];
        if (o.metadata.deletionTimestamp && fin.some((f) => GC_FINALIZERS.includes(f)))
          deleting.push([rt, clone(o)]);
      });
    }
    for (const [rt, o] of deleting) {
      const deps = byOwner.get(o.metadata.uid) ?? [];
      if ((o.metadata.finalizers ?? []).includes('orphan')) {
        for (const [drt, d] of deps) {
          const next = clone(d);
          next.metadata.ownerReferences = (d.metadata.ownerReferences ?? []).filter(
            (r) => r.uid !== o.metadata.uid,
          );
          attempt(() => this.core.api.commit(drt, d, next, '', systemCtx()));
        }
        this.removeFinalizer(rt, o, 'orphan');
        continue;
      }
      for (const [drt, d] of deps) if (!d.metadata.deletionTimestamp) this.deleteDependent(drt, d);
      const blocking = deps.some(([drt, d]) => {
        const still = this.core.store.has(grOf(drt), d.metadata.namespace, d.metadata.name);
        return (
          still &&
          (d.metadata.ownerReferences ?? []).some((r) => r.uid === o.metadata.uid && r.blockOwnerDeletion)
        );
      });
      if (blocking) this.gcDirty = true;
      else this.removeFinalizer(rt, o, 'foregroundDeletion');
    }
    for (const uid of this.deletedUids) {
      for (const [drt, d] of byOwner.get(uid) ?? []) {
        const owners = d.metadata.ownerReferences ?? [];
        if (!d.metadata.deletionTimestamp && owners.every((r) => !live.has(r.uid)))
          this.deleteDependent(drt, d);
      }
    }
    this.deletedUids.clear();
  }

  private deleteDependent(rt: ResourceType, d: KObj): void {
    attempt(() =>
      genericDelete(this.core.api, rt, d, { propagationPolicy: 'Background', dryRun: false }, systemCtx()),
    );
  }
}
