/** The server's state and services, shared by the HTTP front, the controllers and the builders. */
import {
  type DenyRule,
  type WebhookCall,
  type WebhookProbe,
  clusterIpFor,
  serviceFailure,
  webhookUrl,
} from './admission.js';
import type { DenialRule, WebhookDenial } from './denials.js';
import { Discovery } from './discovery.js';
import { asRecord } from './meta.js';
import { ObjectApi } from './objects.js';
import { Registry } from './registry.js';
import { Store } from './store.js';
import type { KObj, KubeVersion, OpContext } from './types.js';
import { WatchHub } from './watch.js';

/** What a mutating webhook set up on the fake answers: a JSONPatch for the object (none = allowed as it is). */
export interface WebhookMutation {
  patch: (obj: KObj, call: WebhookCall) => unknown[] | undefined;
  /** The objects it applies to (all when absent); it allows the others as they are. */
  applies?: (obj: KObj) => boolean;
}

export class Core {
  readonly store = new Store();
  readonly registry = new Registry(this.store);
  readonly discovery: Discovery;
  readonly api: ObjectApi;
  readonly hub: WatchHub;
  readonly denyRules: DenyRule[] = [];
  /** APIService name -> what its backend answers (set by addAPIService); others are probed. */
  readonly apiServiceBackends = new Map<string, boolean | { reason: string; message: string }>();
  /** Webhook name -> down (set by addWebhook); other webhooks are probed through their Service. */
  readonly webhookDown = new Map<string, boolean>();
  /** Webhook name -> the denial it answers with (set by denyWebhook), for the objects it applies to. */
  readonly webhookDenials = new Map<string, DenialRule<WebhookDenial>>();
  /** Webhook name -> the JSONPatch it answers with (set by mutateWebhook), for the objects it applies to. */
  readonly webhookMutations = new Map<string, WebhookMutation>();

  /**
   * A webhook that is set to deny answers (it must be reachable for that); one marked down fails with "connection
   * refused"; others are probed through their Service.
   */
  readonly probe: WebhookProbe = (webhook, obj, call) => {
    const rule = this.webhookDenials.get(String(webhook.name));
    if (rule && (rule.applies?.(obj) ?? true)) return { denied: rule.denial };
    const failure = this.failureOf(webhook);
    if (failure !== undefined) return failure;
    const mutation = this.webhookMutations.get(String(webhook.name));
    if (!mutation || !obj || !call || !(mutation.applies?.(obj) ?? true)) return undefined;
    const patch = mutation.patch(obj, call);
    return patch && patch.length > 0 ? { patch } : undefined;
  };

  /** Why a call to the webhook fails (marked down, or its Service cannot answer); undefined when it answers. */
  private failureOf(webhook: Record<string, unknown>): string | undefined {
    const down = this.webhookDown.get(String(webhook.name));
    if (down === undefined)
      return serviceFailure(this.store, asRecord(asRecord(webhook.clientConfig).service));
    if (!down) return undefined;
    const svc = asRecord(asRecord(webhook.clientConfig).service);
    const ip = clusterIpFor(String(svc.namespace ?? ''), String(svc.name ?? ''));
    return `Post "${webhookUrl(svc)}": dial tcp ${ip}:${Number(svc.port ?? 443)}: connect: connection refused`;
  }

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
