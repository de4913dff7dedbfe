/**
 * Worlds for the metamorphic tests of the verdicts: one small cluster per verdict, every non-API name spelled by a
 * naming (so a world can be renamed whole), every piece of evidence a verdict cites switchable (so it can be taken
 * away or flipped). Data only: each returns an unstarted FakeCluster and the names a test needs.
 */
import { createHash } from 'node:crypto';
import { FakeCluster, type Gvr } from '../fake-apiserver/index.js';
import { FAST } from '../helpers/harness.js';

/** How a world spells its non-API names: namespaces, controllers, service accounts, finalizer domains, groups. */
export interface Naming {
  label: string;
  name: (base: string) => string;
}

const token = (base: string): string => createHash('sha256').update(base).digest('hex').slice(0, 6);

/** The names as written; opaque tokens; and names that point at the wrong actor (the decoy named like the product). */
export const NAMINGS: Naming[] = [
  { label: 'as written', name: (b) => b },
  { label: 'opaque', name: (b) => (b.includes('.') ? `d${token(b)}.test` : `n${token(b)}`) },
  {
    label: 'misleading',
    name: (b) =>
      ({
        'gizmo-operator': 'billing-web',
        'gizmos-controller': 'gizmo-operator',
        operators: 'shop',
        'cleanup.gizmos.example.com': 'billing.example.com',
        'widgets.dev': 'gizmo-operator.io',
      })[b] ?? `${b}-x`,
  },
];

/** Evidence a finalizer verdict may rest on, each one switchable. */
export interface ReleaseEvidence {
  /** A ClusterRole on the objects and their `/finalizers`, bound to the operator's ServiceAccount. */
  rbac: boolean;
  /** The operator's ready replicas. */
  ready: number;
  /** A leader-election Lease its pod holds: renewed now, an hour ago, or none. */
  lease: 'fresh' | 'stale' | 'none';
  /** The operator lives in the target itself (its Deployment held, deleting). */
  inside: boolean;
  /** The objects' CRD is itself being deleted. */
  crdDeleting: boolean;
  /** The identity may not list Deployments. */
  workloadsForbidden: boolean;
  /** A webhook authorizer lets the operator's ServiceAccount update the objects, though no RBAC object says so. */
  authorizedOutside: boolean;
  /** The identity may not create SubjectAccessReviews: the API server cannot be asked. */
  reviewsForbidden: boolean;
}

export const LIVE_OPERATOR: ReleaseEvidence = {
  rbac: true,
  ready: 1,
  lease: 'none',
  inside: false,
  crdDeleting: false,
  workloadsForbidden: false,
  authorizedOutside: false,
  reviewsForbidden: false,
};

/** A world of one finalizer on custom resources in the target, with its operator as the evidence says. */
export interface ReleaseWorld {
  cluster: FakeCluster;
  target: string;
  gvr: Gvr;
  crd: string;
}

const DEPLOYMENTS: Gvr = { group: 'apps', version: 'v1', resource: 'deployments' };
const LEASES: Gvr = { group: 'coordination.k8s.io', version: 'v1', resource: 'leases' };

/** The operator's Deployment: in its own namespace, or inside the target held by a finalizer so it stays deleting. */
function addOperator(c: FakeCluster, n: Naming['name'], e: ReleaseEvidence, target: string): string {
  const ns = e.inside ? target : n('operators');
  const name = n('gizmo-operator');
  if (!e.inside) c.addNamespace(ns);
  c.addObject(DEPLOYMENTS, {
    namespace: ns,
    name,
    ...(e.inside ? { finalizers: ['example.com/hold'] } : {}),
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          serviceAccountName: name,
          containers: [{ name: 'manager', image: `registry.test/${name}:1` }],
        },
      },
    },
    status: { replicas: 1, readyReplicas: e.ready },
  });
  if (e.lease !== 'none') {
    const renewTime = new Date(Date.now() - (e.lease === 'fresh' ? 1_000 : 3_600_000)).toISOString();
    c.addObject(LEASES, {
      namespace: ns,
      name: `${name}-leader`,
      spec: { holderIdentity: `${name}-5d8f7c9b6-abcde_1f2e`, leaseDurationSeconds: 15, renewTime },
    });
  }
  return ns;
}

/**
 * Custom resources in the target hold a finalizer; its operator, a decoy named like the finalizer's product (running,
 * tied to nothing), and what ties the operator to the objects are as `e` says.
 */
export function releaseWorld(naming: Naming, e: ReleaseEvidence): ReleaseWorld {
  const n = naming.name;
  const c = new FakeCluster({ controller: FAST });
  const group = n('widgets.dev');
  const gvr = { group, version: 'v1', resource: 'gizmos' };
  c.addCRD({ group, version: 'v1', kind: 'Gizmo', plural: 'gizmos' });
  const target = n('preview-1');
  c.addNamespace(target);
  const finalizer = `${n('cleanup.gizmos.example.com')}/cleanup`;
  for (const name of ['a', 'b']) c.addObject(gvr, { namespace: target, name, finalizers: [finalizer] });
  const where = addOperator(c, n, e, target);
  const decoyNs = n('decoys');
  c.addNamespace(decoyNs);
  c.addDeployment(decoyNs, n('gizmos-controller'), {
    image: `ghcr.io/${n('gizmos-controller')}/controller:2`,
  });
  if (e.rbac)
    c.addGrant({
      group,
      resource: 'gizmos',
      serviceAccount: { namespace: where, name: n('gizmo-operator') },
    });
  if (e.authorizedOutside)
    c.authorizeOutsideRbac({
      user: `system:serviceaccount:${where}:${n('gizmo-operator')}`,
      apiGroup: group,
      resource: 'gizmos',
    });
  if (e.workloadsForbidden) c.denyRBAC({ verb: 'list', resource: 'deployments', group: 'apps' });
  if (e.reviewsForbidden)
    c.denyRBAC({ verb: 'create', resource: 'subjectaccessreviews', group: 'authorization.k8s.io' });
  if (e.crdDeleting) c.deleteCRD(`gizmos.${group}`);
  return { cluster: c, target, gvr, crd: `gizmos.${group}` };
}

/** kube-controller-manager as a built-in finalizer's actor: its Lease renewed (the fake's own), stale, or absent. */
export type ControlPlaneEvidence = 'renewed' | 'stale' | 'absent';

/** A PersistentVolumeClaim the target's pod still mounts (pvc-protection), and kube-controller-manager as given. */
export function claimWorld(
  naming: Naming,
  kcm: ControlPlaneEvidence,
): { cluster: FakeCluster; target: string } {
  const n = naming.name;
  const c = new FakeCluster({ controller: FAST, controllerManagerLease: kcm === 'renewed' });
  const target = n('preview-1');
  c.addNamespace(target);
  c.addNode(n('node-a'), true);
  c.addObject(
    { group: '', version: 'v1', resource: 'persistentvolumeclaims' },
    {
      namespace: target,
      name: n('data'),
      spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
    },
  );
  c.addPod(target, n('db-0'), { nodeName: n('node-a'), claims: [n('data')], graceSeconds: 3600 });
  if (kcm === 'stale')
    c.addObject(LEASES, {
      namespace: 'kube-system',
      name: 'kube-controller-manager',
      spec: {
        holderIdentity: 'master-1_0a1b',
        leaseDurationSeconds: 15,
        renewTime: new Date(Date.now() - 3_600_000).toISOString(),
      },
    });
  return { cluster: c, target };
}
