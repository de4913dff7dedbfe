/**
 * kube-controller-manager's leader election, as the real one publishes it: Lease kube-system/kube-controller-manager,
 * held by this control plane and renewed every 2 s (leaseDurationSeconds 15) while the controllers run. Stopped, it
 * is no longer renewed and goes stale, as when kube-controller-manager dies.
 */
import type { Core } from './core.js';
import { clone, isoSeconds, newUid, normalize } from './meta.js';

const GR = 'leases.coordination.k8s.io';
const NAME = 'kube-controller-manager';
const RENEW_MS = 2000;

/** `2026-11-27T13:59:49.123456Z`: a Lease's MicroTime. */
const microTime = (ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

export class LeaderLease {
  private timer: NodeJS.Timeout | undefined;
  private readonly holder = `fake-control-plane_${newUid()}`;

  constructor(private readonly core: Core) {}

  start(): void {
    this.renew();
    this.timer = setInterval(() => this.renew(), RENEW_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private renew(): void {
    const now = microTime(Date.now());
    const current = this.core.store.get(GR, 'kube-system', NAME);
    if (current) {
      const next = clone(current);
      next.spec = { ...(next.spec as object), holderIdentity: this.holder, renewTime: now };
      this.core.store.update(GR, next);
      return;
    }
    const lease = normalize({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: {
        name: NAME,
        namespace: 'kube-system',
        uid: newUid(),
        resourceVersion: '',
        creationTimestamp: isoSeconds(),
      },
      spec: {
        holderIdentity: this.holder,
        leaseDurationSeconds: 15,
        acquireTime: now,
        renewTime: now,
        leaseTransitions: 0,
      },
    });
    this.core.store.create(GR, lease);
  }
}
