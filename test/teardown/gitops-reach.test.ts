/**
 * An owner's whole reach decides `gitops-owners: delete`: one whose prune or cascade takes a cluster-scoped object
 * (a CRD, a ClusterRole), or whose reach cannot be read (a HelmRelease), is left alone and says what it would have
 * taken; the DELETE carries the owner's resourceVersion, so an owner that changed since it was read is read again
 * once and decided again. Against the fake API server over HTTPS, with a live GitOps controller that prunes.
 */
import type { Kube } from '../../src/kube/port.js';
import { renderSummary } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import {
  applicationBody,
  FakeCluster,
  FAST,
  GITOPS_TYPES,
  kustomizationBody,
  type Loose,
} from '../fake-apiserver/index.js';
import { gvr, owners, run, world, writesTo } from './gitops-world.js';

const CRD_ID = '_widgets.acme.io_apiextensions.k8s.io_CustomResourceDefinition';
const ROLE_ID = '_web-reader_rbac.authorization.k8s.io_ClusterRole';
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };
const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };
const KS_NAME = 'Kustomization flux-system/preview-web-5';
const KS_PATH = '/apis/kustomize.toolkit.fluxcd.io/v1/namespaces/flux-system/kustomizations/preview-web-5';
const FLUX = GITOPS_TYPES.flux.plural;
const ARGO = GITOPS_TYPES.argo.plural;
const OFFER = 'gitops-owners: suspend (or delete-or-suspend) suspends it instead, which removes nothing';

/** A Kustomization with prune whose inventory holds pr-5, a Deployment in it, and `more` (cluster-scoped ids). */
const ks = (more: string[] = [], extra: Partial<Parameters<typeof kustomizationBody>[0]> = {}) =>
  kustomizationBody({
    name: 'preview-web-5',
    namespaces: ['pr-5'],
    more: ['pr-5_web_apps_Deployment', ...more],
    ...extra,
  });

/** The cluster-scoped objects a preview's owner may have applied besides its namespace: a CRD and a ClusterRole. */
function addClusterObjects(cluster: FakeCluster): void {
  cluster.addCRD({ group: 'acme.io', version: 'v1', kind: 'Widget', plural: 'widgets' });
  cluster.addObject(CLUSTER_ROLES, { name: 'web-reader', rules: [] });
}

/** The summary as GitHub shows it: the entities markdown escaping wrote, read back. */
const shown = (markdown: string): string =>
  markdown.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));

const stillThere = (cluster: FakeCluster): boolean[] => [
  cluster.get(CRDS, undefined, 'widgets.acme.io') !== undefined,
  cluster.get(CLUSTER_ROLES, undefined, 'web-reader') !== undefined,
];

