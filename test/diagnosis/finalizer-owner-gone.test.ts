import { finalizerOwnerGone } from '../../src/diagnosis/rules/finalizer-owner-gone.js';
import type { Finding } from '../../src/model/findings.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import { CONFIGMAPS, PVCS, SERVICES, kialiCr, leftover, pod, snapshot, type, workload } from './fixtures.js';

interface Row {
  name: string;
  given: Snapshot;
  expect: Partial<Finding>;
}

const operator = workload({
  name: 'kiali-operator',
  namespace: 'kiali-operator',
  hints: ['quay.io/kiali/kiali-operator:v1.89', 'app.kubernetes.io/name=kiali-operator'],
});
const unrelated = workload({ name: 'web', namespace: 'shop', hints: ['nginx:1.27'] });
const PATCH_KIALI =
  `kubectl patch kialis.kiali.io kiali -n preview-42 --type=json -p ` +
  `'[{"op":"test","path":"/metadata/uid","value":"kiali-uid"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;

const rows: Row[] = [
  {
    name: 'kiali operator uninstalled: leaked (field report 004)',
    given: snapshot({ leftovers: [kialiCr()], workloads: [unrelated] }),
    expect: {
      id: 'finalizer-owner-gone',
      severity: 'error',
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: no controller for it runs in the cluster (leaked: its owner is gone)',
      owner: {
        controller: 'controller for kiali.io/finalizer',
        present: false,
        detail: 'no workload mentions kiali',
      },
      confidence: 0.8,
      leaked: true,
      remedy: {
        commands: [PATCH_KIALI],
        policy: 'force-finalizers: kiali.io/finalizer',
        note: expect.stringContaining('controller is gone') as unknown as string,
      },
    },
  },
  {
    name: 'kiali operator running in another namespace: waiting, not leaked',
    given: snapshot({ leftovers: [kialiCr()], workloads: [unrelated, operator] }),
    expect: {
      severity: 'warning',
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: its controller Deployment kiali-operator/kiali-operator (1 ready) is running; it should remove the finalizer (waiting)',
      owner: {
        controller: 'Deployment kiali-operator/kiali-operator (1 ready)',
        present: true,
      },
      confidence: 0.9,
      leaked: false,
      // A running controller: look at it first; the removal is only a marked last resort, never the first command.
      remedy: expect.objectContaining({
        commands: ['kubectl logs -n kiali-operator deployment/kiali-operator --tail=100'],
        lastResort: expect.objectContaining({
          commands: [PATCH_KIALI],
          risk: expect.stringContaining('is running') as unknown as string,
        }) as unknown,
      }) as never,
    },
  },
  {
    name: 'kiali operator lives in the namespace being deleted: deadlock',
    given: snapshot({
      leftovers: [kialiCr()],
      workloads: [{ ...operator, namespace: 'preview-42', deleting: true, readyReplicas: 0 }],
    }),
    expect: {
      severity: 'error',
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: deadlock: Deployment preview-42/kiali-operator (deleting) lives in the namespace being deleted; the controller is deleted with the namespace and can never remove its finalizer',
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
    name: 'operator installed elsewhere but scaled to zero: not running, not leaked',
    given: snapshot({ leftovers: [kialiCr()], workloads: [{ ...operator, readyReplicas: 0 }] }),
    expect: {
      severity: 'error',
      leaked: false,
      summary:
        'kiali.io/finalizer on kialis.kiali.io/kiali: its controller Deployment kiali-operator/kiali-operator (0 ready) is installed but not running',
      remedy: expect.objectContaining({
        commands: ['kubectl describe deployment kiali-operator -n kiali-operator'],
        lastResort: expect.objectContaining({ commands: [PATCH_KIALI] }) as unknown,
      }) as never,
    },
  },
  {
    name: 'workloads unreadable: owner unknown, not called a leak',
    given: snapshot({
      leftovers: [kialiCr()],
      readErrors: [{ what: 'workloads Deployment', error: '403 Forbidden: deployments.apps is forbidden' }],
    }),
    expect: {
      severity: 'warning',
      leaked: false,
      owner: {
        controller: 'controller for kiali.io/finalizer',
        present: 'unknown',
        detail: 'workloads could not be read: 403 Forbidden: deployments.apps is forbidden',
      },
    },
  },
  {
    name: 'argo CD finalizer matched by image and name of a StatefulSet',
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
        }),
      ],
    }),
    expect: {
      severity: 'warning',
      leaked: false,
      owner: {
        controller: 'StatefulSet argocd/argocd-application-controller (1 ready)',
        present: true,
      },
    },
  },
  {
    name: 'pvc-protection while a pod mounts the claim: waiting, listed in ForceTarget.waiting',
    given: snapshot({
      leftovers: [
        leftover(PVCS, { name: 'data', uid: 'pvc-uid', finalizers: ['kubernetes.io/pvc-protection'] }),
      ],
      pods: [pod({ name: 'db-0', claims: ['data'] })],
    }),
    expect: {
      severity: 'notice',
      leaked: false,
      summary:
        'kubernetes.io/pvc-protection on persistentvolumeclaims/data is waiting, not leaked: still mounted by pod(s) db-0',
      owner: { controller: 'pvc-protection controller (kube-controller-manager)', present: true },
      targets: [
        expect.objectContaining({ name: 'data', waiting: ['kubernetes.io/pvc-protection'] }) as never,
      ],
      remedy: expect.objectContaining({ commands: [] }) as never,
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
    }),
    expect: {
      severity: 'notice',
      summary:
        'foregroundDeletion on configmaps/parent is waiting, not leaked: 1 dependent(s) remain: configmaps/child',
    },
  },
  {
    name: 'load-balancer-cleanup: the cloud load balancer is being deleted',
    given: snapshot({
      leftovers: [
        leftover(SERVICES, { name: 'ingress', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }),
      ],
    }),
    expect: {
      severity: 'notice',
      leaked: false,
      owner: { controller: 'service controller (cloud-controller-manager)', present: true },
    },
  },
  {
    name: 'foregroundDeletion with no dependents left: a built-in that should be gone',
    given: snapshot({
      leftovers: [leftover(CONFIGMAPS, { name: 'lonely', finalizers: ['foregroundDeletion'] })],
    }),
    expect: {
      severity: 'warning',
      leaked: false,
      summary:
        'foregroundDeletion on configmaps/lonely: nothing visible to wait for; the garbage collector (kube-controller-manager) should remove it',
      owner: { controller: 'garbage collector (kube-controller-manager)', present: 'unknown' },
    },
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
