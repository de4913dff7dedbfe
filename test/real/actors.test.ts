/**
 * The actor model against the real kube-apiserver and kube-controller-manager 1.20: an operator in one target serving
 * custom resources in another (both targets, both orders of the input), a built-in finalizer whose controller this
 * cluster does not run, and a webhook whose backend was in a deleted target, after forcing.
 */
import {
  apply,
  clearFinalizers,
  createCRD,
  createNamespace,
  kubectl,
  namespace,
  runAction,
  uniqueName,
  waitGone,
} from './kit.js';
import { FINALIZER, GROUP, deployOperator, startOperator } from './gizmo.js';

describe('actors across targets, on the real server', () => {
  beforeAll(() => createCRD(GROUP, 'Gizmo', 'gizmos'));

  test.each(['host first', 'served first'])(
    'an operator in one target, its custom resources in another (%s): cleaned up, the host deleted last, clean',
    async (order) => {
      const ops = uniqueName('ops');
      const app = uniqueName('app');
      for (const ns of [ops, app]) await createNamespace(ns);
      await deployOperator(ops);
      for (const name of ['g1', 'g2'])
        await apply({
          apiVersion: `${GROUP}/v1`,
          kind: 'Gizmo',
          metadata: { namespace: app, name, finalizers: [FINALIZER] },
        });
      const op = await startOperator(app, ops);
      const run = await runAction({
        namespaces: order === 'host first' ? `${ops} ${app}` : `${app} ${ops}`,
        timeout: '40s',
        'fail-on': 'leaked',
      });
      expect(run.outputs.result).toBe('clean');
      expect(op.cleanups()).toEqual([`deleted bucket for ${app}/g1`, `deleted bucket for ${app}/g2`]);
      expect(op.killedAt()).toBeDefined();
      const host = run.report!.targets.find((t) => t.name === ops)!;
      expect(host.customResources?.held).toMatchObject({ serves: [app], ended: 'served-gone' });
      expect(run.summary).toMatch(new RegExp(`\\*\\*${ops}\\*\\* deleted last, held .* until ${app} ended`));
      for (const ns of [ops, app]) expect(await namespace(ns)).toBeUndefined();
      await kubectl([
        'delete',
        'clusterrole,clusterrolebinding',
        `gizmo-operator-${ops}`,
        '--ignore-not-found',
      ]);
    },
  );

  test('load-balancer-cleanup where no cloud controller can be seen: unknown with what was read, never "running"', async () => {
    const ns = uniqueName('lb');
    await createNamespace(ns);
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: ns, name: 'edge', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] },
      spec: { ports: [{ port: 80 }] },
    });
    const run = await runAction({ namespaces: ns, timeout: '12s', 'fail-on': 'stuck' });
    expect(run.outputs.result).toBe('stuck');
    const f = run.report!.targets[0]!.findings.find((x) => x.id === 'finalizer-owner-gone')!;
    expect(f).toMatchObject({
      verdict: 'unknown',
      leaked: false,
      owner: expect.objectContaining({ present: 'unknown' }),
    });
    expect(f.summary).toMatch(
      /no Lease kube-system\/cloud-controller-manager and no pod labelled component=cloud-controller-manager.*no pod of kube-controller-manager is visible to read its --cloud-provider/,
    );
    expect(f.summary).not.toMatch(/running/);
    await clearFinalizers(`/api/v1/namespaces/${ns}/services/edge`);
    expect(await waitGone(ns)).toBe(true);
  });

  test('a webhook whose backend was in a deleted target: forced past, then reported still broken, failing fail-on leaked', async () => {
    const hooks = uniqueName('hooks');
    const app = uniqueName('app');
    const elsewhere = uniqueName('elsewhere');
    const webhook = `${uniqueName('guard')}.example.com`;
    const label = { 'guarded-by': webhook.split('.')[0]! };
    await createNamespace(hooks);
    for (const ns of [app, elsewhere]) await createNamespace(ns, label);
    await apply(
      ...[app, elsewhere].map((ns) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ns, name: 'settings' },
      })),
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
        namespaces: `${hooks} ${app}`,
        'teardown-order': 'namespace',
        timeout: '30s',
        force: 'on',
        'force-after': '8s',
        'force-finalize-namespace': 'true',
        'fail-on': 'leaked',
      });
      const t = run.report!.targets.find((x) => x.name === app)!;
      expect(t.outcome).toBe('forced');
      expect(t.findings.find((f) => f.id === 'still-broken')?.summary).toMatch(
        new RegExp(
          `^still broken after the run: ValidatingWebhookConfiguration ${webhook} .* its service ${hooks}/guard does not exist`,
        ),
      );
      expect(run.outputs.result).toBe('forced');
      expect(run.code).toBe(1);
      expect(run.report!.failures.join('\n')).toMatch(/left broken after the run/);
      expect(run.summary).toContain('⚠️ **Still broken after the run**');
      // The command, as laid out to paste (long lines wrapped with a backslash).
      expect(run.summary.replace(/ \\\n\s+/g, ' ')).toContain(
        `delete validatingwebhookconfiguration ${webhook}`,
      );
      expect(run.summary).not.toMatch(/content-delete-refused\*\* — [^\n]*resolved by forcing/);
      // It is so: a ConfigMap in another namespace it matches can no longer be deleted.
      await expect(kubectl(['delete', 'configmap', 'settings', '-n', elsewhere])).rejects.toThrow(
        /failed calling webhook/,
      );
    } finally {
      await kubectl(['delete', 'validatingwebhookconfiguration', webhook, '--ignore-not-found']);
      await kubectl(['delete', 'namespace', elsewhere, '--wait=false']);
    }
  });
});
