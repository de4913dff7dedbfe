/** GitOps owners as recreating actors: the shapes Flux and Argo CD write, and the verdict each gives. Pure. */
import {
  toApplication,
  toApplicationSet,
  toHelmRelease,
  toKustomization,
} from '../../src/diagnosis/snapshot/actor-raw.js';
import { willRecreate } from '../../src/diagnosis/rules/will-recreate.js';
import type { GitOpsOwner } from '../../src/diagnosis/types.js';
import { TAKEN_AT, ago } from './fixtures.js';

const view = (gitops: GitOpsOwner[], labels: Record<string, string> = {}) => ({
  takenAt: TAKEN_AT,
  namespace: { name: 'preview-7', labels },
  gitops,
  workloads: [],
  rbac: { roles: [], bindings: [] },
  leases: [],
  readErrors: [],
});

/** An Argo CD Application as the API returns it (fields the model reads, and some it does not). */
const application = (
  over: { automated?: boolean; options?: string[]; reconciledAgo?: number; owner?: string } = {},
) => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Application',
  metadata: {
    name: 'preview-7',
    namespace: 'argocd',
    ...(over.owner
      ? {
          ownerReferences: [
            { apiVersion: 'argoproj.io/v1alpha1', kind: 'ApplicationSet', name: over.owner, uid: 'u' },
          ],
        }
      : {}),
  },
  spec: {
    project: 'default',
    source: { repoURL: 'https://git.example.com/shop.git', path: 'deploy', targetRevision: 'pr-7' },
    destination: { server: 'https://kubernetes.default.svc', namespace: 'preview-7' },
    syncPolicy: {
      ...(over.automated === false ? {} : { automated: { prune: true, selfHeal: true } }),
      syncOptions: over.options ?? ['CreateNamespace=true'],
    },
  },
  status: {
    reconciledAt: ago(over.reconciledAgo ?? 40),
    sync: { status: 'Synced' },
    resources: [{ group: 'apps', version: 'v1', kind: 'Deployment', namespace: 'preview-7', name: 'web' }],
  },
});

