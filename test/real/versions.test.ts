/**
 * Reads negotiated by what the real kube-apiserver 1.20 serves: Ingresses are listed as networking.k8s.io only (1.20
 * also serves them as the deprecated extensions/v1beta1, and counts them under both names), and a webhook's backend
 * is read through the EndpointSlices discovery serves (discovery.k8s.io/v1beta1: v1 came in 1.21), so a webhook
 * still refusing after /finalize, its Service there without endpoints, is said still broken.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { apply, createNamespace, kubectl, restricted, runAction, uniqueName } from './kit.js';

/** The ClusterRoles of deploy/rbac.yaml as shipped. */
const shippedRoles = (): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync('deploy/rbac.yaml', 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown>)
    .filter((d) => d.kind === 'ClusterRole');

/** Bind the shipped `roles`, and only them, to the user `restricted`; returns the unbinding. */
async function bindOnly(roles: string[]): Promise<() => Promise<void>> {
  await apply(...shippedRoles());
  const names = roles.map((role) => uniqueName(`bind-${role}`));
  await apply(
    ...roles.map((role, i) => ({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: names[i] },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'restricted' }],
    })),
  );
  return async () => void (await kubectl(['delete', 'clusterrolebinding', ...names]));
}

describe('reads negotiated with the real server 1.20', () => {
  test('an Ingress held by its finalizer, read with the shipped roles: listed as networking.k8s.io, never asked as extensions', async () => {
    const ns = uniqueName('ingress');
    await createNamespace(ns);
    await apply({
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { namespace: ns, name: 'web', finalizers: ['example.com/edge'] },
      spec: { defaultBackend: { service: { name: 'web', port: { number: 80 } } } },
    });
    // The diagnose role lists ingresses in networking.k8s.io only: a list of extensions would be a 403, not read.
    const unbind = await bindOnly(['namespace-teardown', 'namespace-teardown-diagnose']);
    try {
      const run = await runAction({
        namespaces: ns,
        kubeconfig: restricted().kubeconfig,
        timeout: '15s',
        'teardown-order': 'namespace',
        'fail-on': 'never',
      });
      const t = run.report!.targets[0]!;
      expect(t.outcome).toBe('stuck');
      expect((t.unread ?? []).map((u) => u.what)).not.toContainEqual(expect.stringMatching(/extensions/));
      const held = t.findings.find((f) => f.id === 'object-finalizers')!;
      expect(held.summary).toMatch(
        /^ingresses\.networking\.k8s\.io\/web holds finalizer\(s\) example\.com\/edge/,
      );
      // The conditions name it twice (1.20's namespace controller counts both names); the findings name it once.
      expect(
        t.findings
          .filter((f) => f.id !== 'controller-conditions')
          .map((f) => f.summary)
          .join('\n'),
      ).not.toContain('ingresses.extensions');
    } finally {
      await unbind();
      await kubectl([
        'patch',
        'ingress',
        'web',
        '-n',
        ns,
        '--type=merge',
        '-p',
        '{"metadata":{"finalizers":null}}',
      ]);
    }
  });

  test('a webhook whose Service is there without endpoints, still refusing after /finalize: still broken, its endpoints read at v1beta1', async () => {
    const hooks = uniqueName('hooks');
    const app = uniqueName('app');
    const webhook = `${uniqueName('guard')}.example.com`;
    const label = { 'guarded-by': webhook.split('.')[0]! };
    await createNamespace(hooks);
    await createNamespace(app, label);
    await apply(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { namespace: hooks, name: 'guard' },
        spec: { ports: [{ port: 443 }], selector: { app: 'guard' } },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: app, name: 'settings' } },
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
            namespaceSelector: { matchLabels: label },
            rules: [
              { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] },
            ],
            clientConfig: { service: { namespace: hooks, name: 'guard', port: 443 } },
          },
        ],
      },
    );
    try {
      const run = await runAction({
        namespaces: app,
        'teardown-order': 'namespace',
        timeout: '30s',
        force: 'on',
        'force-after': '8s',
        'force-finalize-namespace': 'true',
        'fail-on': 'leaked',
      });
      const t = run.report!.targets[0]!;
      expect(t.outcome).toBe('forced');
      const broken = t.findings.find((f) => f.id === 'still-broken');
      expect(broken?.summary).toMatch(
        new RegExp(
          `^still broken after the run: ValidatingWebhookConfiguration ${webhook} .* its service ${hooks}/guard has no ready endpoint`,
        ),
      );
      // /finalize went around the webhook: nothing that names it reads as resolved.
      expect(run.summary).not.toMatch(
        /\*\*(controller-conditions|content-delete-refused|still-broken)\*\*[^\n]*resolved by forcing/,
      );
      expect(run.code).toBe(1);
    } finally {
      await kubectl(['delete', 'validatingwebhookconfiguration', webhook, '--ignore-not-found']);
      await kubectl(['delete', 'namespace', hooks, '--wait=false']);
    }
  });
});
