/** Admission and authorization: NamespaceLifecycle, admission webhooks, and RBAC denials. */
import { createHash } from 'node:crypto';
import { webhookDenied, type WebhookDenial } from './denials.js';
import { forbidden, internalError, notFound } from './errors.js';
import { asRecord } from './meta.js';
import type { ResourceType } from './registry.js';
import type { Store } from './store.js';
import type { KObj } from './types.js';

export type Operation = 'CREATE' | 'UPDATE' | 'DELETE';

/** The user every HTTP request is authenticated as. */
export const CLIENT_USER = 'system:serviceaccount:ci:namespace-teardown';

export const IMMORTAL_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/** A denied RBAC permission (what `denyRBAC` records). */
export interface DenyRule {
  verb: string;
  resource: string;
  group?: string;
  namespace?: string;
  /** Deny only requests outside this namespace (the cluster scope included). */
  outside?: string;
  /** Deny only while this holds (e.g. once the RoleBinding that granted the rights is gone). */
  when?: () => boolean;
}

/** authorizer.Attributes of a resource request. */
export interface AuthzAttributes {
  verb: string;
  group: string;
  resource: string;
  sub: string;
  namespace: string;
  name: string;
}

/** Throw the RBAC 403 when a deny rule matches. */
export function authorize(a: AuthzAttributes, rules: DenyRule[]): void {
  const res = a.sub ? `${a.resource}/${a.sub}` : a.resource;
  const hit = rules.some(
    (r) =>
      (r.verb === '*' || r.verb === a.verb) &&
      (r.resource === '*' || r.resource === res) &&
      (r.group === undefined || r.group === '*' || r.group === a.group) &&
      (r.namespace === undefined || r.namespace === a.namespace) &&
      (r.outside === undefined || r.outside !== a.namespace) &&
      (r.when === undefined || r.when()),
  );
  if (!hit) return;
  const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
  const msg = `User "${CLIENT_USER}" cannot ${a.verb} resource "${res}" in API group "${a.group}" ${scope}`;
  throw forbidden(a.resource, a.group, a.name, msg);
}

/** NamespaceLifecycle: creation needs a live namespace; immortal namespaces cannot be deleted. */
export function lifecycle(store: Store, op: Operation, rt: ResourceType, ns: string, name: string): void {
  if (rt.group === '' && rt.resource === 'namespaces') {
    if (op === 'DELETE' && IMMORTAL_NAMESPACES.has(name)) {
      throw forbidden('namespaces', '', name, 'this namespace may not be deleted');
    }
    return;
  }
  if (op !== 'CREATE' || !rt.namespaced) return;
  const nsObj = store.get('namespaces', undefined, ns);
  if (!nsObj) throw notFound('namespaces', '', ns);
  if (asRecord(nsObj.status).phase === 'Terminating') {
    throw forbidden(
      rt.resource,
      rt.group,
      name || 'Unknown',
      `unable to create new content in namespace ${ns} because it is being terminated`,
      [
        {
          reason: 'NamespaceTerminating',
          message: `namespace ${ns} is being terminated`,
          field: 'metadata.namespace',
        },
      ],
    );
  }
}

const WEBHOOK_KINDS = ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'];

/** A stable fake ClusterIP for a service name. */
export function clusterIpFor(ns: string, name: string): string {
  const h = createHash('sha256').update(`${ns}/${name}`).digest();
  return `10.96.${h[0] ?? 0}.${Math.max(1, h[1] ?? 1)}`;
}

interface Rule {
  operations?: string[];
  apiGroups?: string[];
  apiVersions?: string[];
  resources?: string[];
  scope?: string;
}

function ruleMatches(r: Rule, op: Operation, rt: ResourceType, sub: string): boolean {
  const has = (xs: string[] | undefined, v: string): boolean => (xs ?? []).some((x) => x === '*' || x === v);
  if (!has(r.operations, op) || !has(r.apiGroups, rt.group) || !has(r.apiVersions, rt.version)) return false;
  const scope = r.scope ?? '*';
  if (scope === 'Namespaced' && !rt.namespaced) return false;
  if (scope === 'Cluster' && rt.namespaced) return false;
  return (r.resources ?? []).some((x) => {
    if (x === '*/*') return true;
    const [res, s = ''] = x.split('/');
    return (res === '*' || res === rt.resource) && (s === '*' ? sub !== '' : s === sub);
  });
}

