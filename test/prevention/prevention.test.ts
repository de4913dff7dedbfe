import { diagnose } from '../../src/diagnosis/index.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import { customTypes } from '../../src/prevention/custom-resource-types.js';
import { waitDecision } from '../../src/prevention/custom-resource-decision.js';
import type { EarlyObject, Prediction } from '../../src/model/prevention.js';
import { summarizeTypes } from '../../src/prevention/custom-resource-summary.js';
import type { TargetReport } from '../../src/model/run.js';
import { deletesPodsFirst, predict, type PredictContext } from '../../src/prevention/pre-mortem.js';
import { settle } from '../../src/prevention/pre-mortem-settle.js';
import { targetReport } from '../helpers/reports.js';
import {
  CONFIGMAPS,
  PODS,
  PVCS,
  SERVICES,
  controlPlane,
  grant,
  leftover,
  metricsApiService,
  namespace,
  node,
  pod,
  snapshot,
  type,
  webhook,
  workload,
} from '../diagnosis/fixtures.js';

const WIDGETS = type('widgets.acme.io', 'v1', 'widgets', 'Widget');
const active = namespace({ deletionTimestamp: undefined, phase: 'Active', conditions: [] });
const widget = (name: string, finalizers = ['acme.io/cleanup']) => leftover(WIDGETS, { name, finalizers });
const operator = (ns: string, ready = 1) =>
  workload({
    name: 'widget-operator',
    namespace: ns,
    readyReplicas: ready,
    hints: ['ghcr.io/acme/widget-operator:1.4'],
    serviceAccount: 'widget-operator',
  });
/** The operator in `ns` with its RBAC on widgets: what ties it to them. */
const withOperator = (ns: string, ready = 1): Partial<Snapshot> => ({
  workloads: [operator(ns, ready)],
  rbac: grant(WIDGETS, { namespace: ns, name: 'widget-operator' }),
});
const snap = (over: Partial<Snapshot>): Snapshot => snapshot({ namespace: active, ...over });

describe('which types are custom resources', () => {
  const discovery = {
    resources: [
      WIDGETS,
      type('widgets.acme.io', 'v1', 'widgets/status', 'Widget'),
      type('widgets.acme.io', 'v1beta1', 'widgets', 'Widget'),
      type('metrics.k8s.io', 'v1beta1', 'pods', 'PodMetrics', { verbs: ['get', 'list'] }),
      type('custom.metrics.example', 'v1', 'reports', 'Report'),
      type('gateway.networking.k8s.io', 'v1', 'httproutes', 'HTTPRoute'),
      type('acme.io', 'v1', 'clusterwidgets', 'ClusterWidget', { namespaced: false }),
      CONFIGMAPS,
      PODS,
    ],
  };
  const crds = new Set([
    'widgets.widgets.acme.io',
    'httproutes.gateway.networking.k8s.io',
    'clusterwidgets.acme.io',
  ]);
  const aggregated = new Set(['metrics.k8s.io/v1beta1', 'custom.metrics.example/v1']);

  test('CRD types (even in a *.k8s.io group) and deletable aggregated types; no built-ins, subresources, cluster types', () => {
    const { types, skipped } = customTypes(discovery, crds, aggregated);
    expect([...types.keys()].sort()).toEqual([
      'httproutes.gateway.networking.k8s.io',
      'reports.custom.metrics.example',
      'widgets.widgets.acme.io',
    ]);
    expect(types.get('widgets.widgets.acme.io')!.version).toBe('v1');
    expect(skipped).toEqual([
      {
        type: 'pods.metrics.k8s.io',
        why: 'the aggregated API metrics.k8s.io/v1beta1 does not serve delete for it: nothing to delete early',
      },
    ]);
  });
});

