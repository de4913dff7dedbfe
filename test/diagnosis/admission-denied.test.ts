import { parseConditions } from '../../src/diagnosis/conditions.js';
import { parseDenials } from '../../src/diagnosis/denials.js';
import { diagnose } from '../../src/diagnosis/index.js';
import { admissionDenied } from '../../src/diagnosis/rules/admission-denied.js';
import type { Finding } from '../../src/model/findings.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import { conditions, namespace, snapshot, webhook } from './fixtures.js';

/** Condition texts as kube-apiserver 1.20 wrote them (measured on the real control plane) and as current servers do. */
const KYVERNO_120 =
  'admission webhook "validate.kyverno.svc-fail" denied the request: \n\nresource Widget/preview-42/held was blocked due to the following policies \n\nprotect-widgets:\n  block-delete: \'validation error: deleting protected widgets is not allowed. rule block-delete failed at path /metadata/labels/protected/\'\n';
const GATEKEEPER_120 =
  'admission webhook "validation.gatekeeper.sh" denied the request: [deny-delete-protected] deletion of protected objects is not allowed';
const GATEKEEPER_NOW = `configmaps "keep" is forbidden: ${GATEKEEPER_120}`;
const VAP_NOW =
  "configmaps \"keep\" is forbidden: ValidatingAdmissionPolicy 'no-delete-protected' with binding 'no-delete-protected-binding' denied request: failed expression: !has(oldObject.metadata.labels.protected)";
const OTHER_NOW =
  'secrets "db" is forbidden: admission webhook "guard.example.com" denied the request without explanation';

const failing = (...errors: string[]): Snapshot['namespace'] =>
  namespace({
    conditions: conditions({
      NamespaceDeletionContentFailure: [
        'ContentDeletionFailed',
        `Failed to delete all resource types, ${errors.length} remaining: ${errors.length > 1 ? `[${errors.join(', ')}]` : errors[0]}`,
      ],
    }),
  });

const kyvernoHook = webhook({
  configuration: 'kyverno-resource-validating-webhook-cfg',
  name: 'validate.kyverno.svc-fail',
  service: { namespace: 'kyverno', name: 'kyverno-svc' },
  backing: { serviceExists: true, readyEndpoints: 2 },
});

describe('parseDenials', () => {
  test.each([
    {
      name: 'Kyverno (1.20 wording, multi-line YAML body)',
      given: KYVERNO_120,
      expect: {
        engine: 'Kyverno',
        webhook: 'validate.kyverno.svc-fail',
        policy: 'protect-widgets',
        rule: 'block-delete',
        object: 'Widget/preview-42/held',
        message:
          'validation error: deleting protected widgets is not allowed. rule block-delete failed at path /metadata/labels/protected/',
      },
    },
    {
      name: 'Kyverno with the body folded onto one line',
      given:
        "admission webhook \"validate.kyverno.svc-fail\" denied the request:   resource Service/a/b was blocked due to the following policies   require-entity:   names-entity: 'validation error: it''s missing'",
      expect: {
        engine: 'Kyverno',
        policy: 'require-entity',
        rule: 'names-entity',
        message: "validation error: it's missing",
      },
    },
    {
      name: 'Gatekeeper (1.20)',
      given: GATEKEEPER_120,
      expect: {
        engine: 'Gatekeeper',
        policy: 'deny-delete-protected',
        message: 'deletion of protected objects is not allowed',
      },
    },
    {
      name: 'Gatekeeper, current prefix naming the object',
      given: GATEKEEPER_NOW,
      expect: { engine: 'Gatekeeper', policy: 'deny-delete-protected', object: 'configmaps/keep' },
    },
    {
      name: 'ValidatingAdmissionPolicy',
      given: VAP_NOW,
      expect: {
        via: 'validating-admission-policy',
        engine: 'ValidatingAdmissionPolicy',
        policy: 'no-delete-protected',
        binding: 'no-delete-protected-binding',
        message: 'failed expression: !has(oldObject.metadata.labels.protected)',
      },
    },
    {
      name: 'any other webhook, without explanation',
      given: OTHER_NOW,
      expect: {
        engine: 'admission webhook',
        webhook: 'guard.example.com',
        message: '(no explanation given)',
      },
    },
  ])('$name', ({ given, expect: want }) => {
    const [d, ...rest] = parseDenials(given);
    expect(rest).toEqual([]);
    expect(d).toMatchObject(want);
  });

  test('a call that failed is not a denial', () => {
    expect(
      parseDenials(
        'Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": failed to call webhook: Post "https://kyverno-svc.kyverno.svc:443/validate/fail?timeout=10s": service "kyverno-svc" not found',
      ),
    ).toEqual([]);
  });
});

