/** Admission and authorization: NamespaceLifecycle, how an admission webhook's call is answered, and RBAC denials. */
import { createHash } from 'node:crypto';
import type { WebhookDenial } from './denials.js';
import { forbidden, notFound } from './errors.js';
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

/** A stable fake ClusterIP for a service name. */
export function clusterIpFor(ns: string, name: string): string {
  const h = createHash('sha256').update(`${ns}/${name}`).digest();
  return `10.96.${h[0] ?? 0}.${Math.max(1, h[1] ?? 1)}`;
}

/**
 * What one webhook call gives: text when the call fails (the client error), a denial when the webhook answered
 * `allowed: false`, a JSONPatch when it allowed the request with one (a mutating webhook), undefined when it allowed
 * it as it was.
 */
export type WebhookAnswer = string | { denied: WebhookDenial } | { patch: unknown[] } | undefined;

/** What a webhook is told besides the object: the operation, the subresource and the object before the request. */
export interface WebhookCall {
  operation: Operation;
  sub: string;
  old?: KObj;
}

/** Calls one webhook for a request about `obj` (undefined before the object is read). */
export type WebhookProbe = (
  webhook: Record<string, unknown>,
  obj?: KObj,
  call?: WebhookCall,
) => WebhookAnswer;

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

/** `https://<svc>.<ns>.svc:443/<path>?timeout=10s`, the URL the apiserver posts AdmissionReviews to. */
export function webhookUrl(svcRef: Record<string, unknown>, timeoutSeconds = 10): string {
  const path = String(svcRef.path ?? '/');
  return `https://${String(svcRef.name)}.${String(svcRef.namespace)}.svc:${Number(svcRef.port ?? 443)}${path}?timeout=${timeoutSeconds}s`;
}
