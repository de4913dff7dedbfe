/**
 * Every verdict the diagnosis gives, rendered with its remedy (the details and the first screen), checked against what
 * no remedy may say beside it: "wait" under an actor that is not alive, a removal offered as the fix while an actor is
 * alive or may be, "not running" beside ready replicas, a last resort under a leak, a deletion a live owner undoes.
 */
import { diagnose } from '../../src/diagnosis/index.js';
import { judge } from '../../src/force/judge.js';
import { willRecreate } from '../../src/diagnosis/rules/will-recreate.js';
import { toApplication } from '../../src/diagnosis/snapshot/actor-raw.js';
import type { LeaseState, Snapshot } from '../../src/diagnosis/types.js';
import type { Finding } from '../../src/model/findings.js';
import { renderDetails } from '../../src/report/findings.js';
import { renderFixFirst } from '../../src/report/headline.js';
import {
  PVCS,
  SERVICES,
  TAKEN_AT,
  ago,
  conditions,
  controlPlane,
  grant,
  leftover,
  metricsApiService,
  namespace,
  pod,
  snapshot,
  type,
  webhook,
  workload,
} from '../diagnosis/fixtures.js';
import { runReport, targetReport } from '../helpers/reports.js';

const GIZMOS = type('widgets.dev', 'v1', 'gizmos', 'Gizmo');
const gizmo = (name: string): ReturnType<typeof leftover> =>
  leftover(GIZMOS, { name, finalizers: ['acme.io/cleanup'], deletionTimestamp: ago(300) });
const op = (over: Partial<ReturnType<typeof workload>> = {}) =>
  workload({ name: 'zeta', namespace: 'platform', serviceAccount: 'zeta', ...over });
const rights = grant(GIZMOS, { namespace: 'platform', name: 'zeta' });
const lease = (renewedAgo: number): LeaseState => ({
  namespace: 'platform',
  name: 'zeta-leader',
  holder: 'zeta-6d4f9c7b8-x2kqz_0c1d',
  renewTime: ago(renewedAgo),
  durationSeconds: 15,
});
const held = { leftovers: [gizmo('a')] };

/** The namespace controller's words for deletes refused by admission (as kube-apiserver 1.20 writes them). */
const refusedBy = (error: string): Partial<Snapshot> => ({
  namespace: namespace({
    conditions: conditions({
      NamespaceDeletionContentFailure: [
        'ContentDeletionFailed',
        `Failed to delete all resource types, 1 remaining: ${error}`,
      ],
    }),
  }),
});
const KYVERNO =
  'admission webhook "validate.kyverno.svc-fail" denied the request: \n\nresource ConfigMap/preview-42/keep was blocked due to the following policies \n\nprotect:\n  block-delete: \'validation error: deleting protected objects is not allowed\'\n';
const NO_PARAMS =
  "configmaps \"app\" is forbidden: ValidatingAdmissionPolicy 'limits' with binding 'limits-binding' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction";
const kyverno = (readyEndpoints: number) =>
  webhook({
    configuration: 'kyverno-resource-validating-webhook-cfg',
    name: 'validate.kyverno.svc-fail',
    service: { namespace: 'kyverno', name: 'kyverno-svc' },
    backing: { serviceExists: true, readyEndpoints },
  });