describe('admission-denied', () => {
  test('a policy engine that answers with a denial is up: the verdict quotes it and never offers to switch it off', () => {
    const s = snapshot({ namespace: failing(KYVERNO_120), webhooks: [kyvernoHook] });
    const [f] = admissionDenied(s, parseConditions(s.namespace.conditions));
    expect(f).toMatchObject<Partial<Finding>>({
      id: 'admission-denied',
      severity: 'error',
      summary:
        'Kyverno policy protect-widgets (rule block-delete) denies deleting Widget/preview-42/held on purpose: “validation error: deleting protected widgets is not allowed. rule block-delete failed at path /metadata/labels/protected/”',
      owner: expect.objectContaining({ present: true }) as never,
      leaked: false,
      targets: [{ kind: 'denied-on-purpose', by: 'Kyverno policy protect-widgets (rule block-delete)' }],
    });
    expect(f!.remedy.commands).toEqual([
      'kubectl get clusterpolicies.kyverno.io,policies.kyverno.io -A --field-selector=metadata.name=protect-widgets -o yaml',
    ]);
    expect(f!.remedy.lastResort).toBeUndefined();
    expect(f!.remedy.policy).toBeUndefined();
  });

  test.each([
    {
      name: 'Gatekeeper',
      given: GATEKEEPER_NOW,
      command: 'kubectl get constraints --field-selector=metadata.name=deny-delete-protected -o yaml',
    },
    {
      name: 'ValidatingAdmissionPolicy',
      given: VAP_NOW,
      command: 'kubectl get validatingadmissionpolicy no-delete-protected -o yaml',
    },
    {
      name: 'another webhook',
      given: OTHER_NOW,
      command: 'kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations',
    },
  ])('$name: only look-ups, no delete, no failurePolicy change, /finalize refused', ({ given, command }) => {
    const s = snapshot({ namespace: failing(given) });
    const all = diagnose(s);
    expect(all[0]!.id).toBe('admission-denied');
    expect(all[0]!.remedy.commands).toContain(command);
    const pasted = all
      .flatMap((f) => [...f.remedy.commands, ...(f.remedy.lastResort?.commands ?? [])])
      .join('\n');
    expect(pasted).not.toMatch(
      /kubectl delete (validating|mutating)webhookconfiguration|failurePolicy|validatingadmissionpolicy.* delete/,
    );
    // The generic "content deletion failed" reading must not offer /finalize around a control that is up.
    expect(all.flatMap((f) => f.targets ?? []).filter((t) => t.kind === 'namespace-finalize')).toEqual([]);
  });

  test('a denial and an outage together are two findings, each with its own advice', () => {
    const outage =
      'Internal error occurred: failed calling webhook "audit.example.com": failed to call webhook: Post "https://audit.audit.svc:443/?timeout=10s": service "audit" not found';
    const s = snapshot({
      namespace: failing(GATEKEEPER_NOW, outage),
      webhooks: [
        webhook({
          configuration: 'audit',
          name: 'audit.example.com',
          service: { namespace: 'audit', name: 'audit' },
          backing: { serviceExists: false, readyEndpoints: 0 },
        }),
      ],
    });
    const ids = diagnose(s).map((f) => f.id);
    expect(ids.slice(0, 2)).toEqual(['admission-denied', 'content-delete-refused']);
  });

  test('the same denial in many namespaces is one cause, whatever the namespace', () => {
    const a = admissionDenied(
      snapshot({ namespace: failing(GATEKEEPER_120) }),
      parseConditions(failing(GATEKEEPER_120).conditions),
    );
    const other = namespace({ name: 'preview-7', conditions: failing(GATEKEEPER_120).conditions });
    const b = admissionDenied(snapshot({ namespace: other }), parseConditions(other.conditions));
    expect(a[0]!.cause).toBe(b[0]!.cause);
  });
});

/** kube-apiserver's words when a binding's parameter cannot be found and parameterNotFoundAction is Deny. */
const VAP_NO_PARAMS =
  "configmaps \"app\" is forbidden: ValidatingAdmissionPolicy 'limits' with binding 'limits-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction";

describe('policy-cannot-evaluate', () => {
  const s = (policyBindings?: Snapshot['policyBindings']): Snapshot =>
    snapshot({ namespace: failing(VAP_NO_PARAMS), ...(policyBindings ? { policyBindings } : {}) });

  test('"failed to configure binding" is no deliberate denial: no admission-denied finding for it', () => {
    expect(parseDenials(VAP_NO_PARAMS)[0]).toMatchObject({
      policy: 'limits',
      binding: 'limits-binding',
      cannotEvaluate:
        'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
    });
    expect(diagnose(s()).map((f) => f.id)).not.toContain('admission-denied');
  });

  test.each([
    {
      name: 'the parameter the binding names was read missing: said, as what the binding lacks',
      bindings: [
        {
          binding: 'limits-binding',
          policy: 'limits',
          paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' },
          paramKind: 'v1 ConfigMap',
          paramFound: false,
        },
      ],
      lacks:
        'its binding limits-binding takes its parameter from v1 ConfigMap limits in preview-42 (no namespace in spec.paramRef: the object’s own), which does not exist, parameterNotFoundAction Deny',
    },
    {
      name: 'the binding could not be read: said so, still not a deliberate denial',
      bindings: [{ binding: 'limits-binding', policy: 'limits', unread: '403 Forbidden: no' }],
      lacks: 'its binding could not be read: 403 Forbidden: no',
    },
    { name: 'the binding was never read', bindings: undefined, lacks: 'its binding was not read' },
  ])('$name', ({ bindings, lacks }) => {
    const [f] = diagnose(s(bindings));
    expect(f).toMatchObject({
      id: 'policy-cannot-evaluate',
      verdict: 'cannot-evaluate',
      severity: 'error',
      summary: `ValidatingAdmissionPolicy limits (binding limits-binding) cannot evaluate, so it refuses the namespace controller’s deletes (not on purpose): ${lacks}`,
      targets: [
        {
          kind: 'denied-on-purpose',
          by: 'ValidatingAdmissionPolicy limits (binding limits-binding) (cannot evaluate)',
        },
      ],
    });
    expect(f!.basis).toEqual([
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
      lacks,
    ]);
    // Nothing it offers switches the policy off.
    expect(f!.remedy.commands.join('\n')).not.toMatch(/delete|failurePolicy|patch/);
    expect(f!.remedy.lastResort).toBeUndefined();
  });

  test('a CEL expression that errs is the same: cannot evaluate', () => {
    const text =
      "ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.x > 1' resulted in error: no such key: x";
    expect(parseDenials(text)[0]!.cannotEvaluate).toMatch(
      /^expression 'object.spec.x > 1' resulted in error/,
    );
  });
});