describe('gitops-owners: delete reads the whole reach of an owner first', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('Flux, prune: an inventory with a CRD and a ClusterRole besides the preview: left alone, nothing written to it', async () => {
    cluster = world('flux', ks([CRD_ID, ROLE_ID]));
    addClusterObjects(cluster);
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    const note = `deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside the targets: not deleted; ${OFFER}`;
    expect(owners(report)).toEqual([{ owner: KS_NAME, targets: ['pr-5'], outcome: 'left-alone', note }]);
    expect(writesTo(cluster, FLUX)).toEqual([]);
    expect(stillThere(cluster)).toEqual([true, true]);
    expect(cluster.gitopsLog).not.toContainEqual(expect.stringMatching(/pruned/));
    // Left as it is, it applies the namespace again: the run says so, as the verdict.
    expect(report.targets.map((t) => t.outcome)).toEqual(['recreated']);
    expect(shown(renderSummary(report))).toContain(
      `${KS_NAME} left alone: deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside the targets: not deleted; gitops-owners: suspend (or delete-or-suspend) suspends it instead, which removes nothing`,
    );
    expect(renderText(report, { width: 400, color: false })).toContain(
      `${KS_NAME}: left-alone — deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader`,
    );
  });

  test('Argo CD, resources finalizer: cluster-scoped status.resources: left alone, nothing written to it', async () => {
    const app = applicationBody({
      name: 'preview-5',
      namespace: 'pr-5',
      resources: 2,
      more: [
        {
          group: 'apiextensions.k8s.io',
          version: 'v1',
          kind: 'CustomResourceDefinition',
          name: 'widgets.acme.io',
        },
        { group: 'rbac.authorization.k8s.io', version: 'v1', kind: 'ClusterRole', name: 'web-reader' },
      ],
    });
    cluster = world('argo', app);
    addClusterObjects(cluster);
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: 'Application argocd/preview-5',
        targets: ['pr-5'],
        outcome: 'left-alone',
        note: `deleting it would delete CustomResourceDefinition widgets.acme.io, ClusterRole web-reader with it (resources-finalizer.argocd.argoproj.io), outside the targets: not deleted; ${OFFER}`,
      },
    ]);
    expect(writesTo(cluster, ARGO)).toEqual([]);
    expect(stillThere(cluster)).toEqual([true, true]);
  });

  test('a HelmRelease: what its uninstall removes is not read, so it is left alone', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-5');
    cluster.addNamespace('flux-system');
    cluster.addCRD({
      group: 'helm.toolkit.fluxcd.io',
      version: 'v2',
      kind: 'HelmRelease',
      plural: 'helmreleases',
    });
    cluster.addObject(
      { group: 'helm.toolkit.fluxcd.io', version: 'v2', resource: 'helmreleases' },
      {
        metadata: { namespace: 'flux-system', name: 'preview-5' },
        spec: {
          targetNamespace: 'pr-5',
          install: { createNamespace: true },
          chart: { spec: { chart: 'web' } },
        },
      },
    );
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: 'HelmRelease flux-system/preview-5',
        targets: ['pr-5'],
        outcome: 'left-alone',
        note: `deleting it uninstalls its Helm release, whose objects this run cannot see (the rendered manifest is kept in a Helm storage Secret, which is not read), so whether that reaches outside the targets cannot be told: not deleted; ${OFFER}`,
      },
    ]);
    expect(writesTo(cluster, 'helmreleases')).toEqual([]);
  });

  test('the owner changes between the read and the DELETE (its inventory gains a namespace): 409, read again once, left alone', async () => {
    cluster = world('flux', ks());
    const c = cluster;
    let grown = false;
    const growFirst = (kube: Kube): Kube => ({
      ...kube,
      deleteObject: (res, namespace, name, guard) => {
        if (!grown && res.resource === FLUX) {
          grown = true;
          c.updateObject(gvr('flux'), 'flux-system', 'preview-web-5', (o) => {
            o.status.inventory.entries.push({ id: '_pr-9__Namespace', v: 'v1' });
          });
        }
        return kube.deleteObject(res, namespace, name, guard);
      },
    });
    const { report } = await run(cluster, { 'gitops-owners': 'delete' }, growFirst);
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'left-alone',
        note: expect.stringMatching(
          /^changed since it was read \(resourceVersion \d+ → \d+\), read again: it also targets pr-9 \(the Namespace object\), outside the targets: reported, never touched$/,
        ),
      },
    ]);
    // One DELETE, refused by its preconditions, and nothing after it.
    expect(writesTo(cluster, FLUX)).toEqual([`DELETE ${KS_PATH} 409`]);
    const sent = cluster.requests.find((r) => r.method === 'DELETE' && r.path === KS_PATH);
    expect(sent?.body).toMatchObject({
      preconditions: { uid: expect.any(String), resourceVersion: expect.any(String) },
    });
    expect(cluster.get(gvr('flux'), 'flux-system', 'preview-web-5')).toBeDefined();
  });

  /** A port on which the owner's status changes just before each of its first `times` DELETEs (as a reconcile does). */
  const touchBefore =
    (c: FakeCluster, times: number, change: (o: Loose) => void) =>
    (kube: Kube): Kube => {
      let left = times;
      return {
        ...kube,
        deleteObject: (res, namespace, name, guard) => {
          if (left-- > 0 && res.resource === FLUX)
            c.updateObject(gvr('flux'), 'flux-system', 'preview-web-5', change);
          return kube.deleteObject(res, namespace, name, guard);
        },
      };
    };
  let revision = 0;
  const reconciled = (o: Loose): void => {
    o.status.conditions[0].message = `Applied revision ${++revision}`;
  };

  test('the owner changes between the read and the DELETE but its reach does not: 409, read again, deleted at the second try', async () => {
    cluster = world('flux', ks());
    const { report } = await run(cluster, { 'gitops-owners': 'delete' }, touchBefore(cluster, 1, reconciled));
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'deleted',
        pruned: 2,
        note: expect.stringMatching(
          /^changed since it was read \(resourceVersion \d+ → \d+\), read again: deleted first, 2 objects pruned with it$/,
        ),
      },
    ]);
    expect(writesTo(cluster, FLUX)).toEqual([`DELETE ${KS_PATH} 409`, `DELETE ${KS_PATH} 200`]);
    expect(cluster.get(gvr('flux'), 'flux-system', 'preview-web-5')).toBeUndefined();
    expect(cluster.namespace('pr-5')).toBeUndefined();
  });

  test('an owner that changes before every DELETE: two tries, then not deleted (never a loop)', async () => {
    cluster = world('flux', ks());
    const { report } = await run(cluster, { 'gitops-owners': 'delete' }, touchBefore(cluster, 5, reconciled));
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'failed',
        note: expect.stringMatching(
          /^changed since it was read \(resourceVersion \d+ → \d+\), read again: it changed again before this write \(409 twice\), not deleted: Operation cannot be fulfilled on Kustomization.kustomize.toolkit.fluxcd.io "preview-web-5": the ResourceVersion in the precondition \(\d+\) does not match the ResourceVersion in record \(\d+\). The object might have been modified/,
        ),
      },
    ]);
    expect(writesTo(cluster, FLUX)).toEqual([`DELETE ${KS_PATH} 409`, `DELETE ${KS_PATH} 409`]);
  });

  test('force: dry-run says the same reach-based decision and writes nothing', async () => {
    cluster = world('flux', ks([CRD_ID, ROLE_ID]));
    addClusterObjects(cluster);
    const { report } = await run(cluster, { 'gitops-owners': 'delete', force: 'dry-run' });
    const note = `deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside the targets: not deleted; ${OFFER}`;
    expect(owners(report)).toEqual([{ owner: KS_NAME, targets: ['pr-5'], outcome: 'left-alone', note }]);
    expect(writesTo(cluster, FLUX)).toEqual([]);
  });

  test('force: dry-run under delete-or-suspend: would suspend, saying why not delete; writes nothing', async () => {
    cluster = world('flux', ks([CRD_ID, ROLE_ID]));
    const { report } = await run(cluster, { 'gitops-owners': 'delete-or-suspend', force: 'dry-run' });
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'would-suspend',
        note: 'would be suspended first ({"suspend":true}), not deleted: deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside the targets',
      },
    ]);
    expect(writesTo(cluster, FLUX)).toEqual([]);
  });

  test('delete-or-suspend: suspended instead, saying what deleting it would have taken; nothing pruned', async () => {
    cluster = world('flux', ks([CRD_ID, ROLE_ID]));
    addClusterObjects(cluster);
    const { report } = await run(cluster, { 'gitops-owners': 'delete-or-suspend' });
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'suspended',
        note: 'suspended first (spec.suspend: true), not deleted: deleting it would prune CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside the targets',
      },
    ]);
    expect(writesTo(cluster, FLUX)).toEqual([`PATCH ${KS_PATH} 200`]);
    expect(report.targets.map((t) => t.outcome)).toEqual(['gone']);
    expect(stillThere(cluster)).toEqual([true, true]);
    expect(cluster.gitopsLog).toEqual([]);
  });

  test('the happy path: all its reach inside the targets (its Namespace object included), deleted and waited for', async () => {
    cluster = world('flux', ks());
    const { report } = await run(cluster, { 'gitops-owners': 'delete' });
    expect(owners(report)).toEqual([
      {
        owner: KS_NAME,
        targets: ['pr-5'],
        outcome: 'deleted',
        pruned: 2,
        note: 'deleted first, 2 objects pruned with it',
      },
    ]);
    expect(writesTo(cluster, FLUX)).toEqual([`DELETE ${KS_PATH} 200`]);
    const sent = cluster.requests.find((r) => r.method === 'DELETE' && r.path === KS_PATH);
    expect(sent?.body).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      preconditions: { uid: expect.any(String), resourceVersion: expect.any(String) },
    });
    expect(cluster.gitopsLog).toEqual([`${KS_NAME}: pruned namespace pr-5`]);
    expect(['gone', 'already-gone']).toContain(report.targets[0]!.outcome);
  });
});
