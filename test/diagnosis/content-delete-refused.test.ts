import { parseConditions } from '../../src/diagnosis/conditions.js';
import { contentDeleteRefused } from '../../src/diagnosis/rules/content-delete-refused.js';
import type { Snapshot, WebhookState } from '../../src/diagnosis/types.js';
import { conditions, namespace, snapshot, webhook, type RuleRow } from './fixtures.js';

const failing = (message: string): Snapshot['namespace'] =>
  namespace({
    conditions: conditions({ NamespaceDeletionContentFailure: ['ContentDeletionFailed', message] }),
  });

const WEBHOOK_ERROR =
  'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": service "kyverno-svc" not found';
const RBAC_ERROR =
  'pods is forbidden: User "system:serviceaccount:kube-system:namespace-controller" cannot deletecollection resource "pods" in API group "" in the namespace "preview-42"';

const kyverno: WebhookState = webhook({
  configuration: 'kyverno-resource-validating-webhook-cfg',
  name: 'validate.kyverno.svc-fail',
  service: { namespace: 'kyverno', name: 'kyverno-svc' },
  backing: { serviceExists: false, readyEndpoints: 0 },
});

const rows: RuleRow[] = [
  { name: 'no content failure: nothing', given: snapshot({ webhooks: [kyverno] }), expect: [] },
  {
    name: 'a Fail webhook whose service is gone refuses the deletes',
    given: snapshot({
      namespace: failing(`Failed to delete all resource types, 1 remaining: ${WEBHOOK_ERROR}`),
      webhooks: [kyverno],
    }),
    expect: [
      {
        id: 'content-delete-refused',
        severity: 'error',
        summary:
          "the namespace controller's deletes are refused by ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg webhook validate.kyverno.svc-fail (failurePolicy Fail) whose service kyverno/kyverno-svc is down",
        evidence: [
          {
            object: 'namespace/preview-42',
            field: 'status.conditions[NamespaceDeletionContentFailure]',
            value: WEBHOOK_ERROR,
          },
          {
            object: 'validatingwebhookconfiguration/kyverno-resource-validating-webhook-cfg',
            field: 'webhooks[validate.kyverno.svc-fail].failurePolicy',
            value: 'Fail',
          },
          {
            object: 'validatingwebhookconfiguration/kyverno-resource-validating-webhook-cfg',
            field: 'webhooks[validate.kyverno.svc-fail].rules (DELETE)',
            value: '*',
          },
          {
            object: 'validatingwebhookconfiguration/kyverno-resource-validating-webhook-cfg',
            field: 'webhooks[validate.kyverno.svc-fail].clientConfig',
            value: 'kyverno/kyverno-svc',
          },
          { object: 'service/kyverno/kyverno-svc', field: 'backing', value: 'service does not exist' },
        ],
        owner: { controller: 'service kyverno/kyverno-svc', present: false },
        remedy: {
          commands: [
            'kubectl get endpointslices -n kyverno -l kubernetes.io/service-name=kyverno-svc',
            'kubectl delete validatingwebhookconfiguration kyverno-resource-validating-webhook-cfg',
          ],
          policy: 'force-finalize-namespace: true',
          note: expect.stringContaining('failurePolicy: Ignore') as unknown as string,
        },
        leaked: false,
      },
    ],
  },
  {
    name: 'RBAC denial names the user, verb and resource',
    given: snapshot({
      namespace: failing(`Failed to delete all resource types, 1 remaining: ${RBAC_ERROR}`),
    }),
    expect: [
      {
        summary:
          'RBAC denies system:serviceaccount:kube-system:namespace-controller to deletecollection pods in namespace preview-42',
        remedy: expect.objectContaining({
          commands: [
            'kubectl auth can-i deletecollection pods -n preview-42 --as=system:serviceaccount:kube-system:namespace-controller',
          ],
        }) as never,
      },
    ],
  },
  {
    name: 'two joined errors: one finding each',
    given: snapshot({
      namespace: failing(
        `Failed to delete all resource types, 2 remaining: [${WEBHOOK_ERROR}, ${RBAC_ERROR}]`,
      ),
      webhooks: [kyverno],
    }),
    expect: [
      { summary: expect.stringContaining('validate.kyverno.svc-fail') as unknown as string },
      { summary: expect.stringContaining('RBAC denies') as unknown as string },
    ],
  },
  {
    name: 'an unexplained error, plus a down Fail webhook not named in it, reported as a suspect',
    given: snapshot({
      namespace: failing('Failed to delete all resource types, 1 remaining: etcdserver: request timed out'),
      webhooks: [
        webhook({ name: 'gatekeeper.sh', configuration: 'gatekeeper-validating', deleteResources: ['*'] }),
        webhook({ name: 'healthy', backing: { serviceExists: true, readyEndpoints: 2 } }),
        webhook({ name: 'ignored', failurePolicy: 'Ignore' }),
      ],
    }),
    expect: [
      {
        severity: 'error',
        summary: 'the namespace controller failed to delete content: etcdserver: request timed out',
      },
      {
        severity: 'warning',
        confidence: 0.5,
        summary:
          'suspect: ValidatingWebhookConfiguration gatekeeper-validating webhook gatekeeper.sh intercepts DELETE of * with failurePolicy Fail and its service is down',
      },
    ],
  },
  {
    name: 'the call fails but its service has ready endpoints (TLS): look first; deleting the webhook is only a marked last resort',
    given: snapshot({
      namespace: failing(
        'Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": tls: failed to verify certificate: x509: certificate signed by unknown authority',
      ),
      webhooks: [{ ...kyverno, backing: { serviceExists: true, readyEndpoints: 2 } }],
    }),
    expect: [
      {
        summary:
          "the namespace controller's deletes are refused by ValidatingWebhookConfiguration kyverno-resource-validating-webhook-cfg webhook validate.kyverno.svc-fail (failurePolicy Fail): TLS fails (its caBundle or serving certificate is wrong), although its service has 2 ready endpoint address(es)",
        owner: { controller: 'service kyverno/kyverno-svc', present: true },
        remedy: expect.objectContaining({
          commands: [
            'kubectl get endpointslices -n kyverno -l kubernetes.io/service-name=kyverno-svc',
            'kubectl get validatingwebhookconfiguration kyverno-resource-validating-webhook-cfg -o yaml',
          ],
          lastResort: expect.objectContaining({
            commands: [
              'kubectl delete validatingwebhookconfiguration kyverno-resource-validating-webhook-cfg',
            ],
            risk: expect.stringContaining('switches off everything the webhook enforces') as unknown,
          }) as unknown,
        }) as never,
      },
    ],
  },
  {
    name: 'the webhook’s service could not be read (403): whether it is up is unknown, so no delete is offered first',
    given: snapshot({
      namespace: failing(`Failed to delete all resource types, 1 remaining: ${WEBHOOK_ERROR}`),
      webhooks: [{ ...kyverno, backing: undefined }],
    }),
    expect: [
      {
        owner: { controller: 'service kyverno/kyverno-svc', present: 'unknown' },
        remedy: expect.objectContaining({
          commands: [
            'kubectl get endpointslices -n kyverno -l kubernetes.io/service-name=kyverno-svc',
            'kubectl get validatingwebhookconfiguration kyverno-resource-validating-webhook-cfg -o yaml',
          ],
        }) as never,
        evidence: expect.arrayContaining([
          {
            object: 'service/kyverno/kyverno-svc',
            field: 'backing',
            value: 'not read: whether it is up is unknown',
          },
        ]) as never,
      },
    ],
  },
  {
    name: 'a webhook that answered with a denial is not an outage here: admission-denied reports it',
    given: snapshot({
      namespace: failing(
        'Failed to delete all resource types, 1 remaining: admission webhook "validation.gatekeeper.sh" denied the request: [keep] protected',
      ),
      webhooks: [webhook({ name: 'validation.gatekeeper.sh' })],
    }),
    expect: [],
  },
];

describe('content-delete-refused', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = contentDeleteRefused(given, parseConditions(given.namespace.conditions));
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});
