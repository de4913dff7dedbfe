/**
 * Admission webhooks as kube-apiserver calls them: which configured webhooks a request reaches (rules, scope, the
 * namespace and object selectors), the mutating ones first — each JSONPatch it answers with applied to the object in
 * order, before validation — then the validating ones.
 */
import { webhookDenied } from './denials.js';
import { internalError } from './errors.js';
import { asRecord, clone, isRecord, normalize } from './meta.js';
import { jsonPatch } from './patch.js';
import type { ResourceType } from './registry.js';
import type { Store } from './store.js';
import type { KObj } from './types.js';
import type { Operation, WebhookProbe } from './admission.js';

const WEBHOOK_KINDS = ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'] as const;

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

/** A metav1.LabelSelector against labels: every matchLabels pair and matchExpressions term holds; empty = all. */
function selects(selector: unknown, labels: Record<string, string> | undefined): boolean {
  const s = asRecord(selector);
  const l = labels ?? {};
  const pairs = Object.entries(asRecord(s.matchLabels)).every(([k, v]) => l[k] === v);
  const exprs = Array.isArray(s.matchExpressions) ? s.matchExpressions.map(asRecord) : [];
  return (
    pairs &&
    exprs.every((e) => {
      const key = String(e.key ?? '');
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      const has = Object.prototype.hasOwnProperty.call(l, key);
      if (e.operator === 'In') return has && values.includes(l[key]!);
      if (e.operator === 'NotIn') return !has || !values.includes(l[key]!);
      if (e.operator === 'Exists') return has;
      if (e.operator === 'DoesNotExist') return !has;
      return false;
    })
  );
}

/**
 * The webhook's selectors for a request about `obj` (and `old`): the object selector holds for either, the namespace
 * selector for the object's namespace (a Namespace is matched by its own labels; other cluster-scoped objects always
 * match). Without the object (a DELETE's first admission) they are not checked.
 */
function selectorsMatch(
  store: Store,
  wh: Record<string, unknown>,
  rt: ResourceType,
  obj?: KObj,
  old?: KObj,
): boolean {
  const subject = obj ?? old;
  if (!subject) return true;
  const byObject = [obj, old].some((o) => o && selects(wh.objectSelector, o.metadata.labels));
  const isNamespace = rt.group === '' && rt.resource === 'namespaces';
  const ns = isNamespace
    ? subject
    : rt.namespaced
      ? store.get('namespaces', undefined, subject.metadata.namespace ?? '')
      : undefined;
  const byNamespace =
    !isNamespace && !rt.namespaced ? true : selects(wh.namespaceSelector, ns?.metadata.labels);
  return byObject && byNamespace;
}

/** One webhook a request reaches, with its configuration's kind. */
interface Reached {
  kind: (typeof WEBHOOK_KINDS)[number];
  webhook: Record<string, unknown>;
}

/** The webhooks a request reaches, mutating configurations first, each in its configuration's order. */
function reached(
  store: Store,
  kinds: readonly (typeof WEBHOOK_KINDS)[number][],
  at: { op: Operation; rt: ResourceType; sub: string; obj?: KObj; old?: KObj },
): Reached[] {
  const { op, rt, sub } = at;
  if (
    rt.group === 'admissionregistration.k8s.io' &&
    (WEBHOOK_KINDS as readonly string[]).includes(rt.resource)
  )
    return [];
  return kinds.flatMap((kind) =>
    store.list(`${kind}.admissionregistration.k8s.io`).flatMap((cfg) => {
      const hooks = Array.isArray(cfg.webhooks) ? cfg.webhooks.map(asRecord) : [];
      return hooks
        .filter((wh) =>
          (Array.isArray(wh.rules) ? (wh.rules as Rule[]) : []).some((r) => ruleMatches(r, op, rt, sub)),
        )
        .filter((wh) => selectorsMatch(store, wh, rt, at.obj, at.old))
        .map((webhook) => ({ kind, webhook }));
    }),
  );
}

/** The answer of one call, or the error it makes: a denial refuses whatever the failurePolicy; a failing call Fails. */
function answerOf(
  probe: WebhookProbe,
  wh: Record<string, unknown>,
  rt: ResourceType,
  at: { op: Operation; sub: string; obj?: KObj; old?: KObj },
): unknown[] | undefined {
  const answer = probe(wh, at.obj ?? at.old, { operation: at.op, sub: at.sub, old: at.old });
  if (answer === undefined) return undefined;
  if (typeof answer !== 'string') {
    if ('denied' in answer) throw webhookDenied(rt, at.obj ?? at.old, String(wh.name), answer.denied);
    return answer.patch;
  }
  if (wh.failurePolicy === 'Ignore') return undefined;
  throw internalError(`failed calling webhook "${String(wh.name)}": failed to call webhook: ${answer}`);
}

/**
 * Call the matching webhooks of `phase` (mutating first, then validating) for a request; a patch a validating webhook
 * answers with is ignored, as the real server ignores it.
 */
export function callWebhooks(
  store: Store,
  probe: WebhookProbe,
  op: Operation,
  rt: ResourceType,
  sub: string,
  phase: 'all' | 'mutating' | 'validating' = 'all',
  obj?: KObj,
  old?: KObj,
): void {
  const kinds = WEBHOOK_KINDS.filter((k) => phase === 'all' || k.startsWith(phase));
  for (const { webhook } of reached(store, kinds, { op, rt, sub, obj, old }))
    answerOf(probe, webhook, rt, { op, sub, obj, old });
}

/**
 * Mutating admission of a CREATE or an UPDATE: each matching mutating webhook in turn gets the object as the earlier
 * ones left it, and its JSONPatch is applied (reinvocationPolicy is not modelled: each is called once). What comes out
 * goes on to validation, where a finalizer it added to an object being deleted is refused like any other new one.
 */
export function mutateByWebhooks(
  store: Store,
  probe: WebhookProbe,
  op: Operation,
  rt: ResourceType,
  sub: string,
  obj: KObj,
  old?: KObj,
): KObj {
  let current = obj;
  for (const { webhook } of reached(store, ['mutatingwebhookconfigurations'], { op, rt, sub, obj, old })) {
    const patch = answerOf(probe, webhook, rt, { op, sub, obj: current, old });
    if (!patch || patch.length === 0) continue;
    let patched: unknown;
    try {
      patched = jsonPatch(clone(current), patch);
    } catch (error) {
      throw internalError(
        `admission webhook "${String(webhook.name)}" returned a patch that does not apply: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    current = normalize({
      ...(isRecord(patched) ? patched : {}),
      kind: obj.kind,
      apiVersion: obj.apiVersion,
    });
  }
  return current;
}
