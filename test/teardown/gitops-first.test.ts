import { renderSummary } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import {
  applicationBody,
  FakeCluster,
  GITOPS_TYPES,
  kustomizationBody,
  type GitOpsFlavour,
} from '../fake-apiserver/index.js';
import { owners, run, world } from './gitops-world.js';

/** Writes the run sent to the owner type. */
const ownerWrites = (cluster: FakeCluster, f: GitOpsFlavour): string[] =>
  cluster.requests
    .filter((r) => r.method !== 'GET' && r.path.includes(`/${GITOPS_TYPES[f].plural}/`))
    .map((r) => `${r.method} ${r.path}`);

describe('GitOps owners first, against a live GitOps controller', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  const KS = kustomizationBody({ name: 'preview-web-5', namespaces: ['pr-5'], objectsPerNamespace: 13 });
  const KS_PATH = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/preview-web-5';
  const APP = applicationBody({ name: 'preview-5', namespace: 'pr-5', resources: 6 });
  const APP_PATH = '/apis/argoproj.io/v1alpha1/namespaces/argocd/applications/preview-5';

  test.each([
    { flavour: 'flux' as const, owner: KS },
    { flavour: 'argo' as const, owner: APP },
  ])(
    '$flavour, gitops-owners: report (the default): the owner is left, the namespace comes back',
    async ({ flavour, owner }) => {
      cluster = world(flavour, owner);
      const { report } = await run(cluster, {});
      expect(report.targets.map((t) => t.outcome)).toEqual(['recreated']);
      expect(cluster.gitopsLog).toContain('recreated namespace pr-5');
      expect(cluster.namespace('pr-5')).toBeDefined();
      expect(report.lifecycle?.owners).toBeUndefined();
      expect(ownerWrites(cluster, flavour)).toEqual([]);
    },
  );

  test('Flux, suspend: spec.suspend set first, nothing recreated, the namespace gone', async () => {
    cluster = world('flux', KS);
    const { report } = await run(cluster, { 'gitops-owners': 'suspend' });
    expect(owners(report)).toEqual([
      {
        owner: 'Kustomization flux-system/preview-web-5',
        targets: ['pr-5'],
        outcome: 'suspended',
        note: 'suspended first (spec.suspend: true)',
      },
    ]);
    expect(report.targets.map((t) => t.outcome)).toEqual(['gone']);
    expect(report.failures).toEqual([]);
    expect(cluster.gitopsLog).toEqual([]);
    expect(cluster.namespace('pr-5')).toBeUndefined();
    expect(ownerWrites(cluster, 'flux')).toEqual([`PATCH ${KS_PATH}`]);
    expect(renderSummary(report)).toContain('Kustomization flux-system/preview-web-5 suspended first');
  });

  test('Flux, delete with prune: deleted first, its inventory pruned with it, nothing recreated', async () => {
    cluster = world('flux', KS);
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: 'Kustomization flux-system/preview-web-5',
        targets: ['pr-5'],
        outcome: 'deleted',
        pruned: 14,
        note: 'deleted first, 14 objects pruned with it',
      },
    ]);
    expect(['gone', 'already-gone']).toContain(report.targets[0]!.outcome);
    expect(report.failures).toEqual([]);
    expect(cluster.gitopsLog).toEqual(['Kustomization flux-system/preview-web-5: pruned namespace pr-5']);
    expect(cluster.namespace('pr-5')).toBeUndefined();
    expect(ownerWrites(cluster, 'flux')).toEqual([`DELETE ${KS_PATH}`]);
    expect(renderSummary(report)).toContain(
      'Kustomization flux-system/preview-web-5 deleted first, 14 objects pruned with it',
    );
    expect(renderText(report, { width: 200, color: false })).toContain(
      'GitOps owners first\nKustomization flux-system/preview-web-5: deleted — deleted first, 14 objects pruned with it',
    );
  });

  test('Argo CD, suspend: automated sync removed first, nothing recreated', async () => {
    cluster = world('argo', APP);
    const { report } = await run(cluster, { 'gitops-owners': 'suspend' });
    expect(owners(report)).toMatchObject([{ owner: 'Application argocd/preview-5', outcome: 'suspended' }]);
    expect(owners(report)[0]!.note).toMatch(/^suspended first \(no spec.syncPolicy.automated/);
    expect(report.targets.map((t) => t.outcome)).toEqual(['gone']);
    expect(cluster.gitopsLog).toEqual([]);
    expect(ownerWrites(cluster, 'argo')).toEqual([`PATCH ${APP_PATH}`]);
  });

  test('Argo CD, delete: its resources finalizer runs (the namespace pruned), then the rest goes', async () => {
    cluster = world('argo', APP);
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: 'Application argocd/preview-5',
        targets: ['pr-5'],
        outcome: 'deleted',
        pruned: 6,
        note: 'deleted first, 6 resources deleted with it (resources-finalizer.argocd.argoproj.io)',
      },
    ]);
    expect(cluster.gitopsLog).toEqual(['Application argocd/preview-5: pruned namespace pr-5']);
    expect(cluster.namespace('pr-5')).toBeUndefined();
  });

  test.each([
    {
      flavour: 'flux' as const,
      owner: kustomizationBody({ name: 'previews', namespaces: ['pr-5', 'shared-db'] }),
      name: 'Kustomization flux-system/previews',
      outside: 'shared-db (the Namespace object)',
    },
    {
      flavour: 'argo' as const,
      owner: {
        ...APP,
        status: { resources: [{ version: 'v1', kind: 'Service', namespace: 'shared-db', name: 'db' }] },
      },
      name: 'Application argocd/preview-5',
      outside: 'shared-db (status.resources)',
    },
  ])(
    '$flavour: an owner that also targets a namespace outside the targets is reported and left alone',
    async ({ flavour, owner, name, outside }) => {
      cluster = world(flavour, owner, ['shared-db']);
      const { report } = await run(cluster, { 'gitops-owners': 'delete' });
      expect(owners(report)).toEqual([
        {
          owner: name,
          targets: ['pr-5'],
          outcome: 'left-alone',
          note: `it also targets ${outside}, outside the targets: reported, never touched`,
        },
      ]);
      expect(ownerWrites(cluster, flavour)).toEqual([]);
      // Left as it is, it applies the namespace again.
      expect(report.targets.map((t) => t.outcome)).toEqual(['recreated']);
      expect(cluster.namespace('shared-db')).toBeDefined();
      expect(renderSummary(report)).toContain(`${name} left alone: it also targets`);
    },
  );

  test('an owner whose reach cannot be read (an Application without status.resources) is left alone', async () => {
    const { resources: _, ...status } = APP.status as Record<string, unknown>;
    cluster = world('argo', { ...APP, status });
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: 'Application argocd/preview-5',
        targets: ['pr-5'],
        outcome: 'left-alone',
        note: 'it has no status.resources, so whether it also applies outside the targets cannot be told: reported, never touched',
      },
    ]);
    expect(ownerWrites(cluster, 'argo')).toEqual([]);
    expect(report.targets.map((t) => t.outcome)).toEqual(['recreated']);
  });

  test('force: dry-run: what would be done, and nothing written to the owner', async () => {
    cluster = world('flux', KS);
    const { report } = await run(cluster, { 'gitops-owners': 'delete', force: 'dry-run' });
    expect(owners(report)).toEqual([
      {
        owner: 'Kustomization flux-system/preview-web-5',
        targets: ['pr-5'],
        outcome: 'would-delete',
        pruned: 14,
        note: 'would be deleted first, 14 objects pruned with it',
      },
    ]);
    expect(ownerWrites(cluster, 'flux')).toEqual([]);
    expect(renderSummary(report)).toContain(
      'Kustomization flux-system/preview-web-5 would be deleted first, 14 objects pruned with it',
    );
  });
});