/** One snapshot per verdict the rules give (the name says which). */
const WORLDS: Record<string, Partial<Snapshot>> = {
  'waiting: a live operator tied by RBAC': { ...held, workloads: [op()], rbac: rights },
  'waiting: objects released since the earlier look': {
    ...held,
    workloads: [op()],
    rbac: rights,
    earlier: { takenAt: ago(30), holders: { 'acme.io/cleanup': ['uid-a', 'uid-b'] } },
  },
  'down: no ready replica': { ...held, workloads: [op({ readyReplicas: 0 })], rbac: rights },
  'down: being deleted': { ...held, workloads: [op({ deleting: true })], rbac: rights },
  'down: ready replicas, its leader Lease expired': {
    ...held,
    workloads: [op()],
    rbac: rights,
    leases: [lease(3600)],
  },
  'deadlock: its operator lives in the namespace': {
    ...held,
    workloads: [op({ namespace: 'preview-42' })],
    rbac: grant(GIZMOS, { namespace: 'preview-42', name: 'zeta' }),
  },
  'leaked: nothing may release it, the API server agrees': {
    ...held,
    workloads: [op({ serviceAccount: 'web' })],
  },
  'unknown: no grant visible, the API server not asked': { ...held, workloads: [op()], access: [] },
  'unknown: workloads unreadable': {
    ...held,
    readErrors: [{ what: 'workloads Deployment', error: '403 Forbidden' }],
  },
  'waiting: pvc-protection, the claim still mounted': {
    leftovers: [leftover(PVCS, { name: 'data', finalizers: ['kubernetes.io/pvc-protection'] })],
    pods: [pod({ name: 'db-0', claims: ['data'] })],
    controlPlane: controlPlane(2),
  },
  'down: pvc-protection, kube-controller-manager’s Lease expired': {
    leftovers: [leftover(PVCS, { name: 'data', finalizers: ['kubernetes.io/pvc-protection'] })],
    controlPlane: controlPlane(900),
  },
  'leaked: load-balancer-cleanup where no cloud controller runs': {
    leftovers: [
      leftover(SERVICES, { name: 'edge', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }),
    ],
    controlPlane: controlPlane(2, [
      {
        namespace: 'kube-system',
        name: 'kcm-1',
        component: 'kube-controller-manager',
        ready: true,
        cloudProvider: '',
      },
    ]),
  },
  'unknown: load-balancer-cleanup, no cloud controller visible': {
    leftovers: [
      leftover(SERVICES, { name: 'edge', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }),
    ],
    controlPlane: controlPlane(2, []),
  },
  'refused-on-purpose: a policy engine that is up denies the deletes': {
    ...refusedBy(KYVERNO),
    webhooks: [kyverno(2)],
  },
  'cannot-evaluate: a policy binding without its parameter': refusedBy(NO_PARAMS),
  'leaked: a namespace metadata finalizer': {
    namespace: namespace({ metadataFinalizers: ['finalizers.kubesphere.io/namespaces'] }),
  },
  'leaked: an APIService whose Service is gone': {
    apiServices: [
      {
        name: metricsApiService().name,
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        service: { namespace: 'monitoring', name: 'prometheus-adapter' },
        available: { status: 'False', reason: 'ServiceNotFound' },
        backing: { serviceExists: false, readyEndpoints: 0 },
      },
    ],
  },
  'backend-down: an APIService whose Service has no endpoints': {
    apiServices: [
      metricsApiService({
        available: { status: 'False', reason: 'MissingEndpoints' },
        backing: { serviceExists: true, readyEndpoints: 0 },
      }),
    ],
  },
};

const application = (reconciledAgo: number, automated = true) =>
  toApplication({
    metadata: { name: 'preview-42', namespace: 'argocd' },
    spec: {
      destination: { namespace: 'preview-42' },
      syncPolicy: { ...(automated ? { automated: {} } : {}), syncOptions: ['CreateNamespace=true'] },
    },
    status: {
      reconciledAt: ago(reconciledAgo),
      resources: [{ kind: 'Deployment', namespace: 'preview-42' }],
    },
  });
const recreate = (owner: ReturnType<typeof application>): Finding[] =>
  willRecreate({
    takenAt: TAKEN_AT,
    namespace: { name: 'preview-42', labels: {} },
    gitops: [owner],
    workloads: [],
    rbac: { roles: [], bindings: [] },
    leases: [],
    readErrors: [],
  });

/** Every finding of every world, named by its world. */
const cases: [string, Finding][] = [
  ...Object.entries(WORLDS).flatMap(([world, over]) =>
    diagnose(snapshot(over))
      .filter((f) => !f.generic && f.id !== 'object-finalizers')
      .map((f): [string, Finding] => [`${world} → ${f.id}:${f.verdict ?? '-'}`, f]),
  ),
  ...recreate(application(40)).map((f): [string, Finding] => [`will-recreate, live owner → ${f.verdict}`, f]),
  ...recreate(application(40, false)).map((f): [string, Finding] => [
    `owner not automated → ${f.verdict}`,
    f,
  ]),
];

/** A finalizer removed, or the namespace finalized: what skips a controller's cleanup. */
const REMOVES = /finalizers|\/finalize/;
const WAIT = /\bwait(s|ing)?\b/i;
const NOT_ALIVE = new Set(['down', 'leaked', 'deadlock', 'backend-down']);

