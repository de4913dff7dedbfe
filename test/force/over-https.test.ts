import { KubeConfig } from '@kubernetes/client-node';
import { executePlan } from '../../src/force/execute.js';
import { createKube } from '../../src/kube/client.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { decide } from '../../src/force/policy.js';
import {
  FakeCluster,
  GVR,
  kialiStuck,
  kubesphereStuck,
  metricsApiDown,
  pvcInUse,
} from '../fake-apiserver/index.js';
import { forceRun, outside, stored, targetOf as target, writes } from '../helpers/cluster-state.js';
import { FAST, runEngine } from '../helpers/harness.js';
import { KIALI_REMOVED } from './fixtures.js';

describe('forcing over real HTTPS', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  /** Start the scenario's cluster (stopped after each test) and run the engine with force on. */
  const run = (s: { cluster: FakeCluster; namespace: string }, inputs: Record<string, string>) => {
    cluster = s.cluster;
    return forceRun(s, inputs);
  };

  test('kiali: the CR finalizer allowed by pattern is removed with one guarded PATCH, then the namespace is gone', async () => {
    const s = kialiStuck({ controller: FAST });
    const { report, before } = await run(s, {
      timeout: '10s',
      'force-finalizers': 'kiali.io/*',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    expect(report.result).toBe('forced');
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    const w = writes(cluster, s.namespace);
    // Its controller is absent: the custom resource is not deleted early, only forced.
    expect(w.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'PATCH /apis/kiali.io/v1alpha1/namespaces/istio-system/kialis/kiali 200',
    ]);
    expect(w[0]!.contentType).toBe('application/merge-patch+json');
    expect(w[0]!.body).toMatchObject({ metadata: { finalizers: [] } });
    expect(t.force!.audit).toMatchObject([KIALI_REMOVED]);
    // Every pass is kept, the last one being the plan.
    expect(t.force!.passes!.length).toBeGreaterThanOrEqual(1);
    expect(t.force!.passes!.at(-1)).toEqual(t.force!.plan);
    expect(t.force!.passes![0]!.decision).toBe('force');
    // fail-on: leaked fails when forcing was needed: the leak is the bug to fix in the chart.
    expect(report.failures.join('\n')).toMatch(/forcing was needed for: istio-system/);
    // Nothing outside the target changed: the whole rest of the cluster is identical.
    expect(outside(cluster, s.namespace)).toEqual(before);
  });

  test('kubesphere: the namespace metadata finalizer is removed by PATCH of the namespace, then it is gone', async () => {
    const s = kubesphereStuck({ controller: FAST });
    const { report, before } = await run(s, {
      timeout: '10s',
      'force-finalizers': 'finalizers.kubesphere.io/*',
      'fail-on': 'stuck',
    });
    expect(target(report, s.namespace).outcome).toBe('forced');
    expect(report.failures).toEqual([]);
    expect(writes(cluster, s.namespace).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'PATCH /api/v1/namespaces/kubesphere-system 200',
    ]);
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    expect(outside(cluster, s.namespace)).toEqual(before);
  });

  test('dead metrics APIService with force-finalize-namespace: /finalize as the last resort, then gone', async () => {
    const s = metricsApiDown({ controller: FAST });
    s.cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    s.cluster.addObject(GVR.kialis, {
      namespace: s.namespace,
      name: 'kiali',
      finalizers: ['kiali.io/finalizer'],
    });
    const { report, before } = await run(s, {
      timeout: '10s',
      'force-finalize-namespace': 'true',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('forced');
    expect(writes(cluster, s.namespace).map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual([
      'PUT /api/v1/namespaces/preview-1/finalize 200',
    ]);
    const step = t.force!.plan.steps.find((x) => x.kind === 'namespace-finalize');
    expect(step).toBeDefined();
    expect(step!.kind === 'namespace-finalize' && step!.orphans.join('\n')).toMatch(
      /kialis\.kiali\.io\/kiali/,
    );
    // What /finalize leaves behind really stays in storage, as the report said.
    expect(cluster.get(GVR.kialis, s.namespace, 'kiali')).toBeDefined();
    expect(t.findings.map((f) => f.id)).toContain('apiservice-unavailable');
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    // The APIService itself is outside the target: it is reported, never changed.
    expect(outside(cluster, s.namespace)).toEqual(before);
  });

  test('the same without force-finalize-namespace: nothing written, stuck, with the remedy', async () => {
    const s = metricsApiDown({ controller: FAST });
    const { report } = await run(s, {
      'force-finalizers': 'example.com/*',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    const finding = t.findings.find((f) => f.id === 'apiservice-unavailable')!;
    expect(finding.remedy.commands.join('\n')).toContain('kubectl delete apiservice v1beta1.metrics.k8s.io');
    expect(finding.remedy.policy).toContain('force-finalize-namespace: true');
    expect(t.force!.plan.steps).toEqual([]);
  });

  test('dry-run reports the exact plan and makes zero writes', async () => {
    const s = kialiStuck({ controller: FAST });
    const { report } = await run(s, {
      force: 'dry-run',
      'force-finalizers': 'kiali.io/*',
    });
    const t = target(report, s.namespace);
    expect(t.outcome).toBe('stuck');
    expect(writes(cluster, s.namespace)).toEqual([]);
    expect(t.force!.plan).toMatchObject({ mode: 'dry-run', decision: 'force' });
    expect(t.force!.plan.steps.map((x) => [x.kind, x.object, x.remove.map((r) => r.finalizer)])).toEqual([
      ['object-finalizers', 'kialis.kiali.io/kiali', ['kiali.io/finalizer']],
    ]);
    expect(t.force!.audit.map((a) => [a.result, a.writes])).toContainEqual(['dry-run', 0]);
    expect(cluster.get(GVR.kialis, s.namespace, 'kiali').metadata.finalizers).toEqual(['kiali.io/finalizer']);
  });

  test('a pattern that matches nothing forces nothing', async () => {
    const s = kialiStuck({ controller: FAST });
    const { report } = await run(s, {
      'force-finalizers': 'example.com/*',
    });
    expect(target(report, s.namespace).outcome).toBe('stuck');
    expect(target(report, s.namespace).force!.plan.decision).toBe('nothing-allowed');
    expect(writes(cluster, s.namespace)).toEqual([]);
  });

  test('pvc-protection with a pod still using the claim is never removed by a wildcard', async () => {
    const s = pvcInUse({ controller: FAST, graceSeconds: 3600 });
    const { report } = await run(s, {
      'force-finalizers': '*',
    });
    expect(target(report, s.namespace).outcome).toBe('stuck');
    expect(writes(cluster, s.namespace).filter((r) => r.path.includes('persistentvolumeclaims'))).toEqual([]);
    expect(cluster.get(GVR.persistentvolumeclaims, s.namespace, 'data').metadata.finalizers).toEqual([
      'kubernetes.io/pvc-protection',
    ]);
  });

  test('a namespace someone else deleted earlier is forced at once when force-after has passed', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    await createKube(kc).deleteNamespace(s.namespace);
    await new Promise((r) => setTimeout(r, 2_100));
    cluster.requests.splice(0);
    const { report } = await runEngine(kubeconfig, {
      namespaces: s.namespace,
      timeout: '20s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/finalizer',
    });
    expect(target(report, s.namespace).outcome).toBe('forced');
    // Forced on the first pass, by the run's own clock: a second pass would come 10 s later.
    expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBeLessThan(10_000);
    // Already Terminating: no second DELETE, one guarded PATCH.
    expect(cluster.requests.filter((r) => r.method !== 'GET').map((r) => r.method)).toEqual(['PATCH']);
  });

  test('a 409 on the first write: re-read and succeed', async () => {
    const s = kialiStuck({ controller: FAST });
    s.cluster.failNext(
      { method: 'PATCH', path: /\/kialis\/kiali$/ },
      {
        status: 409,
        body: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message:
            'Operation cannot be fulfilled on kialis.kiali.io "kiali": the object has been modified; please apply your changes to the latest version and try again',
          reason: 'Conflict',
          details: { name: 'kiali', group: 'kiali.io', kind: 'kialis' },
          code: 409,
        },
      },
    );
    const { report } = await run(s, { timeout: '10s', 'force-finalizers': 'kiali.io/finalizer' });
    expect(target(report, s.namespace).outcome).toBe('forced');
    const patches = writes(cluster, s.namespace).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(patches).toEqual([
      'PATCH /apis/kiali.io/v1alpha1/namespaces/istio-system/kialis/kiali 409',
      'PATCH /apis/kiali.io/v1alpha1/namespaces/istio-system/kialis/kiali 200',
    ]);
    const between = cluster.requests.slice(
      cluster.requests.findIndex((r) => r.status === 409) + 1,
      cluster.requests.findIndex((r) => r.method === 'PATCH' && r.status === 200),
    );
    expect(between.some((r) => r.method === 'GET')).toBe(true);
  });

  test('a namespace recreated between plan and write is never touched', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const kube = createKube(kc);
    await kube.deleteNamespace(s.namespace);
    await new Promise((r) => setTimeout(r, 300));
    const old = (await kube.getNamespace(s.namespace))!;
    const finding = {
      id: 'object-finalizers',
      severity: 'warning' as const,
      cause: 'object-finalizers:kialis.kiali.io|kiali.io/finalizer|',
      summary: 'kiali holds kiali.io/finalizer',
      evidence: [],
      remedy: { commands: [] },
      leaked: true,
      targets: [
        {
          kind: 'object-finalizers' as const,
          resource: { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis', kind: 'Kiali' },
          name: 'kiali',
          uid: cluster.get(GVR.kialis, s.namespace, 'kiali').metadata.uid,
          resourceVersion: cluster.get(GVR.kialis, s.namespace, 'kiali').metadata.resourceVersion,
          deleting: true,
          finalizers: ['kiali.io/finalizer'],
          waiting: [],
        },
      ],
    };
    const policy = {
      mode: 'on' as const,
      afterMs: 0,
      finalizerPatterns: ['kiali.io/*'],
      finalizeNamespace: true,
      deletePods: 'off' as const,
    };
    const plan = decide(policy, old, [finding], Date.now() + 1000, () => false);
    expect(plan.decision).toBe('force');
    // Someone finishes the old namespace and a new preview takes the name, with its own Kiali.
    cluster.removeFinalizer(GVR.kialis, s.namespace, 'kiali', 'kiali.io/finalizer');
    await new Promise((r) => setTimeout(r, 300));
    expect(cluster.namespace(s.namespace)).toBeUndefined();
    cluster.addNamespace(s.namespace);
    cluster.addObject(GVR.kialis, {
      namespace: s.namespace,
      name: 'kiali',
      finalizers: ['kiali.io/finalizer'],
    });
    const before = stored(cluster);
    cluster.requests.splice(0);
    const audit = await executePlan(kube, plan, {
      dryRun: false,
      logger: new RecordingLogger(),
      clock: systemClock,
      expectedUid: old.uid,
    });
    expect(audit.every((a) => a.result.startsWith('skipped') && a.writes === 0)).toBe(true);
    expect(cluster.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    expect(stored(cluster)).toEqual(before);
  });

  test('a protected namespace matched by the selector is refused: never deleted, never forced', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.addNamespace('platform-mesh', { labels: { 'app.kubernetes.io/part-of': 'preview' } });
    cluster.addObject(GVR.kialis, {
      namespace: 'platform-mesh',
      name: 'kiali',
      finalizers: ['kiali.io/finalizer'],
    });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, {
      selector: 'app.kubernetes.io/part-of=preview',
      'protected-namespaces': 'platform-*',
      timeout: '10s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/*',
      'fail-on': 'stuck',
    });
    expect(target(report, 'platform-mesh').outcome).toBe('refused');
    expect(target(report, s.namespace).outcome).toBe('forced');
    expect(cluster.requests.filter((r) => r.path.includes('platform-mesh'))).toEqual([]);
    expect(cluster.get(GVR.kialis, 'platform-mesh', 'kiali').metadata.finalizers).toEqual([
      'kiali.io/finalizer',
    ]);
    expect(report.failures).toEqual(['protected namespace(s) matched the selector: platform-mesh']);
  });
});
