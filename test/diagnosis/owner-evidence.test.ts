import { finalizerOwnerGone } from '../../src/diagnosis/rules/finalizer-owner-gone.js';
import type { BindingState, LeaseState, RoleState, Snapshot } from '../../src/diagnosis/types.js';
import type { Finding } from '../../src/model/findings.js';
import { ago, leftover, snapshot, type, workload } from './fixtures.js';

/** A finalizer, a type and a controller whose names share nothing: only RBAC and Leases can tie them. */
const GIZMOS = type('widgets.dev', 'v2', 'gizmos', 'Gizmo');
const FINALIZER = 'acme.io/teardown';
const gizmo = (name: string): ReturnType<typeof leftover> =>
  leftover(GIZMOS, { name, finalizers: [FINALIZER], deletionTimestamp: ago(300) });

const zeta = workload({
  name: 'zeta-manager',
  namespace: 'platform',
  hints: ['registry.local/z:1'],
  serviceAccount: 'zeta',
});
/** Named like an operator and holds a Lease, but nothing ties it to these objects. */
const decoy = workload({
  name: 'kiali-operator',
  namespace: 'kiali',
  hints: ['quay.io/kiali/kiali-operator'],
});

const role = (rules: RoleState['rules'], name = 'zeta-role'): RoleState => ({
  kind: 'ClusterRole',
  name,
  rules,
});
const binding = (sa: string, ns: string, roleName = 'zeta-role', name = 'zeta'): BindingState => ({
  kind: 'ClusterRoleBinding',
  name,
  role: { kind: 'ClusterRole', name: roleName },
  subjects: [{ kind: 'ServiceAccount', name: sa, namespace: ns }],
});
const FINALIZERS_RULE = {
  apiGroups: ['widgets.dev'],
  resources: ['gizmos', 'gizmos/finalizers'],
  verbs: ['get', 'list', 'watch', 'update', 'patch'],
};
const ADMIN_RULE = { apiGroups: ['*'], resources: ['*'], verbs: ['*'] };

const lease = (over: Partial<LeaseState> & { name: string; namespace: string }): LeaseState => ({
  durationSeconds: 15,
  ...over,
});

interface Row {
  name: string;
  given: Partial<Snapshot>;
  expect: Partial<Finding>;
  evidence?: RegExp[];
}