describe('GitOps owners that bring a namespace back', () => {
  test.each([
    {
      name: 'Argo CD, automated, CreateNamespace=true, reconciled 40s ago: will recreate',
      owner: toApplication(application()),
      want: [
        'error',
        'will-recreate',
        'Application argocd/preview-7 was reconciled 40s ago (status.reconciledAt)',
      ],
    },
    {
      name: 'the same without automated sync: it applies only when someone syncs it',
      owner: toApplication(application({ automated: false })),
      want: [
        'notice',
        'down',
        'Application argocd/preview-7: no spec.syncPolicy.automated: it applies only when someone syncs it',
      ],
    },
    {
      name: 'the same, last reconciled an hour ago: its controller is not alive',
      owner: toApplication(application({ reconciledAgo: 3600 })),
      want: ['notice', 'down', 'Application argocd/preview-7 was reconciled 3600s ago (status.reconciledAt)'],
    },
    {
      name: 'Flux HelmRelease installing with createNamespace, no controller found: unknown',
      owner: toHelmRelease({
        metadata: { name: 'shop', namespace: 'flux-system' },
        spec: {
          targetNamespace: 'preview-7',
          install: { createNamespace: true },
          chart: { spec: { chart: 'shop' } },
        },
      }),
      want: [
        'warning',
        'unknown',
        'whether its controller runs could not be told: no workload that may update helmreleases.helm.toolkit.fluxcd.io was found',
      ],
    },
  ])('$name', ({ owner, want }) => {
    const [f] = willRecreate(view([owner]));
    expect([f!.severity, f!.verdict, f!.basis![1]]).toEqual(want);
  });

  test.each([
    {
      name: 'a sync finished 30s ago: alive (its own status says so)',
      finishedAt: ago(30),
      want: 'will-recreate',
    },
    {
      name: 'a sync finished an hour ago: whether it runs is unknown',
      finishedAt: ago(3600),
      want: 'unknown',
    },
    {
      name: 'a finish time in the future (untrusted): unknown',
      finishedAt: '2099-01-01T00:00:00Z',
      want: 'unknown',
    },
    { name: 'no time that parses: unknown', finishedAt: 'yesterday', want: 'unknown' },
  ])('no reconciledAt, no controller tied by RBAC — $name', ({ finishedAt, want }) => {
    const app = application();
    const status: Record<string, unknown> = {
      ...app.status,
      operationState: { phase: 'Succeeded', finishedAt },
    };
    delete status.reconciledAt;
    const [f] = willRecreate(view([toApplication({ ...app, status })]));
    expect(f!.verdict).toBe(want);
    if (want === 'will-recreate')
      expect(f!.basis).toContain(
        'Application argocd/preview-7: its controller wrote status.operationState.finishedAt 30s ago',
      );
  });

  test('a reconciledAt an hour ahead of the snapshot is no sign of life: whether it runs is unknown', () => {
    const [f] = willRecreate(view([toApplication(application({ reconciledAgo: -3600 }))]));
    expect(f).toMatchObject({ verdict: 'unknown' });
    // Flipped: reconciled 40 s ago, it is alive.
    expect(willRecreate(view([toApplication(application({ reconciledAgo: 40 }))]))[0]).toMatchObject({
      verdict: 'will-recreate',
    });
  });

  test('an Application that only deploys into the namespace (no CreateNamespace, no Namespace resource) does not recreate it', () => {
    expect(willRecreate(view([toApplication(application({ options: [] }))]))).toEqual([]);
  });

  test('generated by an ApplicationSet: the ApplicationSet is named as what to change, and nothing it writes back is offered', () => {
    const [f] = willRecreate(view([toApplication(application({ owner: 'previews' }))]));
    expect(f!.basis![0]).toMatch(/generated by ApplicationSet previews$/);
    expect(f!.summary).toBe(
      'namespace preview-7 will be recreated: Application argocd/preview-7 (generated by ApplicationSet argocd/previews) is alive and applies it again once it is gone',
    );
    // A patch of the Application (its automated sync off) is written back by the ApplicationSet controller.
    expect(f!.remedy.commands).toEqual([
      'kubectl get applicationsets.argoproj.io previews -n argocd -o yaml',
    ]);
    expect(f!.remedy.note).toMatch(
      /^Change ApplicationSet argocd\/previews, which generates Application argocd\/preview-7: remove preview-7 from its generator/,
    );
    expect(f!.remedy.note).not.toMatch(/Suspending it/);
  });

  test('an owner that also applies another namespace: no command that would stop it there too', () => {
    const app = application();
    app.status.resources.push({
      group: '',
      version: 'v1',
      kind: 'Service',
      namespace: 'shared-db',
      name: 'db',
    });
    const [f] = willRecreate(view([toApplication(app)]));
    expect(f).toMatchObject({ verdict: 'will-recreate', severity: 'error' });
    // Turning off its automated sync would stop it in shared-db as well: only a command that looks.
    expect(f!.remedy.commands).toEqual(['kubectl get applications.argoproj.io preview-7 -n argocd -o yaml']);
    expect(f!.remedy.note).toMatch(
      /^Application argocd\/preview-7 also applies shared-db: suspending or deleting it would stop or remove what it applies there too; remove preview-7 from its source/,
    );
    expect(f!.remedy.note).not.toMatch(/delete the owner|Suspending it/);
  });

  test('an owner whose reach could not be read (no status.resources): no such command either', () => {
    const app: Record<string, unknown> = application();
    const { resources: _, ...status } = app.status as Record<string, unknown>;
    const [f] = willRecreate(view([toApplication({ ...app, status })]));
    expect(f).toMatchObject({ verdict: 'will-recreate' });
    expect(f!.remedy.commands).toEqual(['kubectl get applications.argoproj.io preview-7 -n argocd -o yaml']);
    expect(f!.remedy.note).toMatch(/it has no status\.resources, so what else it applies could not be read/);
  });

  test('a Kustomization tied only by the label it put on the namespace is an owner too', () => {
    const k = toKustomization({
      metadata: { name: 'previews', namespace: 'flux-system' },
      spec: { interval: '5m', path: './previews', prune: true, suspend: true },
      status: { inventory: { entries: [] } },
    });
    const labels = {
      'kustomize.toolkit.fluxcd.io/name': 'previews',
      'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
    };
    const [f] = willRecreate(view([k], labels));
    expect(f).toMatchObject({ verdict: 'down', severity: 'notice' });
    expect(f!.basis).toEqual([
      'namespace preview-7 carries kustomize.toolkit.fluxcd.io/name=previews: Kustomization flux-system/previews applied it',
      'Kustomization flux-system/previews: spec.suspend: true',
    ]);
  });

  test('an ApplicationSet whose template names the namespace literally', () => {
    const set = toApplicationSet({
      metadata: { name: 'previews', namespace: 'argocd' },
      spec: {
        template: {
          spec: {
            destination: { namespace: 'preview-7' },
            syncPolicy: { syncOptions: ['CreateNamespace=true'] },
          },
        },
      },
    });
    expect(set).toMatchObject({ kind: 'ApplicationSet', createsNamespace: ['preview-7'] });
    const templated = toApplicationSet({
      metadata: { name: 'prs', namespace: 'argocd' },
      spec: { template: { spec: { destination: { namespace: 'preview-{{number}}' } } } },
    });
    expect(templated.targets).toEqual([]);
  });

  test("a Kustomization's whole reach: its inventory's cluster-scoped entries are kept, read as Flux writes them", () => {
    const entries = [
      '_preview-7__Namespace',
      'preview-7_web_apps_Deployment',
      '_widgets.acme.io_apiextensions.k8s.io_CustomResourceDefinition',
      '_system__preview-7-reader_rbac.authorization.k8s.io_ClusterRole',
    ].map((id) => ({ id, v: 'v1' }));
    const k = toKustomization({
      metadata: { name: 'preview-7', namespace: 'flux-system' },
      spec: { prune: true, deletionPolicy: 'Delete' },
      status: { inventory: { entries } },
    });
    expect(k).toMatchObject({
      targets: [{ namespace: 'preview-7', field: 'status.inventory' }],
      createsNamespace: ['preview-7'],
      objects: 4,
      deletionPolicy: 'Delete',
      clusterObjects: [
        { group: '', kind: 'Namespace', name: 'preview-7' },
        { group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', name: 'widgets.acme.io' },
        { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:preview-7-reader' },
      ],
    });
    expect(k.reachUnread).toBeUndefined();
  });

  describe('deleting the owner is offered only where its prune stays inside the namespace', () => {
    const kustomization = (entries: string[], prune = true) =>
      toKustomization({
        metadata: { name: 'preview-7', namespace: 'flux-system' },
        spec: { prune },
        status: { inventory: { entries: entries.map((id) => ({ id, v: 'v1' })) } },
      });
    const NS = '_preview-7__Namespace';
    const WEB = 'preview-7_web_apps_Deployment';
    const CRD = '_widgets.acme.io_apiextensions.k8s.io_CustomResourceDefinition';

    test('a CRD in its inventory under prune: the CRD named, deleting the owner not offered', () => {
      const [f] = willRecreate(view([kustomization([NS, WEB, CRD])]));
      expect(f!.remedy.note).toContain(
        'do not delete the owner: deleting Kustomization flux-system/preview-7 would also remove the cluster-scoped CustomResourceDefinition widgets.acme.io, which it applied',
      );
      expect(f!.remedy.note).not.toMatch(/or delete the owner/);
    });

    test.each([
      { name: 'the CRD gone from its inventory', entries: [NS, WEB], prune: true },
      { name: 'prune off: deleting it removes nothing', entries: [NS, WEB, CRD], prune: false },
    ])('flipped, $name: deleting the owner is offered again', ({ entries, prune }) => {
      const [f] = willRecreate(view([kustomization(entries, prune)]));
      expect(f!.remedy.note).toMatch(/or delete the owner \(with prune/);
      expect(f!.remedy.note).not.toMatch(/do not delete/);
    });

    test('a HelmRelease, whose rendered objects are not read: not offered, and said why', () => {
      const hr = toHelmRelease({
        metadata: { name: 'preview-7', namespace: 'flux-system' },
        spec: { targetNamespace: 'preview-7', install: { createNamespace: true } },
      });
      const [f] = willRecreate(view([hr]));
      expect(f!.remedy.note).toMatch(
        /what deleting HelmRelease flux-system\/preview-7 would remove could not be read/,
      );
    });
  });

  test.each([
    { name: 'an id that is not <namespace>_<name>_<group>_<kind>', entries: [{ id: 'preview-7_web' }] },
    { name: 'an entry without an id', entries: [{ v: 'v1' }] },
    { name: 'entries that are not a list', entries: 'preview-7_web_apps_Deployment' },
  ])('a Kustomization whose inventory holds $name: its reach is unread, never half read', ({ entries }) => {
    const k = toKustomization({
      metadata: { name: 'preview-7', namespace: 'flux-system' },
      spec: { prune: true },
      status: { inventory: { entries } },
    });
    expect(k.reachUnread).toMatch(/^its status\.inventory/);
    expect(k.clusterObjects).toBeUndefined();
  });

  test("an Application's whole reach: status.resources without a namespace are cluster-scoped", () => {
    const app = application();
    const resources = [
      ...app.status.resources,
      { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', name: 'web-reader' },
      { group: '', version: 'v1', kind: 'Namespace', name: 'preview-7' },
    ];
    const a = toApplication({ ...app, status: { ...app.status, resources } });
    expect(a.clusterObjects).toEqual([
      { group: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'web-reader' },
      { group: '', kind: 'Namespace', name: 'preview-7' },
    ]);
    const broken = toApplication({ ...app, status: { ...app.status, resources: [{ kind: 'ClusterRole' }] } });
    expect(broken).toMatchObject({
      reachUnread: 'its status.resources holds an entry without its kind or name',
    });
    expect(broken.clusterObjects).toBeUndefined();
  });
});
