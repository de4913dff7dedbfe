/**
 * A write is done only when the server's answer shows it. A mutating webhook that puts back what a write removed makes
 * the server answer 200 with it still there: the finalizer PATCH, the `/finalize` PUT and the GitOps owner's
 * suspension are each reported as not done, the webhook is named with where it is served and whether it is up, the
 * write is tried at most once again, and nothing says removed, finalized, suspended or resolved.
 */
import type { RunReport, TargetReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import {
  FakeCluster,
  FAST,
  GITOPS_TYPES,
  kialiStuck,
  kustomizationBody,
  metricsApiDown,
} from '../fake-apiserver/index.js';
import { runEngine } from '../helpers/harness.js';

const KIALI_PATH = '/apis/kiali.io/v1alpha1/namespaces/istio-system/kialis/kiali';

async function run(
  cluster: FakeCluster,
  inputs: Record<string, string>,
): Promise<{ report: RunReport; log: string[]; summary: string; text: string }> {
  const { kubeconfig } = await cluster.start();
  // The run's clock stands still until the fake cluster has settled (the namespace controller has marked what blocks),
  // then jumps to the timeout: what is forced never depends on how fast a loaded machine got there.
  const { report, log } = await runEngine(
    kubeconfig,
    { force: 'on', 'force-after': '1s', ...inputs },
    { settle: { cluster } },
  );
  return {
    report,
    log,
    summary: renderSummary(report),
    text: renderText(report, { width: 120, color: false }),
  };
}

const target = (r: RunReport): TargetReport => r.targets[0]!;
const sent = (cluster: FakeCluster, method: string, path: string): number =>
  cluster.requests.filter((r) => r.method === method && r.path === path).length;

describe('a write whose answer does not show its effect is not done', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  test('a finalizer PATCH answered with the finalizer still there: not removed, the webhook named, tried at most twice', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.addNamespace('kiali-operator');
    cluster.addService('kiali-operator', 'kiali-webhook', 1);
    cluster.addWebhook({
      kind: 'Mutating',
      name: 'finalizers.kiali.io',
      failurePolicy: 'Fail',
      resources: ['kialis'],
      operations: ['CREATE', 'UPDATE'],
      apiGroups: ['kiali.io'],
      service: { namespace: 'kiali-operator', name: 'kiali-webhook' },
      down: false,
    });
    cluster.putBackFinalizer('finalizers.kiali.io', 'kiali.io/finalizer');
    const { report, log, summary, text } = await run(cluster, {
      namespaces: s.namespace,
      timeout: '4s',
      'force-finalizers': 'kiali.io/*',
    });
    const t = target(report);
    expect(t.outcome).toBe('stuck');
    expect(report.result).toBe('stuck');
    expect(cluster.get(s.gvr, s.namespace, 'kiali')?.metadata.finalizers).toEqual(['kiali.io/finalizer']);
    expect(sent(cluster, 'PATCH', KIALI_PATH)).toBeGreaterThanOrEqual(1);
    expect(sent(cluster, 'PATCH', KIALI_PATH)).toBeLessThanOrEqual(2);
    const entries = t.force!.audit.filter((a) => a.object === 'kialis.kiali.io/kiali');
    expect(entries.length).toBeGreaterThan(0);
    for (const e of entries) {
      expect(e.result).toBe('not-removed');
      expect(e.after).toEqual(['kiali.io/finalizer']);
    }
    // What a person reads: the log, the summary and the terminal say it was not removed, and who puts it back.
    const line = log.find((l) => l.includes('kialis.kiali.io/kiali metadata.finalizers'));
    expect(line).toContain('not removed');
    expect(line).toContain('after: [kiali.io/finalizer]');
    expect(log.join('\n')).not.toContain('after: []');
    for (const out of [summary, text]) {
      expect(out).not.toMatch(/✅ removed|resolved by forcing|· removed/);
      expect(out).toContain('not removed');
      expect(out).toContain('finalizers.kiali.io');
      expect(out).toContain('kiali-operator/kiali-webhook');
    }
    const put = t.findings.find((f) => f.id === 'finalizer-put-back');
    expect(put).toBeDefined();
    expect(t.findings[0]).toBe(put);
    expect(put!.summary).toContain('mutating webhook finalizers.kiali.io');
    expect(put!.remedy.commands.join('\n')).toContain(
      'kubectl get mutatingwebhookconfiguration finalizers.kiali.io -o yaml',
    );
    // The remedy is the webhook: no command removes the finalizer again, none deletes the configuration.
    const all = JSON.stringify(t.findings.map((f) => f.remedy.commands));
    expect(all).not.toMatch(/kubectl delete mutatingwebhookconfiguration/);
    expect(all).not.toContain('kialis.kiali.io/kiali');
  });

  test('a /finalize answered with spec.finalizers back: not finalized, the webhook named, the namespace still there', async () => {
    const s = metricsApiDown({ controller: FAST });
    cluster = s.cluster;
    cluster.addNamespace('guard-system');
    cluster.addService('guard-system', 'namespace-guard', 2);
    cluster.addWebhook({
      kind: 'Mutating',
      name: 'namespaces.guard.example.com',
      failurePolicy: 'Fail',
      resources: ['namespaces/finalize'],
      operations: ['UPDATE'],
      apiGroups: [''],
      service: { namespace: 'guard-system', name: 'namespace-guard' },
      down: false,
    });
    cluster.putBackFinalizer('namespaces.guard.example.com', 'kubernetes', { field: 'spec' });
    const { report, log, summary, text } = await run(cluster, {
      namespaces: s.namespace,
      timeout: '4s',
      'force-finalize-namespace': 'true',
    });
    const t = target(report);
    expect(t.outcome).toBe('stuck');
    expect(cluster.namespace(s.namespace)).toBeDefined();
    const path = `/api/v1/namespaces/${s.namespace}/finalize`;
    expect(sent(cluster, 'PUT', path)).toBeGreaterThanOrEqual(1);
    expect(sent(cluster, 'PUT', path)).toBeLessThanOrEqual(2);
    const fin = t.force!.audit.filter((a) => a.step === 'namespace-finalize');
    expect(fin.length).toBeGreaterThan(0);
    for (const e of fin) {
      expect(e.result).toBe('not-removed');
      expect(e.after).toEqual(['kubernetes']);
    }
    expect(log.find((l) => l.includes('spec.finalizers'))).toContain('after: [kubernetes]');
    for (const out of [summary, text]) {
      expect(out).not.toMatch(/✅ finalized|· finalized|resolved by forcing/);
      expect(out).toContain('namespaces.guard.example.com');
    }
    expect(summary).toContain('guard-system/namespace-guard');
  });

  test('a suspension answered without spec.suspend: not suspended, the webhook that undoes it named', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-5');
    cluster.addNamespace('platform');
    cluster.addService('platform', 'gitops-guard', 1);
    cluster.addGitOps('flux');
    const flux = GITOPS_TYPES.flux;
    cluster.addObject(
      { group: flux.group, version: flux.version, resource: flux.plural },
      kustomizationBody({ name: 'preview-web-5', namespaces: ['pr-5'] }),
    );
    cluster.addWebhook({
      kind: 'Mutating',
      name: 'no-suspend.platform.example.com',
      failurePolicy: 'Fail',
      resources: ['kustomizations'],
      operations: ['UPDATE'],
      apiGroups: [flux.group],
      service: { namespace: 'platform', name: 'gitops-guard' },
      down: false,
    });
    cluster.mutateWebhook('no-suspend.platform.example.com', {
      patch: (obj) =>
        (obj.spec as { suspend?: boolean } | undefined)?.suspend === true
          ? [{ op: 'replace', path: '/spec/suspend', value: false }]
          : undefined,
    });
    const { report, summary } = await run(cluster, {
      namespaces: 'pr-5',
      timeout: '6s',
      force: 'off',
      'force-after': '',
      'fail-on': 'stuck',
      'gitops-owners': 'suspend',
    });
    const owner = report.lifecycle!.owners![0]!;
    expect(owner.outcome).toBe('failed');
    expect(owner.note).toContain('spec.suspend');
    expect(owner.note).toContain('no-suspend.platform.example.com');
    expect(owner.note).toContain('platform/gitops-guard');
    const path = `/apis/${flux.group}/${flux.version}/namespaces/flux-system/${flux.plural}/preview-web-5`;
    expect(sent(cluster, 'PATCH', path)).toBeLessThanOrEqual(2);
    expect(summary).not.toMatch(/suspended first/);
    expect(summary).toContain('no-suspend.platform.example.com');
  });
});