describe('whether to wait for a custom resource', () => {
  test.each([
    { name: 'no finalizers: it goes at once', given: snap({}), l: widget('a', []), expect: { wait: true } },
    {
      name: 'controller running in another namespace',
      given: snap(withOperator('operators')),
      l: widget('a'),
      expect: {
        wait: true,
        why: expect.stringMatching(
          /Deployment operators\/widget-operator is alive \(Deployment operators\/widget-operator: 1 ready replica\(s\); ClusterRole widget-operator-role may update widgets/,
        ),
      },
    },
    {
      name: 'controller running inside the target (until the namespace DELETE stops it)',
      given: snap(withOperator('preview-42')),
      l: widget('a'),
      expect: { wait: true, why: expect.stringMatching(/ inside the namespace$/) },
    },
    {
      name: 'controller inside but not ready: absent',
      given: snap(withOperator('preview-42', 0)),
      l: widget('a'),
      expect: { wait: false, reason: 'controller-absent' },
    },
    {
      name: 'installed elsewhere, not running: absent',
      given: snap(withOperator('operators', 0)),
      l: widget('a'),
      expect: { wait: false, reason: 'controller-absent', why: expect.stringMatching(/is not alive/) },
    },
    {
      name: 'nothing ties a workload to it and the API server allows none (a running one named like it included): absent, never waited for',
      given: snap({
        leftovers: [widget('a')],
        workloads: [workload({ name: 'web', namespace: 'shop' }), operator('operators')],
      }),
      l: widget('a'),
      expect: { wait: false, reason: 'controller-absent', finalizer: 'acme.io/cleanup' },
    },
    {
      name: 'no RBAC grant, and the API server could not be asked: not judged present, deleted first all the same',
      given: snap({
        leftovers: [widget('a')],
        workloads: [workload({ name: 'web', namespace: 'shop' }), operator('operators')],
        access: [],
      }),
      l: widget('a'),
      expect: {
        wait: true,
        why: expect.stringMatching(
          /^acme\.io\/cleanup: deleted first all the same \(.*the API server was not asked/,
        ),
      },
    },
    {
      name: 'workloads unreadable: not judged present, deleted first all the same',
      given: snap({ readErrors: [{ what: 'workloads Deployment', error: 'forbidden' }] }),
      l: widget('a'),
      expect: {
        wait: true,
        why: expect.stringMatching(/deleted first all the same \(.*workloads could not be read: forbidden/),
      },
    },
    {
      name: "Kubernetes' own finalizer, kube-controller-manager's Lease renewed: waited for",
      given: snap({ controlPlane: controlPlane(2) }),
      l: widget('a', ['foregroundDeletion']),
      expect: {
        wait: true,
        why: expect.stringMatching(/kube-controller-manager is alive \(Lease kube-system/),
      },
    },
    {
      name: "Kubernetes' own finalizer where kube-controller-manager cannot be seen: not judged present, deleted first all the same",
      given: snap({ controlPlane: controlPlane('absent', []) }),
      l: widget('a', ['foregroundDeletion']),
      expect: {
        wait: true,
        why: expect.stringMatching(
          /^foregroundDeletion: deleted first all the same \(whether kube-controller-manager runs could not be told/,
        ),
      },
    },
    {
      name: "Kubernetes' own finalizer while kube-controller-manager's Lease expired: absent",
      given: snap({ controlPlane: controlPlane(900) }),
      l: widget('a', ['foregroundDeletion']),
      expect: { wait: false, reason: 'controller-absent' },
    },
    {
      // RBAC ties actors to a type, not to one finalizer: the second finalizer here is Kubernetes' own.
      name: 'two finalizers, one whose controller is not alive: waiting would be pointless',
      given: snap({ ...withOperator('operators'), controlPlane: controlPlane(900) }),
      l: widget('a', ['acme.io/cleanup', 'foregroundDeletion']),
      expect: { wait: false, reason: 'controller-absent', finalizer: 'foregroundDeletion' },
    },
  ])('$name', ({ given, l, expect: want }) => {
    expect(waitDecision(given, l)).toMatchObject(want);
  });
});

describe('the pre-mortem', () => {
  const ctx: PredictContext = { order: 'custom-resources-first', podsFirst: true };
  const run = (s: Snapshot, c: PredictContext = ctx): Prediction[] => predict(s, diagnose(s), c);

  test('an absent controller: a certain leak, with the objects as evidence', () => {
    const p = run(snap({ leftovers: [widget('a'), widget('b')] }));
    expect(p).toEqual([
      expect.objectContaining({
        kind: 'leak',
        hang: true,
        key: 'leak acme.io/cleanup',
        subject: 'acme.io/cleanup',
        objects: ['widgets.widgets.acme.io/a', 'widgets.widgets.acme.io/b'],
      }),
    ]);
    expect(p[0]!.summary).toMatch(
      /^leak of acme.io\/cleanup: no ServiceAccount but Kubernetes’ own may update/,
    );
  });

  test.each([
    { order: 'namespace' as const, podsFirst: true, hang: true, words: /deletes pods first .*a deadlock/ },
    { order: 'namespace' as const, podsFirst: 'unknown' as const, hang: true, words: /on Kubernetes 1.33\+/ },
    { order: 'namespace' as const, podsFirst: false, hang: false, words: /does not delete pods first/ },
    {
      order: 'custom-resources-first' as const,
      podsFirst: true,
      hang: false,
      words: /deleted first, while it still runs/,
    },
  ])(
    'a controller inside the target, order $order, pods-first $podsFirst: hang $hang',
    ({ hang, words, ...c }) => {
      const p = run(snap({ leftovers: [widget('a')], ...withOperator('preview-42') }), c);
      expect(p.map((x) => [x.kind, x.hang])).toEqual([['in-namespace-controller', hang]]);
      expect(p[0]!.summary).toMatch(words);
    },
  );

  test('a controller running elsewhere predicts nothing', () => {
    expect(run(snap({ leftovers: [widget('a')], ...withOperator('operators') }))).toEqual([]);
  });

  test('pods on a lost node, a refusing webhook, a dead APIService, slow PVCs and load balancers', () => {
    const s = snap({
      leftovers: [
        leftover(PODS, { name: 'web-0' }),
        leftover(PVCS, { name: 'data', finalizers: ['kubernetes.io/pvc-protection'] }),
        leftover(SERVICES, { name: 'edge', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] }),
        leftover(CONFIGMAPS, { name: 'cfg' }),
      ],
      pods: [pod({ name: 'web-0', nodeName: 'n-1', claims: ['data'] })],
      nodes: [node('n-1', 'Unknown')],
      webhooks: [webhook({ name: 'deny.policy.example', deleteResources: ['configmaps'] })],
      apiServices: [metricsApiService()],
    });
    const p = run(s);
    expect(p.map((x) => [x.kind, x.hang, x.subject])).toEqual([
      ['apiservice', true, 'v1beta1.metrics.k8s.io'],
      ['lost-node', true, 'n-1'],
      ['webhook', true, 'deny.policy.example'],
      ['slow-cleanup', false, 'service.kubernetes.io/load-balancer-cleanup'],
      ['slow-cleanup', false, 'kubernetes.io/pvc-protection'],
    ]);
    expect(p.find((x) => x.kind === 'webhook')!.objects).toEqual(['configmaps/cfg']);
    expect(p.find((x) => x.kind === 'lost-node')!.objects).toEqual(['pods/web-0']);
  });

  test('a webhook on types the namespace does not hold, or with ready endpoints, predicts nothing', () => {
    const s = snap({
      leftovers: [leftover(CONFIGMAPS, { name: 'cfg' })],
      webhooks: [
        webhook({ name: 'a.example', deleteResources: ['widgets.acme.io'] }),
        webhook({ name: 'b.example', backing: { serviceExists: true, readyEndpoints: 2 } }),
        webhook({ name: 'c.example', failurePolicy: 'Ignore' }),
      ],
    });
    expect(run(s)).toEqual([]);
  });

  test.each([
    { version: { major: '1', minor: '34' }, want: true },
    { version: { major: '1', minor: '33+' }, want: true },
    { version: { major: '1', minor: '29' }, want: false },
    { version: { major: '1', minor: '20' }, want: false },
    { version: undefined, want: 'unknown' },
  ])('/version $version deletes pods first: $want', ({ version, want }) => {
    expect(deletesPodsFirst(version)).toBe(want);
  });
});

describe('whether a prediction came true', () => {
  const leak: Prediction = {
    kind: 'leak',
    hang: true,
    key: 'leak acme.io/cleanup',
    subject: 'acme.io/cleanup',
    summary: 'leak of acme.io/cleanup',
    objects: [],
    evidence: [],
  };
  const target = (over: Partial<TargetReport>): TargetReport => targetReport('pr-1', over);
  const finding = {
    id: 'finalizer-owner-gone',
    severity: 'error' as const,
    cause: 'finalizer:acme.io/cleanup|widgets.widgets.acme.io|absent',
    summary: 'acme.io/cleanup on widgets/a: leaked',
    evidence: [],
    remedy: { commands: [] },
    leaked: true,
  };
  /** What really held it: a webhook whose backend is down refusing the deletes. */
  const webhookVerdict = {
    ...finding,
    id: 'content-delete-refused',
    cause: 'webhook-call-failed:guard.example.com',
    summary: 'the namespace controller’s deletes are refused by webhook guard.example.com',
    leaked: false,
  };
  /** A claim never marked for deletion: its pvc-protection is named in evidence, and held nothing. */
  const pvcNote = {
    ...finding,
    id: 'object-finalizers',
    severity: 'warning' as const,
    cause: 'object-finalizers:persistentvolumeclaims|kubernetes.io/pvc-protection|',
    summary: 'persistentvolumeclaims/data holds finalizer(s) kubernetes.io/pvc-protection (not deleted yet)',
    leaked: false,
  };
  const slowPvc: Prediction = {
    ...leak,
    kind: 'slow-cleanup',
    hang: false,
    key: 'slow pvc',
    subject: 'kubernetes.io/pvc-protection',
  };

  test.each([
    {
      name: 'stuck on it',
      p: leak,
      t: target({ outcome: 'stuck', findings: [finding] }),
      want: ['came-true', 'came true: stuck on it'],
    },
    {
      name: 'stuck on something else',
      p: leak,
      t: target({ outcome: 'stuck' }),
      want: ['did-not-happen', 'did not happen: stuck, but on something else'],
    },
    {
      name: 'stuck on a webhook: the leak it also finds is not what held it',
      p: leak,
      t: target({
        outcome: 'stuck',
        findings: [webhookVerdict, { ...finding, severity: 'warning' as const }],
      }),
      want: [
        'did-not-happen',
        'did not happen: stuck, but on something else: the namespace controller’s deletes are refused by webhook guard.example.com',
      ],
    },
    {
      name: 'a PVC never marked for deletion is named in the findings, but the namespace hung on the webhook',
      p: slowPvc,
      t: target({ outcome: 'stuck', findings: [webhookVerdict, pvcNote] }),
      want: [
        'unknown',
        'stuck on something else: the namespace controller’s deletes are refused by webhook guard.example.com',
      ],
    },
    {
      name: 'gone',
      p: leak,
      t: target({ durationMs: 2000 }),
      want: ['did-not-happen', 'did not happen: gone in 2s'],
    },
    {
      name: 'forced while its leak held it',
      p: leak,
      t: target({ outcome: 'forced', findings: [finding] }),
      want: ['came-true', 'came true: it held the namespace until forcing'],
    },
    {
      name: 'forced past something else',
      p: leak,
      t: target({ outcome: 'forced', findings: [webhookVerdict] }),
      want: ['did-not-happen', 'did not happen: forcing went past something else'],
    },
    {
      name: 'in-namespace controller, custom resources first, gone',
      p: { ...leak, kind: 'in-namespace-controller' as const, hang: false },
      t: target({ durationMs: 3000 }),
      want: ['avoided', 'avoided: its resources went first while it ran; gone in 3s'],
    },
    {
      name: 'not deleted (cancelled)',
      p: leak,
      t: target({ outcome: 'active' }),
      want: ['unknown', 'cannot tell: the namespace ended active'],
    },
  ])('$name', ({ p, t, want }) => {
    const s = settle(p, t).settled!;
    expect([s.result, s.words]).toEqual(want);
  });
});

test('per type: how many went, finalizer times (median, max) of those with finalizers, and why the rest stayed', () => {
  const o = (type: string, ms: number | undefined, over: Partial<EarlyObject> = {}): EarlyObject => ({
    object: `${type}/x`,
    type,
    finalizers: ['f'],
    waited: true,
    why: '',
    ...(ms !== undefined ? { ms, goneAt: 'x' } : {}),
    ...over,
  });
  expect(
    summarizeTypes([
      o('b', 300),
      o('b', 100),
      o('b', 900),
      o('b', 5, { finalizers: [] }),
      o('b', undefined, { left: { reason: 'wait-share-ran-out', detail: '' } }),
      o('a', undefined, { left: { reason: 'controller-absent', detail: '' } }),
    ]),
  ).toEqual([
    { type: 'a', found: 1, gone: 0, left: { 'controller-absent': 1 } },
    {
      type: 'b',
      found: 5,
      gone: 4,
      finalizerMs: { median: 300, max: 900 },
      left: { 'wait-share-ran-out': 1 },
    },
  ]);
});