const rows: Row[] = [
  {
    name: 'names share nothing; RBAC ties the objects to a running controller: waiting, removal only a last resort',
    given: {
      workloads: [decoy, zeta],
      rbac: { roles: [role([FINALIZERS_RULE])], bindings: [binding('zeta', 'platform')] },
    },
    expect: {
      severity: 'warning',
      leaked: false,
      verdict: 'waiting',
      owner: expect.objectContaining({
        controller: 'Deployment platform/zeta-manager',
        present: true,
      }) as never,
      confidence: 0.9,
      remedy: expect.objectContaining({
        commands: ['kubectl logs -n platform deployment/zeta-manager --tail=100'],
        lastResort: expect.objectContaining({
          risk: expect.stringContaining('is alive') as unknown,
        }) as unknown,
      }) as never,
    },
    evidence: [
      /ClusterRole zeta-role may update gizmos\.widgets\.dev, bound by ClusterRoleBinding zeta; ServiceAccount platform\/zeta runs Deployment platform\/zeta-manager/,
    ],
  },
  {
    name: 'RBAC names the controller, scaled to zero: not running, not leaked',
    given: {
      workloads: [{ ...zeta, readyReplicas: 0 }],
      rbac: { roles: [role([FINALIZERS_RULE])], bindings: [binding('zeta', 'platform')] },
    },
    expect: {
      severity: 'error',
      leaked: false,
      verdict: 'down',
      owner: expect.objectContaining({
        controller: 'Deployment platform/zeta-manager',
        present: false,
      }) as never,
      remedy: expect.objectContaining({
        commands: ['kubectl describe deployment zeta-manager -n platform'],
      }) as never,
    },
  },
  {
    name: 'RBAC grants a ServiceAccount no workload runs as: the controller is gone, leaked, with the chain as evidence',
    given: {
      workloads: [decoy],
      rbac: { roles: [role([FINALIZERS_RULE])], bindings: [binding('zeta', 'platform')] },
    },
    expect: { severity: 'error', leaked: true, confidence: 0.85 },
    evidence: [/no Deployment, StatefulSet or DaemonSet runs as ServiceAccount platform\/zeta/],
  },
  {
    name: 'a role for every group (cluster-admin) ties nothing specific, but its live holder could release it: unknown, never leaked',
    given: {
      workloads: [{ ...zeta, name: 'argocd-server', serviceAccount: 'argocd' }],
      rbac: {
        roles: [role([ADMIN_RULE], 'admin-all')],
        bindings: [binding('argocd', 'platform', 'admin-all', 'argo')],
      },
    },
    expect: {
      severity: 'warning',
      verdict: 'unknown',
      leaked: false,
      summary: expect.stringContaining(
        'nothing ties a controller to these objects, but 1 live workload(s) may update every resource and could release it (Deployment platform/argocd-server)',
      ) as never,
    },
    evidence: [
      /^ClusterRole admin-all may update gizmos\.widgets\.dev \(every resource\), bound by ClusterRoleBinding argo/,
    ],
  },
  {
    name: 'a cluster-admin holder is alive, but managedFields name the controller that set the finalizer and nothing runs as it: leaked',
    given: {
      leftovers: [
        leftover(GIZMOS, {
          name: 'a',
          finalizers: [FINALIZER],
          deletionTimestamp: ago(300),
          finalizerManagers: ['gizmo-manager', 'kubectl-client-side-apply'],
        }),
      ],
      workloads: [{ ...zeta, name: 'argocd-server', serviceAccount: 'argocd' }],
      rbac: {
        roles: [role([ADMIN_RULE], 'admin-all')],
        bindings: [binding('argocd', 'platform', 'admin-all', 'argo')],
      },
    },
    expect: {
      verdict: 'leaked',
      leaked: true,
      // The only workload is named by RBAC (every resource): no other ServiceAccount is left to ask.
      basis: [
        'managedFields: gizmo-manager set the finalizer, and no workload runs as it',
        'no workload runs as a ServiceAccount that could be asked about gizmos.widgets.dev',
      ],
    },
  },
  {
    name: 'managedFields name the manager that set the finalizer, and it is a running workload’s container: waiting',
    given: {
      leftovers: [
        leftover(GIZMOS, {
          name: 'a',
          finalizers: [FINALIZER],
          deletionTimestamp: ago(300),
          finalizerManagers: ['manager'],
        }),
      ],
      workloads: [{ ...zeta, containers: ['manager', 'kube-rbac-proxy'] }],
    },
    expect: { verdict: 'waiting', leaked: false },
    evidence: [/^managedFields: manager manager set the finalizer$/],
  },
  {
    name: 'RBAC lets a User (an identity outside the cluster) update the objects: unknown, never leaked',
    given: {
      workloads: [decoy],
      rbac: {
        roles: [role([FINALIZERS_RULE])],
        bindings: [
          {
            kind: 'ClusterRoleBinding',
            name: 'zeta',
            role: { kind: 'ClusterRole', name: 'zeta-role' },
            subjects: [{ kind: 'User', name: 'zeta-controller' }],
          },
        ],
      },
    },
    expect: { verdict: 'unknown', leaked: false },
  },
  {
    name: "Kubernetes' own system: roles are left out",
    given: {
      workloads: [zeta],
      rbac: {
        roles: [role([FINALIZERS_RULE], 'system:controller:gizmos')],
        bindings: [binding('zeta', 'platform', 'system:controller:gizmos', 'system:gizmos')],
      },
    },
    expect: { severity: 'error', leaked: true },
  },
  {
    name: 'a RoleBinding in the namespace being deleted: the controller lives there, deadlock',
    given: {
      workloads: [{ ...zeta, namespace: 'preview-42' }],
      rbac: {
        roles: [{ kind: 'Role', namespace: 'preview-42', name: 'zeta-role', rules: [FINALIZERS_RULE] }],
        bindings: [
          {
            kind: 'RoleBinding',
            namespace: 'preview-42',
            name: 'zeta',
            role: { kind: 'Role', name: 'zeta-role' },
            subjects: [{ kind: 'ServiceAccount', name: 'zeta' }],
          },
        ],
      },
    },
    expect: { severity: 'error', leaked: true },
    evidence: [
      /Role zeta-role may update gizmos\.widgets\.dev, bound by RoleBinding zeta in namespace preview-42/,
    ],
  },
  {
    name: 'roles could not be read (403) and the API server could not be asked: no name matches, so whether it leaked is unknown; removal is a last resort',
    given: {
      workloads: [decoy],
      access: [],
      readErrors: [
        {
          what: 'rbac ClusterRole',
          error: '403 Forbidden: clusterroles.rbac.authorization.k8s.io is forbidden',
        },
      ],
    },
    expect: {
      severity: 'warning',
      verdict: 'unknown',
      leaked: false,
      summary: expect.stringMatching(
        /unknown: roles could not be read: 403 Forbidden: .*, and the API server was not asked who may update gizmos\.widgets\.dev: whether one can release it is unknown/,
      ),
    },
  },
  {
    name: 'roles could not be read (403), but the API server answered for every workload and allowed none: leaked, on its word',
    given: {
      workloads: [decoy],
      readErrors: [
        {
          what: 'rbac ClusterRole',
          error: '403 Forbidden: clusterroles.rbac.authorization.k8s.io is forbidden',
        },
      ],
    },
    expect: {
      verdict: 'leaked',
      leaked: true,
      basis: [
        'the API server allows none of the 1 ServiceAccount(s) that workloads run as to update or patch gizmos.widgets.dev here (SubjectAccessReview)',
        'roles could not be read: 403 Forbidden: clusterroles.rbac.authorization.k8s.io is forbidden',
      ],
    },
  },
  {
    name: 'the controller found by RBAC holds a fresh leader Lease: shown as evidence',
    given: {
      workloads: [zeta],
      rbac: { roles: [role([FINALIZERS_RULE])], bindings: [binding('zeta', 'platform')] },
      leases: [
        lease({
          namespace: 'platform',
          name: 'zeta-leader',
          holder: 'zeta-manager-6d4f9c7b8-x2kqz_0c1d',
          renewTime: ago(4),
        }),
      ],
    },
    expect: { severity: 'warning', leaked: false },
    evidence: [/Lease platform\/zeta-leader held by zeta-manager-6d4f9c7b8-x2kqz_0c1d, renewed 4s ago$/],
  },
  {
    name: 'a fresh Lease whose name mentions the product ties nothing to the objects: no evidence, leaked',
    given: {
      leftovers: [
        leftover(type('kiali.io', 'v1alpha1', 'kialis', 'Kiali'), {
          name: 'k',
          finalizers: ['kiali.io/finalizer'],
        }),
      ],
      leases: [lease({ namespace: 'ops', name: 'kiali-operator-lock', holder: 'vm-17', renewTime: ago(3) })],
    },
    expect: { severity: 'error', leaked: true },
  },
  {
    name: 'the controller RBAC names holds an expired Lease: down, not called alive',
    given: {
      workloads: [zeta],
      rbac: { roles: [role([FINALIZERS_RULE])], bindings: [binding('zeta', 'platform')] },
      leases: [
        lease({
          namespace: 'platform',
          name: 'zeta-leader',
          holder: 'zeta-manager-6d4f9c7b8-x2kqz_0c1d',
          renewTime: ago(3600),
        }),
      ],
    },
    expect: {
      severity: 'error',
      verdict: 'down',
      leaked: false,
      // Ready replicas beside an expired Lease: the conflict is named, and the remedy restarts the hung controller.
      summary:
        'acme.io/teardown on gizmos.widgets.dev/a, gizmos.widgets.dev/b: down: Deployment platform/zeta-manager is running but not leading (Lease platform/zeta-leader last renewed 1h00m ago), so it removes nothing until it is restarted',
      owner: expect.objectContaining({ present: false, status: 'running but not leading' }) as never,
      remedy: expect.objectContaining({
        commands: [
          'kubectl rollout restart deployment/zeta-manager -n platform',
          'kubectl logs -n platform deployment/zeta-manager --tail=100',
        ],
        note: expect.not.stringMatching(/\bwait\b/i) as unknown,
      }) as never,
    },
    evidence: [
      /^Deployment platform\/zeta-manager is running but not leading \(Lease platform\/zeta-leader last renewed 1h00m ago\): 1 ready replica\(s\)$/,
    ],
  },
  {
    name: 'an expired Lease is no sign of life: leaked',
    given: {
      leftovers: [
        leftover(type('kiali.io', 'v1alpha1', 'kialis', 'Kiali'), {
          name: 'k',
          finalizers: ['kiali.io/finalizer'],
        }),
      ],
      leases: [
        lease({ namespace: 'ops', name: 'kiali-operator-lock', holder: 'vm-17', renewTime: ago(3600) }),
      ],
    },
    expect: { severity: 'error', leaked: true },
  },
  {
    name: 'objects released the finalizer since the earlier diagnosis: its controller is at work, not leaked',
    given: {
      leftovers: [gizmo('c')],
      earlier: { takenAt: ago(30), holders: { [FINALIZER]: ['uid-a', 'uid-b', 'uid-c'] } },
    },
    expect: {
      severity: 'warning',
      leaked: false,
      remedy: expect.objectContaining({
        commands: [],
        lastResort: expect.objectContaining({
          risk: expect.stringContaining('at work') as unknown,
        }) as unknown,
      }) as never,
    },
    evidence: [/^2 of 3 object\(s\) released acme\.io\/teardown since the diagnosis 30s earlier$/],
  },
];

