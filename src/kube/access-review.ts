/** The one POST among the reads: a SubjectAccessReview, asking the authorizer whether a user may do something. */
import type { AccessAnswer, AccessQuestion } from './port.js';
import { rec, str } from './map.js';
import type { Transport } from './transport.js';

const PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

/** The authorizer's answer to `q`; a 403 on create (or any failure) is a KubeError, never "not allowed". */
export async function reviewAccess(t: Transport, q: AccessQuestion): Promise<AccessAnswer> {
  const body = {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: q.user,
      groups: [...q.groups],
      resourceAttributes: {
        verb: q.verb,
        group: q.group,
        resource: q.resource,
        ...(q.subresource ? { subresource: q.subresource } : {}),
        ...(q.namespace ? { namespace: q.namespace } : {}),
      },
    },
  };
  const answer = await t.requestJson({
    method: 'POST',
    path: PATH,
    body,
    verb: 'create',
    resource: 'subjectaccessreviews.authorization.k8s.io',
  });
  const status = rec(rec(answer).status);
  const reason = str(status.reason);
  const evaluationError = str(status.evaluationError);
  return {
    allowed: status.allowed === true,
    denied: status.denied === true,
    ...(reason ? { reason } : {}),
    ...(evaluationError ? { evaluationError } : {}),
  };
}
