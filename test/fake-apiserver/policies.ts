/**
 * ValidatingAdmissionPolicies as written in YAML (deploy/admission-policy.yaml), evaluated the way the API server
 * does: the policy's match constraints, its match conditions and validations in CEL (a real CEL evaluator), and the
 * binding's namespace selector. Where the fake stops: no paramKind or params, no variables, no audit annotations, no
 * objectSelector, no matchPolicy Equivalent, no excludeResourceRules, and CEL without Kubernetes' own libraries.
 */
import { evaluate } from '@marcbachmann/cel-js';
import { policyDenied } from './denials.js';
import type { ApiError } from './errors.js';
import type { ResourceType } from './registry.js';
import type { KObj } from './types.js';

/** A policy and its binding, as parsed from YAML. */
export interface AdmissionPolicy {
  policy: Loose;
  binding: Loose;
}

/** What the API server knows of one write when it runs the policy. */
export interface PolicyRequest {
  operation: 'CREATE' | 'UPDATE' | 'DELETE';
  rt: ResourceType;
  subResource: string;
  /** The request's namespace: for a Namespace, its own name; '' for other cluster-scoped objects. */
  namespace: string;
  name: string;
  user: string;
  object?: KObj;
  oldObject?: KObj;
  /** The labels of the request's namespace (for a Namespace, its own); undefined when cluster-scoped. */
  namespaceLabels?: Record<string, string>;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- YAML objects, read field by field as the API server does */
type Loose = any;

const anyOf = (list: string[] | undefined, value: string): boolean =>
  (list ?? []).some((v) => v === '*' || v === value);

function resourceMatches(rule: Loose, r: PolicyRequest): boolean {
  const wanted = r.subResource ? `${r.rt.resource}/${r.subResource}` : r.rt.resource;
  const resources: string[] = rule.resources ?? [];
  const resourceOk = resources.some((p) => {
    if (p === wanted) return true;
    const [res, sub] = p.split('/');
    if (!r.subResource) return p === '*';
    return (res === '*' || res === r.rt.resource) && (sub === '*' || sub === r.subResource);
  });
  const scope: string = rule.scope ?? '*';
  const scopeOk = scope === '*' || (scope === 'Namespaced') === r.rt.namespaced;
  return (
    anyOf(rule.apiGroups, r.rt.group) &&
    anyOf(rule.apiVersions, r.rt.version) &&
    anyOf(rule.operations, r.operation) &&
    resourceOk &&
    scopeOk
  );
}

/** A label selector (matchLabels, matchExpressions) against labels. */
export function selectorMatches(selector: Loose, labels: Record<string, string>): boolean {
  const exact = Object.entries((selector?.matchLabels ?? {}) as Record<string, string>);
  if (!exact.every(([k, v]) => labels[k] === v)) return false;
  return ((selector?.matchExpressions ?? []) as Loose[]).every((e) => {
    const has = Object.prototype.hasOwnProperty.call(labels, e.key);
    const values: string[] = e.values ?? [];
    if (e.operator === 'Exists') return has;
    if (e.operator === 'DoesNotExist') return !has;
    if (e.operator === 'In') return has && values.includes(labels[e.key]!);
    if (e.operator === 'NotIn') return !has || !values.includes(labels[e.key]!);
    return false;
  });
}

function celContext(r: PolicyRequest): Record<string, unknown> {
  return {
    request: {
      operation: r.operation,
      userInfo: { username: r.user },
      namespace: r.namespace,
      name: r.name,
      resource: { group: r.rt.group, version: r.rt.version, resource: r.rt.resource },
      subResource: r.subResource,
    },
    object: r.object ?? null,
    oldObject: r.oldObject ?? null,
  };
}

/** The error the API server answers when the policy denies `r`, or undefined when it lets it through. */
export function admissionDenial(p: AdmissionPolicy, r: PolicyRequest): ApiError | undefined {
  const spec = p.policy.spec ?? {};
  if (!((spec.matchConstraints?.resourceRules ?? []) as Loose[]).some((rule) => resourceMatches(rule, r)))
    return undefined;
  const ctx = celContext(r);
  if (!((spec.matchConditions ?? []) as Loose[]).every((c) => evaluate(c.expression, ctx) === true))
    return undefined;
  // A cluster-scoped object other than a Namespace has no namespace: the selector does not exclude it.
  const selector = p.binding.spec?.matchResources?.namespaceSelector;
  if (selector && r.namespaceLabels && !selectorMatches(selector, r.namespaceLabels)) return undefined;
  const failed = ((spec.validations ?? []) as Loose[]).find((v) => evaluate(v.expression, ctx) !== true);
  if (!failed) return undefined;
  const message = failed.messageExpression
    ? String(evaluate(failed.messageExpression, ctx))
    : (failed.message ?? `failed expression: ${failed.expression}`);
  return policyDenied(r.rt, r.object ?? r.oldObject, {
    policy: p.policy.metadata.name,
    binding: p.binding.metadata.name,
    operations: [r.operation],
    resources: ['*'],
    message,
    reason: failed.reason,
  });
}