describe('who owns a finalizer, by evidence', () => {
  test.each(rows)('$name', ({ given, expect: want, evidence }) => {
    const got = finalizerOwnerGone(snapshot({ leftovers: [gizmo('a'), gizmo('b')], ...given }));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject(want);
    for (const re of evidence ?? [])
      expect(got[0]!.evidence.map((e) => e.value)).toContainEqual(expect.stringMatching(re));
  });
});

describe('thousands of objects, one finalizer', () => {
  const many = Array.from({ length: 2000 }, (_, i) =>
    leftover(type('example.com', 'v1', 'widgets', 'Widget'), {
      name: `held-${String(i + 1).padStart(4, '0')}`,
      finalizers: ['example.com/cleanup'],
      deletionTimestamp: ago(120),
    }),
  );
  const [f] = finalizerOwnerGone(snapshot({ leftovers: many }));

  test('one finding that counts them, names three, and fixes them all with one command', () => {
    expect(f!.summary).toBe(
      'example.com/cleanup on 2,000 widgets.example.com objects (held-0001, held-0002, held-0003 and 1,997 more): leaked: no live actor can release it',
    );
    expect(f!.objects).toBe(2000);
    expect(f!.remedy.commands).toEqual([
      `kubectl get widgets.example.com -n preview-42 -o name | xargs -r kubectl patch -n preview-42 --type=json -p '[{"op":"test","path":"/metadata/finalizers/0","value":"example.com/cleanup"},{"op":"remove","path":"/metadata/finalizers/0"}]'`,
    ]);
    expect(f!.targets).toHaveLength(2000);
  });

  test('the evidence lists ten objects and counts the rest', () => {
    const holders = f!.evidence.filter((e) => e.field === 'metadata.finalizers');
    expect(holders).toHaveLength(10);
    expect(f!.evidence).toContainEqual({
      object: '…',
      field: 'more objects',
      value: '1,990 more, the same way (all in the JSON report)',
    });
  });

  test('objects with another finalizer list get a command of their own', () => {
    const mixed = [
      ...many.slice(0, 5),
      leftover(type('example.com', 'v1', 'widgets', 'Widget'), {
        name: 'two',
        finalizers: ['example.com/other', 'example.com/cleanup'],
      }),
    ];
    const [g] = finalizerOwnerGone(snapshot({ leftovers: mixed })).filter((x) =>
      x.summary.startsWith('example.com/cleanup'),
    );
    expect(g!.remedy.commands).toHaveLength(2);
    expect(g!.remedy.commands[0]).toContain('"path":"/metadata/finalizers/0","value":"example.com/cleanup"');
    expect(g!.remedy.commands[1]).toContain('"path":"/metadata/finalizers/1","value":"example.com/cleanup"');
  });
});
