/**
 * After forcing, the truth: a cause that outlives the namespace — here a `failurePolicy: Fail` webhook whose backend
 * lived in a target the run deleted — is read again after the run and reported still broken, with the command that
 * clears it, failing the check under fail-on: leaked; forcing never marks it resolved.
 */
import { FakeCluster, GVR } from '../fake-apiserver/index.js';
import { renderFixFirst, renderSummary } from '../../src/report/markdown.js';
import { FAST, runEngine } from '../helpers/harness.js';

const WEBHOOK = 'guard.policy.example.com';

/**
 * `pr-hooks` serves a Fail webhook on DELETE of ConfigMaps cluster-wide; `pr-app` holds a ConfigMap, and a pod that
 * takes 2 s to stop: pods go first (1.34), so its ConfigMap is deleted after `pr-hooks` is gone.
 */
function setUp(): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  for (const ns of ['pr-hooks', 'pr-app']) cluster.addNamespace(ns, { labels: { preview: 'yes' } });
  cluster.addObject(GVR.configmaps, { namespace: 'pr-app', name: 'settings' });
  cluster.addNode('node-1', true);
  cluster.addPod('pr-app', 'web-0', { nodeName: 'node-1', graceSeconds: 2 });
  cluster.addService('pr-hooks', 'guard', 1);
  cluster.addObject(GVR.validatingwebhookconfigurations, {
    name: 'guard',
    webhooks: [
      {
        name: WEBHOOK,
        clientConfig: { service: { namespace: 'pr-hooks', name: 'guard', path: '/', port: 443 } },
        rules: [
          {
            operations: ['DELETE'],
            apiGroups: [''],
            apiVersions: ['v1'],
            resources: ['configmaps'],
            scope: '*',
          },
        ],
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  return cluster;
}

describe('a webhook whose backend was in a deleted target', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('deleted together, forced: still broken after the run, never resolved, the check fails under leaked', async () => {
    cluster = setUp();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-hooks pr-app',
      'teardown-order': 'namespace',
      timeout: '10s',
      force: 'on',
      'force-after': '4s',
      'force-finalize-namespace': 'true',
      'fail-on': 'leaked',
    });
    const app = report.targets.find((t) => t.name === 'pr-app')!;
    expect(app.outcome).toBe('forced');
    const broken = app.findings.find((f) => f.id === 'still-broken')!;
    expect(broken).toMatchObject({ verdict: 'backend-down', leaked: true });
    expect(broken.summary).toMatch(
      /^still broken after the run: ValidatingWebhookConfiguration guard \(webhook guard.policy.example.com, failurePolicy Fail\) refuses every DELETE of configmaps in the cluster — its service pr-hooks\/guard (does not exist|has no ready endpoint); namespace pr-app was forced past it$/,
    );
    expect(report.targets.find((t) => t.name === 'pr-hooks')!.findings.map((f) => f.id)).toContain(
      'still-broken',
    );
    expect(report.failures.join('\n')).toMatch(
      /left broken after the run: ValidatingWebhookConfiguration guard: failurePolicy Fail/,
    );
    const summary = renderSummary(report);
    expect(summary).not.toMatch(/content-delete-refused\*\* — [^\n]*resolved by forcing/);
    const first = renderFixFirst(report);
    expect(first).toContain('⚠️ **Still broken after the run**');
    expect(first).toContain('kubectl --context fake delete validatingwebhookconfiguration guard');
    // It is true: a ConfigMap elsewhere cannot be deleted now.
    expect(cluster.get(GVR.validatingwebhookconfigurations, undefined, 'guard')).toBeDefined();
  });

  test('custom resources first (the default): the host goes after pr-app, so pr-app goes clean; the webhook is still broken after', async () => {
    cluster = setUp();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'pr-hooks pr-app',
      timeout: '10s',
      'fail-on': 'leaked',
    });
    const app = report.targets.find((t) => t.name === 'pr-app')!;
    const hooks = report.targets.find((t) => t.name === 'pr-hooks')!;
    expect(app.outcome).toBe('gone');
    expect(hooks.customResources?.held).toMatchObject({ serves: ['pr-app'], ended: 'served-gone' });
    expect(hooks.findings.find((f) => f.id === 'still-broken')?.summary).toMatch(
      /its backend lived in namespace pr-hooks, which this run deleted$/,
    );
    expect(report.failures.join('\n')).toMatch(/left broken after the run/);
  });
});