/** What the renderers put under a finding: its `<sub>` footnotes and its last-resort lines. */
const footnotes = (markdown: string): string =>
  markdown
    .split('\n')
    .filter((l) => l.includes('<sub>') || l.includes('Last resort'))
    .join('\n');

function rendered(f: Finding): { details: string; first: string } {
  const t = targetReport('preview-42', { outcome: 'stuck', findings: [f] });
  return { details: renderDetails(t, undefined), first: renderFixFirst(runReport([t])) };
}

describe('no footnote or remedy contradicts its verdict', () => {
  test('every verdict is among the cases', () => {
    const verdicts = new Set(cases.map(([, f]) => f.verdict));
    // `outcome-unknown` is given by the run (it lost the right to look), never by a rule: no remedy is written for it.
    for (const v of [
      'waiting',
      'down',
      'deadlock',
      'leaked',
      'unknown',
      'backend-down',
      'will-recreate',
      'refused-on-purpose',
      'cannot-evaluate',
    ])
      expect(verdicts).toContain(v);
  });

  test.each(cases)('%s', (_name, f) => {
    const { details, first } = rendered(f);
    const advice = [f.remedy.note ?? '', f.remedy.lastResort?.risk ?? ''].join('\n');
    const commands = f.remedy.commands.join('\n');
    if (NOT_ALIVE.has(f.verdict ?? '')) {
      // Nothing that is not alive is waited for: the note says how to bring it back, or that nothing will; not in the
      // finding's words, nor in any footnote the renderers add under it.
      expect(advice).not.toMatch(WAIT);
      expect(footnotes(details)).not.toMatch(WAIT);
      expect(footnotes(first)).not.toMatch(WAIT);
    }
    if (f.verdict === 'refused-on-purpose' || f.verdict === 'cannot-evaluate') {
      // A control that is up is never switched off by the remedy: its owner, or a change of the object, helps.
      expect(commands).not.toMatch(
        /delete (validating|mutating)webhookconfiguration|delete validatingadmissionpolicy/i,
      );
    }
    if (f.owner?.present === true || f.owner?.present === 'unknown' || f.verdict === 'waiting') {
      // A live actor, or one that may be: its cleanup is never skipped by a command offered as the fix.
      expect(commands).not.toMatch(REMOVES);
      expect(advice).not.toMatch(/skips no cleanup|removing (it|the finalizer) is safe/i);
    }
    if (f.verdict === 'leaked' || f.verdict === 'deadlock') {
      expect(f.remedy.lastResort).toBeUndefined();
      expect(first).not.toContain('Last resort, not the fix');
    }
    if (f.verdict === 'unknown') expect(commands).not.toMatch(REMOVES);
    if (f.verdict === 'will-recreate') expect(commands).not.toMatch(/delete (namespace|ns) /);
    // The owner line never says "not running" beside ready replicas.
    for (const line of details.split('\n').filter((l) => l.startsWith('- Owner:')))
      if (/\b[1-9]\d* ready replica/.test(line)) expect(line).not.toContain('(not running)');
  });
});

describe('a forcing refusal’s remedy agrees with its owner', () => {
  const LB = 'service.kubernetes.io/load-balancer-cleanup';
  const remedyOf = (waiting: boolean, owner?: Finding['owner']): string => {
    const v = judge(LB, waiting, ['service.kubernetes.io/*'], owner);
    if (!('refusal' in v)) throw new Error('removal allowed');
    return v.refusal.remedy;
  };
  test.each([
    { name: 'no owner known', owner: undefined, expect: /^fix the controller that owns it, or name/ },
    {
      name: 'its controller not running',
      owner: { controller: 'Deployment kube-system/cloud-controller', present: false },
      expect: /^fix or reinstall Deployment kube-system\/cloud-controller, or name/,
    },
    {
      name: 'its controller running but not leading',
      owner: {
        controller: 'Deployment kube-system/cloud-controller',
        present: false,
        status: 'running but not leading',
      },
      expect: /^restart Deployment kube-system\/cloud-controller \(running but not leading\), or name/,
    },
  ])('$name: never "wait" for what is not at work', ({ owner, expect: re }) => {
    const remedy = remedyOf(false, owner);
    expect(remedy).toMatch(re);
    expect(remedy).not.toMatch(WAIT);
  });
  test('a finalizer still legitimately waiting: wait is the remedy', () => {
    expect(remedyOf(true)).toMatch(/^wait for it to finish/);
  });
});
