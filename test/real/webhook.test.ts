import { apply, condition, kubectl, namespace, runAction, uniqueName, waitGone } from './kit.js';

describe('a failurePolicy: Fail webhook whose service is gone, on the real server', () => {
  const ns = uniqueName('webhook');
  const webhook = `${uniqueName('deny-delete')}.example.com`;
  // The namespaceSelector keeps this webhook away from every other test's namespaces.
  beforeAll(() =>
    apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, labels: { 'webhook-target': ns } } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'app-config' } },
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
            namespaceSelector: { matchLabels: { 'webhook-target': ns } },
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] },
            ],
            clientConfig: { service: { namespace: 'default', name: 'deny-delete-gone', port: 443 } },
          },
        ],
      },
    ),
  );
  afterAll(() => kubectl(['delete', 'validatingwebhookconfiguration', webhook, '--ignore-not-found']));

  test('is diagnosed as refusing the content deletion; removing it (the remedy) lets the namespace go', async () => {
    const run = await runAction({ namespaces: ns, timeout: '15s', 'fail-on': 'stuck' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('stuck');
    const t = run.report!.targets[0]!;
    const finding = t.findings.find((f) => f.id === 'content-delete-refused');
    expect(finding).toBeDefined();
    expect(JSON.stringify(finding)).toContain(webhook);
    expect(run.summary).toContain(webhook);
    const held = await namespace(ns);
    expect(held.status.phase).toBe('Terminating');
    expect(condition(held, 'NamespaceDeletionContentFailure')).toMatchObject({ status: 'True' });
    expect(condition(held, 'NamespaceDeletionContentFailure').message).toContain(
      `failed calling webhook "${webhook}"`,
    );

    await kubectl(['delete', 'validatingwebhookconfiguration', webhook]);
    expect(await waitGone(ns, 60_000)).toBe(true);
  });
});
