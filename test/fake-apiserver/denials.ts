/**
 * Admission that answers and refuses on purpose: a webhook whose AdmissionReview answer is `allowed: false`, and a
 * ValidatingAdmissionPolicy that denies. Wording as current kube-apiserver writes it (webhook/errors/statuserror.go,
 * validating/dispatcher.go); 1.20 sent the webhook message without the `<resource> "<name>" is forbidden:` prefix and
 * with code 400 when the webhook gave none (measured: test/real/denial.test.ts).
 */
import { ApiError, status, qualified } from './errors.js';
import type { ResourceType } from './registry.js';
import type { KObj } from './types.js';

/** What a webhook's AdmissionReview answer carries when it denies: its `status` fields. */
export interface WebhookDenial {
  message?: string;
  code?: number;
  reason?: string;
}

/** A denial set up on the fake, for the objects `applies` accepts (all when absent). */
export interface DenialRule<T> {
  denial: T;
  applies?: (obj: KObj | undefined) => boolean;
}

/** A ValidatingAdmissionPolicy and its binding denying an operation on some resources. */
export interface PolicyDenial {
  policy: string;
  binding?: string;
  operations: ('CREATE' | 'UPDATE' | 'DELETE')[];
  /** `resource.group` (core: `resource`), or `*`. */
  resources: string[];
  message: string;
  /** The validation's `reason` (default Invalid, so 422). */
  reason?: string;
}

const CODES: Record<string, number> = {
  Invalid: 422,
  Forbidden: 403,
  Unauthorized: 401,
  RequestEntityTooLarge: 413,
};

/** The error of a webhook that answered `allowed: false` (ToStatusErr). */
export function webhookDenied(
  rt: ResourceType,
  obj: KObj | undefined,
  webhook: string,
  d: WebhookDenial,
): ApiError {
  const name = obj?.metadata.name || 'Unknown';
  const code = d.code || 403;
  const deniedBy = `admission webhook "${webhook}" denied the request`;
  const inner = d.message
    ? `${deniedBy}: ${d.message}`
    : d.reason
      ? `${deniedBy}: ${d.reason}`
      : `${deniedBy} without explanation`;
  const prefix =
    code === 500 ? 'Internal error occurred' : `${qualified(rt.resource, rt.group)} "${name}" is forbidden`;
  const reason = d.reason || (code === 500 ? 'InternalError' : 'Forbidden');
  const details =
    code === 500 ? { causes: [{ message: inner }] } : { name, group: rt.group, kind: rt.resource };
  return new ApiError(status(code, reason, `${prefix}: ${inner}`, details));
}

/** The error of a ValidatingAdmissionPolicy that denied (admission.NewForbidden, then the reason's code). */
export function policyDenied(rt: ResourceType, obj: KObj | undefined, p: PolicyDenial): ApiError {
  const name = obj?.metadata.name || 'Unknown';
  const via = p.binding ? ` with binding '${p.binding}'` : '';
  const message = `ValidatingAdmissionPolicy '${p.policy}'${via} denied request: ${p.message}`;
  const reason = p.reason || 'Invalid';
  return new ApiError(
    status(
      CODES[reason] ?? 400,
      reason,
      `${qualified(rt.resource, rt.group)} "${name}" is forbidden: ${message}`,
      {
        name,
        group: rt.group,
        kind: rt.resource,
        causes: [{ message }],
      },
    ),
  );
}

/** Whether a policy matches the operation on the type. */
export function policyMatches(p: PolicyDenial, op: string, rt: ResourceType): boolean {
  const gr = qualified(rt.resource, rt.group);
  return (
    p.operations.includes(op as PolicyDenial['operations'][number]) &&
    p.resources.some((r) => r === '*' || r === gr)
  );
}
