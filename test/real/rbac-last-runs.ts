/**
 * The runs of test/real/rbac-matrix.test.ts that need more than a namespace: `/finalize` past a webhook that refuses
 * deletes (force), and GitOps owners suspended and deleted where they live (gitops-owners).
 */
import { EXAMPLE_CRD } from '../../src/permissions/matrix.js';
import { resultText } from '../../src/force/audit.js';
import { admin, apply, createNamespace, get, kubectl, namespace, raw, runAction, uniqueName } from './kit.js';
import type { Identity } from './rbac-identities.js';
import { CR_API, CR_TYPE, unexpected, widget } from './rbac-runs.js';

/** force: a Fail webhook refuses the custom resource's delete; /finalize goes ahead, leaving it in storage. */
export async function finalizeMode(id: Identity): Promise<void> {
  const ns = uniqueName('rbac-finalize');
  const hook = uniqueName('widget-guard');
  await createNamespace(ns, { 'rbac-probe': ns });
  await apply(widget(ns, 'w1', ['example.com/cleanup']));
  await apply({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: hook },
    webhooks: [
      {
        name: `${hook}.example.com`,
        clientConfig: { service: { namespace: 'nowhere', name: 'gone', port: 443 } },
        rules: [
          {
            operations: ['DELETE'],
            apiGroups: [EXAMPLE_CRD.group],
            apiVersions: ['*'],
            resources: [EXAMPLE_CRD.resource],
          },
        ],
        // Only this namespace: the other tests' widgets are not refused.
        namespaceSelector: { matchLabels: { 'rbac-probe': ns } },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        admissionReviewVersions: ['v1'],
      },
    ],
  });
  const path = `${CR_API}/namespaces/${ns}/${EXAMPLE_CRD.resource}/w1`;
  try {
    const run = await runAction({
      namespaces: ns,
      kubeconfig: id.kubeconfig,
      timeout: '60s',
      force: 'on',
      'force-after': '10s',
      'force-finalizers': 'example.com/*',
      'force-finalize-namespace': 'true',
      'fail-on': 'stuck',
    });
    expect(run.outputs.result).toBe('forced');
    const t = run.report!.targets[0]!;
    expect(t.findings.map((f) => f.id)).toContain('content-delete-refused');
    expect(t.force!.audit.map((a) => `${a.object}: ${resultText(a)}`)).toEqual([
      `${CR_TYPE}/w1: skipped: not being deleted yet`,
      `namespace/${ns}: finalized`,
    ]);
    expect(await namespace(ns)).toBeUndefined();
    expect(unexpected(run.report!)).toEqual([]);
  } finally {
    await kubectl(['delete', 'validatingwebhookconfiguration', hook, '--ignore-not-found']);
    await raw(admin(), 'PATCH', path, {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { metadata: { finalizers: null } },
    });
    await raw(admin(), 'DELETE', path);
  }
}

const KUSTOMIZATIONS = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations';

/** A Flux Kustomization in flux-system whose inventory holds the namespace `ns` (it would apply it again). */
const owner = (ns: string): Record<string, unknown> => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { namespace: 'flux-system', name: ns },
  spec: { interval: '1m', path: './previews', prune: true, sourceRef: { kind: 'GitRepository', name: 'p' } },
  status: { inventory: { entries: [{ id: `_${ns}__Namespace`, v: 'v1' }] } },
});

/** gitops-owners: `suspend` patches the owner and reads it back; `delete` deletes it; the namespaces go. */
export async function gitopsMode(id: Identity): Promise<void> {
  for (const policy of ['suspend', 'delete'] as const) {
    const ns = uniqueName(`rbac-${policy}`);
    await createNamespace(ns);
    await apply(owner(ns));
    const run = await runAction({
      namespaces: ns,
      kubeconfig: id.kubeconfig,
      timeout: '40s',
      'gitops-owners': policy,
      'fail-on': 'stuck',
    });
    expect(run.outputs.result).toBe('clean');
    expect(run.report!.lifecycle!.owners!.map((o) => `${o.owner}: ${o.outcome}`)).toEqual([
      `Kustomization flux-system/${ns}: ${policy === 'suspend' ? 'suspended' : 'deleted'}`,
    ]);
    const left = await get(`${KUSTOMIZATIONS}/${ns}`);
    if (policy === 'suspend') expect(left.spec.suspend).toBe(true);
    else expect(left).toBeUndefined();
    expect(await namespace(ns)).toBeUndefined();
    expect(unexpected(run.report!)).toEqual([]);
    if (left) await kubectl(['-n', 'flux-system', 'delete', 'kustomization', ns]);
  }
}
