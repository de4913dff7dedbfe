import { finalizerOwnerGone } from '../../src/diagnosis/rules/finalizer-owner-gone.js';
import type { Finding } from '../../src/model/findings.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import {
  CONFIGMAPS,
  KIALIS,
  PVCS,
  SERVICES,
  controlPlane,
  grant,
  kialiCr,
  leftover,
  pod,
  snapshot,
  type,
  workload,
} from './fixtures.js';

interface Row {
  name: string;
  given: Snapshot;
  expect: Partial<Finding>;
}

const operator = workload({
  name: 'kiali-operator',
  namespace: 'kiali-operator',
  hints: ['quay.io/kiali/kiali-operator:v1.89', 'app.kubernetes.io/name=kiali-operator'],
  serviceAccount: 'kiali-operator',
});
/** What ties the operator to its objects: its ClusterRole on kialis and kialis/finalizers, bound to its account. */
const KIALI_RBAC = grant(KIALIS, { namespace: 'kiali-operator', name: 'kiali-operator' });
const unrelated = workload({ name: 'web', namespace: 'shop', hints: ['nginx:1.27'] });
const PATCH_KIALI =
  `kubectl patch kialis.kiali.io kiali -n preview-42 --type=json -p ` +
  `'[{"op":"test","path":"/metadata/uid","value":"kiali-uid"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;
const LB = 'service.kubernetes.io/load-balancer-cleanup';

const rows: Row[] = [
  {
    name: 'kiali operator uninstalled: leaked (field report 004)',
    given: snapshot({ leftovers: [kialiCr()], workloads: [unrelated] }),
    expect: {
      id: 'finalizer-owner-gone',
      severity: 'error',
      verdict: 'leaked',
      summary: 'kiali.io/finalizer on kialis.kiali.io/kiali: leaked: no live actor can release it',
      owner: {
        controller: 'controller for kiali.io/finalizer',
        present: false,
        detail: expect.stringContaining('no ServiceAccount but Kubernetes’ own may update') as never,
      },
      confidence: 0.85,
      leaked: true,
      remedy: {
        commands: [PATCH_KIALI],
        bulk: [expect.stringContaining('xargs') as never],
        policy: 'force-finalizers: kiali.io/finalizer',
        note: expect.stringContaining('No live actor can release it') as unknown as string,
      },
    },
  },
  {
    name: 'operator uninstalled, its ClusterRole left: leaked, the binding names an account nothing runs as',
    given: snapshot({ leftovers: [kialiCr()], workloads: [unrelated], rbac: KIALI_RBAC }),
    expect: {
      verdict: 'leaked',
      leaked: true,
      basis: [
        'ClusterRole kiali-operator-role may update kialis.kiali.io, bound by ClusterRoleBinding kiali-operator-role; no Deployment, StatefulSet or DaemonSet runs as ServiceAccount kiali-operator/kiali-operator',
        'the API server allows none of the 1 ServiceAccount(s) RBAC does not name to update or patch kialis.kiali.io here (SubjectAccessReview)',
      ],
    },
  },
  {
    name: 'kiali operator running in another namespace, tied by RBAC: waiting, not leaked',
    given: snapshot({ leftovers: [kialiCr()], workloads: [unrelated, operator], rbac: KIALI_RBAC }),
    expect: {
      severity: 'warning',
      verdict: 'waiting',
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: waiting: Deployment kiali-operator/kiali-operator is alive and can remove it',
      owner: expect.objectContaining({
        controller: 'Deployment kiali-operator/kiali-operator',
        present: true,
      }) as never,
      basis: [
        'ClusterRole kiali-operator-role may update kialis.kiali.io, bound by ClusterRoleBinding kiali-operator-role; ServiceAccount kiali-operator/kiali-operator runs Deployment kiali-operator/kiali-operator',
        'Deployment kiali-operator/kiali-operator: 1 ready replica(s)',
      ],
      confidence: 0.9,
      leaked: false,
      // A live controller: look at it first; the removal is only a marked last resort, never the first command.
      remedy: expect.objectContaining({
        commands: ['kubectl logs -n kiali-operator deployment/kiali-operator --tail=100'],
        lastResort: expect.objectContaining({
          commands: [PATCH_KIALI],
          risk: expect.stringContaining('is alive') as unknown as string,
        }) as unknown,
      }) as never,
    },
  },
  {
    name: 'a running operator named like the finalizer but tied by nothing is no evidence: leaked',
    given: snapshot({ leftovers: [kialiCr()], workloads: [operator] }),
    expect: { verdict: 'leaked', leaked: true },
  },
  {
    name: 'kiali operator lives in the namespace being deleted: deadlock',
    given: snapshot({
      leftovers: [kialiCr()],
      workloads: [{ ...operator, namespace: 'preview-42', deleting: true, readyReplicas: 0 }],
      rbac: grant(KIALIS, { namespace: 'preview-42', name: 'kiali-operator' }),
    }),
    expect: {
      severity: 'error',
      verdict: 'deadlock',
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: deadlock: Deployment preview-42/kiali-operator (not alive) lives in the namespace being deleted; it goes with the namespace and can never remove its finalizer',
      leaked: true,
      confidence: 0.9,
    },
  },
  {
    name: 'operator already gone, but its Helm release was in this namespace: deadlock by CRD hint',
    given: snapshot({
      leftovers: [kialiCr()],
      crds: [
        {
          name: 'kialis.kiali.io',
          group: 'kiali.io',
          plural: 'kialis',
          kind: 'Kiali',
          hints: ['meta.helm.sh/release-namespace=preview-42'],
        },
      ],
    }),
    expect: {
      severity: 'error',
      leaked: true,
      confidence: 0.6,
      summary: expect.stringContaining(
        'deadlock: CRD kialis.kiali.io was installed by a Helm release in this namespace',
      ) as unknown as string,
    },
  },
  {
    name: 'its CRD is itself being deleted: said in the verdict',
    given: snapshot({
      leftovers: [kialiCr()],
      crds: [
        {
          name: 'kialis.kiali.io',
          group: 'kiali.io',
          plural: 'kialis',
          kind: '',
          deleting: '2026-11-20T09:58:00Z',
        },
      ],
    }),
    expect: {
      verdict: 'leaked',
      cause: 'finalizer:kiali.io/finalizer|kialis.kiali.io|absent|type-going',
      summary: expect.stringContaining(
        'CRD kialis.kiali.io is itself being deleted (deletionTimestamp 2026-11-20T09:58:00Z)',
      ) as never,
    },
  },
  {
    name: 'operator installed elsewhere but scaled to zero: down, not leaked',
    given: snapshot({
      leftovers: [kialiCr()],
      workloads: [{ ...operator, readyReplicas: 0 }],
      rbac: KIALI_RBAC,
    }),
    expect: {
      severity: 'error',
      verdict: 'down',
      leaked: false,
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: down: Deployment kiali-operator/kiali-operator can remove it but is not alive',
      remedy: expect.objectContaining({
        commands: ['kubectl describe deployment kiali-operator -n kiali-operator'],
        lastResort: expect.objectContaining({ commands: [PATCH_KIALI] }) as unknown,
      }) as never,
    },
  },
  {
    name: 'its Lease expired while the replica still counts as ready: down (a leader-elected controller acts only while it holds it)',
    given: snapshot({
      leftovers: [kialiCr()],
      workloads: [operator],
      rbac: KIALI_RBAC,
      leases: [
        {
          namespace: 'kiali-operator',
          name: 'kiali-lock',
          holder: 'kiali-operator-7d9f-x2k',
          renewTime: '2026-11-20T09:40:00Z',
          durationSeconds: 15,
        },
      ],
    }),
    expect: { verdict: 'down', leaked: false },
  },
  {
    name: 'workloads unreadable: unknown, not called a leak',
    given: snapshot({
      leftovers: [kialiCr()],
      readErrors: [{ what: 'workloads Deployment', error: '403 Forbidden: deployments.apps is forbidden' }],
    }),
    expect: {
      severity: 'warning',
      verdict: 'unknown',
      leaked: false,
      owner: {
        controller: 'controller for kiali.io/finalizer',
        present: 'unknown',
        detail:
          'no actor was found, and workloads could not be read: 403 Forbidden: deployments.apps is forbidden: whether one can release it is unknown',
      },
    },
  },
  {
    name: 'argo CD: no specific role, but its controller may update every resource: unknown, never leaked',
    given: snapshot({
      leftovers: [
        leftover(type('argoproj.io', 'v1alpha1', 'applications', 'Application'), {
          name: 'guestbook',
          finalizers: ['resources-finalizer.argocd.argoproj.io'],
        }),
      ],
      workloads: [
        workload({
          kind: 'StatefulSet',
          name: 'argocd-application-controller',
          namespace: 'argocd',
          hints: ['quay.io/argoproj/argocd:v2.13.1'],
          serviceAccount: 'argocd-application-controller',
        }),
      ],
      rbac: {
        roles: [
          {
            kind: 'ClusterRole',
            name: 'argocd-application-controller',
            rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }],
          },
        ],
        bindings: [
          {
            kind: 'ClusterRoleBinding',
            name: 'argocd-application-controller',
            role: { kind: 'ClusterRole', name: 'argocd-application-controller' },
            subjects: [
              { kind: 'ServiceAccount', name: 'argocd-application-controller', namespace: 'argocd' },
            ],
          },
        ],
      },
    }),
    expect: {
      severity: 'warning',
      verdict: 'unknown',
      leaked: false,
      owner: expect.objectContaining({
        controller: 'StatefulSet argocd/argocd-application-controller',
        present: 'unknown',
      }) as never,
    },
  },
  {
    name: 'pvc-protection while a pod mounts the claim, kube-controller-manager alive: waiting, in ForceTarget.waiting',
    given: snapshot({
      leftovers: [
        leftover(PVCS, { name: 'data', uid: 'pvc-uid', finalizers: ['kubernetes.io/pvc-protection'] }),
      ],
      pods: [pod({ name: 'db-0', claims: ['data'] })],
      controlPlane: controlPlane(2),
    }),
    expect: {
      severity: 'notice',
      verdict: 'waiting',
      leaked: false,
      summary:
        'kubernetes.io/pvc-protection on persistentvolumeclaims/data is waiting, not leaked: still mounted by pod(s) db-0',
      owner: {
        controller: 'pvc-protection controller (kube-controller-manager)',
        present: true,
        detail: 'Lease kube-system/kube-controller-manager held by master-1_6d1c, renewed 2s ago',
      },
      targets: [
        expect.objectContaining({ name: 'data', waiting: ['kubernetes.io/pvc-protection'] }) as never,
      ],
      remedy: expect.objectContaining({ commands: [] }) as never,
    },
  },
  {
    name: 'pvc-protection with a pod on the claim, but the control plane was never read: unknown, not "running"',
    given: snapshot({
      leftovers: [
        leftover(PVCS, { name: 'data', uid: 'pvc-uid', finalizers: ['kubernetes.io/pvc-protection'] }),
      ],
      pods: [pod({ name: 'db-0', claims: ['data'] })],
    }),
    expect: {
      severity: 'warning',
      verdict: 'unknown',
      owner: expect.objectContaining({ present: 'unknown' }) as never,
    },
  },
  {
    name: 'foregroundDeletion with dependents left: waiting',
    given: snapshot({
      leftovers: [
        leftover(CONFIGMAPS, { name: 'parent', uid: 'p', finalizers: ['foregroundDeletion'] }),
        leftover(CONFIGMAPS, {
          name: 'child',
          ownerReferences: [
            { apiVersion: 'v1', kind: 'ConfigMap', name: 'parent', uid: 'p', blockOwnerDeletion: true },
          ],
        }),
      ],
      controlPlane: controlPlane(2),
    }),
    expect: {
      severity: 'notice',
      summary:
        'foregroundDeletion on configmaps/parent is waiting, not leaked: 1 dependent(s) remain: configmaps/child',
    },
  },
  {
    name: 'load-balancer-cleanup with no cloud controller at all (no Lease, no pod; kube-controller-manager without a cloud provider): leaked',
    given: snapshot({
      leftovers: [leftover(SERVICES, { name: 'ingress', finalizers: [LB] })],
      controlPlane: controlPlane(2, [
        {
          namespace: 'kube-system',
          name: 'kube-controller-manager-master-1',
          component: 'kube-controller-manager',
          ready: true,
          cloudProvider: '',
        },
      ]),
    }),
    expect: {
      severity: 'error',
      verdict: 'leaked',
      leaked: true,
      summary: expect.stringContaining(
        'service.kubernetes.io/load-balancer-cleanup on services/ingress: leaked: cloud-controller-manager is not alive (no Lease kube-system/cloud-controller-manager and no pod labelled component=cloud-controller-manager',
      ) as never,
      owner: expect.objectContaining({ present: false }) as never,
    },
  },
  {
    name: 'load-balancer-cleanup with a cloud-controller-manager renewing its Lease: waiting on it',
    given: snapshot({
      leftovers: [leftover(SERVICES, { name: 'ingress', finalizers: [LB] })],
      controlPlane: {
        leases: [
          ...controlPlane(2).leases,
          {
            namespace: 'kube-system',
            name: 'cloud-controller-manager',
            holder: 'ccm-0_1',
            renewTime: '2026-11-20T09:59:58Z',
            durationSeconds: 15,
          },
        ],
      },
    }),
    expect: {
      severity: 'notice',
      verdict: 'waiting',
      leaked: false,
      owner: expect.objectContaining({ present: true }) as never,
    },
  },
  {
    name: 'load-balancer-cleanup where kube-controller-manager cannot be seen: unknown, never "running"',
    given: snapshot({
      leftovers: [leftover(SERVICES, { name: 'ingress', finalizers: [LB] })],
      controlPlane: controlPlane('absent', []),
    }),
    expect: { severity: 'warning', verdict: 'unknown', leaked: false },
  },
  {
    name: 'foregroundDeletion with no dependents left, kube-controller-manager alive: nothing visible to wait for',
    given: snapshot({
      leftovers: [leftover(CONFIGMAPS, { name: 'lonely', finalizers: ['foregroundDeletion'] })],
      controlPlane: controlPlane(2),
    }),
    expect: {
      severity: 'warning',
      leaked: false,
      summary:
        'foregroundDeletion on configmaps/lonely: nothing visible to wait for; kube-controller-manager is alive (Lease kube-system/kube-controller-manager held by master-1_6d1c, renewed 2s ago) but has not removed it',
      owner: expect.objectContaining({
        controller: 'garbage collector (kube-controller-manager)',
        present: true,
      }) as never,
    },
  },
  {
    name: 'foregroundDeletion while kube-controller-manager’s Lease expired: down',
    given: snapshot({
      leftovers: [leftover(CONFIGMAPS, { name: 'lonely', finalizers: ['foregroundDeletion'] })],
      controlPlane: controlPlane(600),
    }),
    expect: { severity: 'error', verdict: 'down', leaked: false },
  },
];

describe('finalizer-owner-gone', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = finalizerOwnerGone(given);
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject(want);
  });

  it('one finding per finalizer, sorted, each listing all its holders', () => {
    const got = finalizerOwnerGone(
      snapshot({
        leftovers: [
          kialiCr('preview-42', { name: 'k2', uid: 'k2' }),
          kialiCr('preview-42', {
            name: 'k1',
            uid: 'k1',
            finalizers: ['kiali.io/finalizer', 'b.example.com/x'],
          }),
        ],
      }),
    );
    expect(got.map((f) => f.summary.split(':')[0])).toEqual([
      'b.example.com/x on kialis.kiali.io/k1',
      'kiali.io/finalizer on kialis.kiali.io/k1, kialis.kiali.io/k2',
    ]);
    expect(got[1]?.remedy.commands).toHaveLength(2);
  });
});
