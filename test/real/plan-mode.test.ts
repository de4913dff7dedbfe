/** Plan mode (`dry-run: true`) on the real server: nothing changes, and admission's refusal is in the plan. */
import { apply, get, kubectl, namespace, runAction, uniqueName } from './kit.js';

const LABEL = 'preview.example.com/pr';

describe('plan mode on the real server (kube-apiserver 1.20)', () => {
  const open = uniqueName('pr');
  const guarded = uniqueName('pr');
  const webhook = `${uniqueName('guard')}.example.com`;
  // The namespaceSelector keeps the webhook away from every other test's namespaces.
  beforeAll(() =>
    apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: open, labels: { [LABEL]: '1' } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: open, name: 'app-config' } },
      {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: guarded, labels: { [LABEL]: '2', 'plan-guard': guarded } },
      },
      {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: webhook },
        webhooks: [
          {
            name: webhook,
            failurePolicy: 'Fail',
            sideEffects: 'None',
            admissionReviewVersions: ['v1'],
            namespaceSelector: { matchLabels: { 'plan-guard': guarded } },
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['namespaces'] },
            ],
            clientConfig: { service: { namespace: 'default', name: 'plan-guard-gone', port: 443 } },
          },
        ],
      },
    ),
  );
  afterAll(async () => {
    await kubectl(['delete', 'validatingwebhookconfiguration', webhook, '--ignore-not-found']);
    await kubectl(['delete', 'namespace', open, guarded, '--ignore-not-found', '--wait=false']);
  });

  test('both namespaces stay Active with their objects; the webhook refusing the DELETE is in the plan', async () => {
    const config = await get(`/api/v1/namespaces/${open}/configmaps/app-config`);
    const before = [await namespace(open), await namespace(guarded)].map((n) => n.metadata.resourceVersion);
    const run = await runAction({
      namespaces: `${open} ${guarded}`,
      'dry-run': 'true',
      'target-label': LABEL,
      timeout: '30s',
    });
    expect(run.outputs.result).toBe('planned');
    expect([run.outputs.deleted, run.outputs.stuck, run.outputs.forced]).toEqual(['[]', '[]', '[]']);
    // The refusal fails the check, as the real run would fail.
    expect(run.code).toBe(1);
    for (const name of [open, guarded]) {
      const ns = await namespace(name);
      expect(ns.status.phase).toBe('Active');
      expect(ns.metadata.deletionTimestamp).toBeUndefined();
    }
    const after = [await namespace(open), await namespace(guarded)].map((n) => n.metadata.resourceVersion);
    expect(after).toEqual(before);
    const still = await get(`/api/v1/namespaces/${open}/configmaps/app-config`);
    expect(still.metadata.resourceVersion).toBe(config.metadata.resourceVersion);
    const writes = run.report!.plan!.writes.map((w) => `${w.verb} ${w.object} ${w.answer}`).sort();
    expect(writes).toEqual(
      [`delete namespaces/${guarded} refused`, `delete namespaces/${open} accepted`].sort(),
    );
    const refused = run.report!.plan!.writes.find((w) => w.answer === 'refused')!;
    expect(refused.refusedBy).toEqual({ by: 'webhook', name: webhook });
    expect(refused.message).toContain(`failed calling webhook "${webhook}"`);
    expect(run.summary).toContain('### Targets (2)');
    const firstScreen = run.summary.slice(0, run.summary.indexOf('### Targets ('));
    expect(firstScreen).toContain('Admission would refuse (1)');
    expect(firstScreen).toContain(webhook);
  });
});