/**
 * What one webhook call gives: text when the call fails (the client error), a denial when the webhook answered
 * `allowed: false`, undefined when it allowed the request.
 */
export type WebhookAnswer = string | { denied: WebhookDenial } | undefined;

/** Calls one webhook for a request about `obj` (undefined before the object is read). */
export type WebhookProbe = (webhook: Record<string, unknown>, obj?: KObj) => WebhookAnswer;

/** Why a call to a Service-backed webhook fails: the Service is missing or has no ready endpoint; undefined if it works. */
export function serviceFailure(
  store: Store,
  svcRef: Record<string, unknown>,
  timeoutSeconds = 10,
): string | undefined {
  if (!svcRef.name) return undefined;
  const ns = String(svcRef.namespace ?? '');
  const name = String(svcRef.name);
  const url = webhookUrl(svcRef, timeoutSeconds);
  const svc = store.get('services', ns, name);
  if (!svc) return `Post "${url}": service "${name}" not found`;
  const ready = store
    .list('endpointslices.discovery.k8s.io', ns)
    .filter((s) => s.metadata.labels?.['kubernetes.io/service-name'] === name)
    .flatMap((s) => (Array.isArray(s.endpoints) ? s.endpoints.map(asRecord) : []))
    .filter((e) => asRecord(e.conditions).ready !== false);
  if (ready.length === 0) return `Post "${url}": no endpoints available for service "${name}"`;
  return undefined;
}

/** Default probe: the webhook's Service must exist and have a ready endpoint. */
export function serviceProbe(store: Store): WebhookProbe {
  return (webhook) => serviceFailure(store, asRecord(asRecord(webhook.clientConfig).service));
}

/** `https://<svc>.<ns>.svc:443/<path>?timeout=10s`, the URL the apiserver posts AdmissionReviews to. */
export function webhookUrl(svcRef: Record<string, unknown>, timeoutSeconds = 10): string {
  const path = String(svcRef.path ?? '/');
  return `https://${String(svcRef.name)}.${String(svcRef.namespace)}.svc:${Number(svcRef.port ?? 443)}${path}?timeout=${timeoutSeconds}s`;
}

/**
 * Call the matching webhooks (mutating first, then validating). A failing call with failurePolicy Fail
 * rejects the request with the apiserver's InternalError; Ignore lets it through. A webhook that answers with a
 * denial refuses the request whatever its failurePolicy (that policy is only about failing calls).
 */
export function callWebhooks(
  store: Store,
  probe: WebhookProbe,
  op: Operation,
  rt: ResourceType,
  sub: string,
  phase: 'all' | 'mutating' | 'validating' = 'all',
  obj?: KObj,
): void {
  if (rt.group === 'admissionregistration.k8s.io' && WEBHOOK_KINDS.includes(rt.resource)) return;
  const kinds = phase === 'all' ? WEBHOOK_KINDS : WEBHOOK_KINDS.filter((k) => k.startsWith(phase));
  for (const kind of kinds) {
    for (const cfg of store.list(`${kind}.admissionregistration.k8s.io`)) {
      const hooks = Array.isArray(cfg.webhooks) ? cfg.webhooks.map(asRecord) : [];
      for (const wh of hooks) {
        const rules = Array.isArray(wh.rules) ? (wh.rules as Rule[]) : [];
        if (!rules.some((r) => ruleMatches(r, op, rt, sub))) continue;
        const answer = probe(wh, obj);
        if (answer !== undefined && typeof answer !== 'string')
          throw webhookDenied(rt, obj, String(wh.name), answer.denied);
        if (answer === undefined || wh.failurePolicy === 'Ignore') continue;
        throw internalError(`failed calling webhook "${String(wh.name)}": failed to call webhook: ${answer}`);
      }
    }
  }
}
