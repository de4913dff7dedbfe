/** Removing a broken webhook never removes the live ones that share its configuration. Pure. */
import { toWebhooks } from '../../src/diagnosis/snapshot/raw.js';
import { brokenWebhook } from '../../src/diagnosis/rules/still-broken.js';
import { removeWebhooksCommands } from '../../src/diagnosis/remedy.js';

/** A configuration as the API returns it: `guard` intercepts DELETE (its backend in preview-7), then `others`. */
function configuration(others: { name: string; service: string }[]) {
  const hook = (name: string, svc: string, ops: string[]) => {
    const [namespace, svcName] = svc.split('/');
    return {
      name,
      failurePolicy: 'Fail',
      clientConfig: { service: { namespace, name: svcName } },
      rules: [{ operations: ops, apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
    };
  };
  return {
    metadata: { name: 'shop-hooks' },
    webhooks: [
      ...others.map((o) => hook(o.name, o.service, ['CREATE', 'UPDATE'])),
      hook('guard.shop.example.com', 'preview-7/guard', ['DELETE']),
    ],
  };
}

const gone = { serviceExists: false, readyEndpoints: 0 };

describe('the command that clears a broken webhook', () => {
  test('alone in its configuration: the configuration is deleted', () => {
    const [w] = toWebhooks(configuration([]), 'ValidatingWebhookConfiguration');
    expect(removeWebhooksCommands([{ ...w!, backing: gone }])).toEqual([
      'kubectl delete validatingwebhookconfiguration shop-hooks',
    ]);
  });

  test('beside a webhook its configuration serves from the same (gone) service: deleted whole', () => {
    const [w] = toWebhooks(
      configuration([{ name: 'mutate.shop.example.com', service: 'preview-7/guard' }]),
      'ValidatingWebhookConfiguration',
    );
    expect(removeWebhooksCommands([{ ...w!, backing: gone }])).toEqual([
      'kubectl delete validatingwebhookconfiguration shop-hooks',
    ]);
  });

  test('beside a webhook served by another service: only it is removed, by index, its name tested first', () => {
    const [w] = toWebhooks(
      configuration([{ name: 'images.security.example.com', service: 'security/image-policy' }]),
      'ValidatingWebhookConfiguration',
    );
    const commands = removeWebhooksCommands([{ ...w!, backing: gone }]);
    expect(commands).toEqual([
      `kubectl patch validatingwebhookconfiguration shop-hooks --type=json -p '[{"op":"test","path":"/webhooks/1/name","value":"guard.shop.example.com"},{"op":"remove","path":"/webhooks/1"}]'`,
    ]);
    // After the run: the same, and the note says the others stay.
    const f = brokenWebhook({ ...w!, backing: gone }, 'preview-7', false)!;
    expect(f.remedy.commands).toEqual(commands);
    expect(f.remedy.note).toMatch(/Only this webhook is removed: images\.security\.example\.com stays/);
  });
});
