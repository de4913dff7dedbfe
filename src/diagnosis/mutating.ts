/**
 * Mutating admission webhooks as their configurations say, and whether one reaches a given write: its rules
 * (operation, group, version, resource or subresource, scope) and its namespace and object selectors. Pure.
 */
import { servedWhere } from './refs.js';
import { arr, obj, str, strs, type Json } from './snapshot/untrusted-json.js';

/** One rule of a webhook, as configured. */
export interface WebhookRule {
  operations: string[];
  apiGroups: string[];
  apiVersions: string[];
  resources: string[];
  scope: string;
}

/** One webhook of a MutatingWebhookConfiguration. */
export interface MutatingWebhookState {
  configuration: string;
  name: string;
  /** Its place in the configuration's `webhooks` list. */
  index: number;
  failurePolicy: 'Fail' | 'Ignore';
  /** `Equivalent` (the v1 default) also reaches a write of the same resource at another version. */
  matchPolicy: 'Exact' | 'Equivalent';
  rules: WebhookRule[];
  namespaceSelector?: Json;
  objectSelector?: Json;
  service?: { namespace: string; name: string };
  url?: string;
  /** `service namespace/name` or `url …`. */
  served: string;
  /** Its Service and ready endpoints, when read. */
  backing?: { serviceExists: boolean; readyEndpoints: number };
}

/** A write as a webhook's rules see it: the resource (and subresource), scope, and the labels its selectors read. */
export interface WriteSubject {
  group: string;
  version: string;
  resource: string;
  /** `finalize` for `/finalize`; '' for the object itself. */
  subresource: string;
  namespaced: boolean;
  /** The object's labels (before or after the write); undefined when not known. */
  labels?: Record<string, string>;
  /** The labels of the object's namespace (of the namespace itself for a Namespace); undefined when not known. */
  namespaceLabels?: Record<string, string>;
}

/** The webhooks of one MutatingWebhookConfiguration (admissionregistration.k8s.io/v1 defaults applied). */
export function toMutatingWebhooks(o: unknown): MutatingWebhookState[] {
  const configuration = str(obj(obj(o).metadata).name) ?? '';
  return arr(obj(o).webhooks).map((raw, index) => {
    const w = obj(raw);
    const client = obj(w.clientConfig);
    const svc = client.service ? obj(client.service) : undefined;
    const service = svc && { namespace: str(svc.namespace) ?? '', name: str(svc.name) ?? '' };
    const url = str(client.url);
    return {
      configuration,
      name: str(w.name) ?? '',
      index,
      failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
      matchPolicy: w.matchPolicy === 'Exact' ? 'Exact' : 'Equivalent',
      rules: arr(w.rules).map((r) => {
        const rule = obj(r);
        return {
          operations: strs(rule.operations),
          apiGroups: strs(rule.apiGroups),
          apiVersions: strs(rule.apiVersions),
          resources: strs(rule.resources),
          scope: str(rule.scope) ?? '*',
        };
      }),
      ...(w.namespaceSelector ? { namespaceSelector: obj(w.namespaceSelector) } : {}),
      ...(w.objectSelector ? { objectSelector: obj(w.objectSelector) } : {}),
      ...(service ? { service } : {}),
      ...(url ? { url } : {}),
      served: servedWhere({ service, url }),
    };
  });
}

const has = (xs: readonly string[], v: string): boolean => xs.some((x) => x === '*' || x === v);

/** Whether one rule reaches an UPDATE of the subject. */
function ruleReaches(r: WebhookRule, s: WriteSubject, anyVersion: boolean): boolean {
  if (!has(r.operations, 'UPDATE') || !has(r.apiGroups, s.group)) return false;
  if (!anyVersion && !has(r.apiVersions, s.version)) return false;
  if ((r.scope === 'Namespaced' && !s.namespaced) || (r.scope === 'Cluster' && s.namespaced)) return false;
  return r.resources.some((x) => {
    if (x === '*/*') return true;
    const [res = '', sub = ''] = x.split('/');
    return (
      (res === '*' || res === s.resource) && (sub === '*' ? s.subresource !== '' : sub === s.subresource)
    );
  });
}

/** One matchExpressions term against labels; undefined for an operator it does not know. */
function term(raw: unknown, labels: Record<string, string>): boolean | undefined {
  const e = obj(raw);
  const key = str(e.key) ?? '';
  const values = strs(e.values);
  const present = Object.prototype.hasOwnProperty.call(labels, key);
  if (e.operator === 'In') return present && values.includes(labels[key]!);
  if (e.operator === 'NotIn') return !present || !values.includes(labels[key]!);
  if (e.operator === 'Exists') return present;
  if (e.operator === 'DoesNotExist') return !present;
  return undefined;
}

/** A metav1.LabelSelector against labels (absent or empty selects all); undefined when a term cannot be evaluated. */
export function selects(selector: Json | undefined, labels: Record<string, string>): boolean | undefined {
  if (!selector) return true;
  const pairs = Object.entries(obj(selector.matchLabels)).every(([k, v]) => labels[k] === v);
  const results = [pairs, ...arr(selector.matchExpressions).map((e) => term(e, labels))];
  if (results.includes(false)) return false;
  return results.includes(undefined) ? undefined : true;
}

/**
 * Whether the webhook reaches an UPDATE of the subject: `yes`, `no`, or `unknown` when its rules do but a selector
 * cannot be evaluated (labels not known, an operator not understood).
 */
export function reachesUpdate(w: MutatingWebhookState, s: WriteSubject): 'yes' | 'no' | 'unknown' {
  if (!w.rules.some((r) => ruleReaches(r, s, w.matchPolicy === 'Equivalent'))) return 'no';
  const isNamespace = s.group === '' && s.resource === 'namespaces';
  const byObject = s.labels === undefined ? undefined : selects(w.objectSelector, s.labels);
  const nsLabels = isNamespace ? (s.labels ?? s.namespaceLabels) : s.namespaceLabels;
  // A cluster-scoped object other than a Namespace is never excluded by a namespace selector.
  const byNamespace =
    !s.namespaced && !isNamespace
      ? true
      : nsLabels === undefined
        ? undefined
        : selects(w.namespaceSelector, nsLabels);
  if (byObject === false || byNamespace === false) return 'no';
  const empty = (sel: Json | undefined): boolean => sel === undefined || Object.keys(sel).length === 0;
  if (byObject === undefined && !empty(w.objectSelector)) return 'unknown';
  if (byNamespace === undefined && !empty(w.namespaceSelector)) return 'unknown';
  return 'yes';
}
