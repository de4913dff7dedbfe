/** The server's state and services, shared by the HTTP front, the controllers and the builders. */
import type { OutsideGrant } from './access-review.js';
import { type DenyRule, type WebhookProbe, clusterIpFor, serviceProbe, webhookUrl } from './admission.js';
import type { DenialRule, WebhookDenial } from './denials.js';
import { Discovery } from './discovery.js';
import { asRecord } from './meta.js';
import { ObjectApi } from './objects.js';
import { Registry } from './registry.js';
import { Store } from './store.js';
import type { KubeVersion, OpContext } from './types.js';
import { WatchHub } from './watch.js';

export class Core {
  readonly store = new Store();
  readonly registry = new Registry(this.store);
  readonly discovery: Discovery;
  readonly api: ObjectApi;
  readonly hub: WatchHub;
  readonly denyRules: DenyRule[] = [];
  /** Rights a stand-in webhook authorizer grants outside RBAC (SubjectAccessReview answers them). */
  readonly outsideGrants: OutsideGrant[] = [];
  /** APIService name -> what its backend answers (set by addAPIService); others are probed. */
  readonly apiServiceBackends = new Map<string, boolean | { reason: string; message: string }>();
  /** Webhook name -> down (set by addWebhook); other webhooks are probed through their Service. */
  readonly webhookDown = new Map<string, boolean>();
  /** Webhook name -> the denial it answers with (set by denyWebhook), for the objects it applies to. */
  readonly webhookDenials = new Map<string, DenialRule<WebhookDenial>>();

  private readonly serviceProbe: WebhookProbe = serviceProbe(this.store);

  /**
   * A webhook that is set to deny answers (it must be reachable for that); one marked down fails with "connection
   * refused"; others are probed through their Service.
   */
  readonly probe: WebhookProbe = (webhook, obj) => {
    const rule = this.webhookDenials.get(String(webhook.name));
    if (rule && (rule.applies?.(obj) ?? true)) return { denied: rule.denial };
    const down = this.webhookDown.get(String(webhook.name));
    if (down === undefined) return this.serviceProbe(webhook);
    if (!down) return undefined;
    const svc = asRecord(asRecord(webhook.clientConfig).service);
    const ip = clusterIpFor(String(svc.namespace ?? ''), String(svc.name ?? ''));
    return `Post "${webhookUrl(svc)}": dial tcp ${ip}:${Number(svc.port ?? 443)}: connect: connection refused`;
  };

  constructor(
    readonly version: KubeVersion,
    bookmarkIntervalMs: number,
  ) {
    this.discovery = new Discovery(this.store, this.registry, version);
    this.api = new ObjectApi(this.store, version, this.probe);
    this.hub = new WatchHub(this.store, version, bookmarkIntervalMs);
  }
}

/** An operation context for the in-process controllers. */
export const systemCtx = (): OpContext => ({
  dryRun: false,
  warnings: [],
  user: 'system:serviceaccount:kube-system:namespace-controller',
});
