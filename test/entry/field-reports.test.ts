import { FakeCluster, GVR, kialiStuck, kubesphereStuck, metricsApiDown } from '../fake-apiserver/index.js';
import { gfm } from '../helpers/gfm.js';
import { FAST, runBundle, type BundleRun } from '../helpers/harness.js';

/** The field reports' three classic cases, through `node dist/index.js` as the runner runs it. */
describe('node dist/index.js diagnoses the field-report cases', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  const annotations = (run: BundleRun): string[] =>
    run.stdout.split('\n').filter((l) => /^::(error|warning|notice)/.test(l));

  test('kiali: the leftover CR, its finalizer and the missing operator', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: s.namespace, kubeconfig, timeout: '3s' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('stuck');
    expect(JSON.parse(run.outputs.stuck!)).toEqual(['istio-system']);
    const findings = run.report!.targets[0]!.findings;
    expect(findings.find((f) => f.id === 'finalizer-owner-gone')).toMatchObject({
      severity: 'error',
      leaked: true,
    });
    expect(findings.find((f) => f.id === 'object-finalizers')!.evidence[0]).toMatchObject({
      object: 'kialis.kiali.io/kiali',
      field: 'metadata.finalizers',
    });
    // One annotation for the stuck namespace (its root cause and the fix), the notice of the hang foreseen before
    // the DELETE (and that it came true), and the step's failure line.
    expect(annotations(run)).toHaveLength(3);
    expect(annotations(run)[0]).toMatch(
      /^::error title=Namespace istio-system stuck in Terminating::kiali\.io\/finalizer on kialis\.kiali\.io\/kiali: leaked: no live actor can release it\. Fix: kubectl --context fake patch kialis\.kiali\.io kiali -n istio-system --type=json/,
    );
    expect(annotations(run)[1]).toMatch(
      /^::notice title=Predicted before deleting%3A istio-system will hang::leak of kiali\.io\/finalizer: .* After the run: came true: stuck on it\.$/,
    );
    expect(annotations(run)[2]).toMatch(/^::error::Namespace teardown failed: /);
    const fix = run.summary.slice(
      run.summary.indexOf('### Fix first'),
      run.summary.indexOf('### Still there'),
    );
    expect(fix).toContain(
      "kubectl --context fake patch kialis.kiali.io kiali -n istio-system \\\n  --type=json -p '[\n",
    );
    expect(fix).toContain('{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},');
    expect(run.summary).toContain('🔴 **finalizer-owner-gone**');
    expect(run.summary).toContain(
      'Force policy that would handle it: <code>force-finalizers&#58; kiali.io/finalizer</code>',
    );
    expect(run.stdout).toContain('finalizers leaked in: istio-system');
  });

  test('kubesphere: the namespace metadata finalizer, apart from spec.finalizers', async () => {
    const s = kubesphereStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: s.namespace, kubeconfig, timeout: '3s' });
    expect(run.outputs.result).toBe('stuck');
    const finding = run.report!.targets[0]!.findings.find((f) => f.id === 'namespace-metadata-finalizers')!;
    expect(finding.evidence[0]).toMatchObject({
      object: 'namespace/kubesphere-system',
      field: 'metadata.finalizers',
    });
    expect(finding.evidence[0]!.value).toContain('finalizers.kubesphere.io/namespaces');
    expect(finding.remedy.commands.join('\n')).toMatch(
      /kubectl patch namespace kubesphere-system --type=json/,
    );
    expect(finding.remedy.commands.join('\n')).not.toContain('replace --raw');
    expect(annotations(run)[0]).toMatch(
      /^::error title=Namespace kubesphere-system stuck in Terminating::namespace kubesphere-system metadata\.finalizers holds finalizers\.kubesphere\.io\/namespaces: .* Fix: kubectl --context fake patch namespace kubesphere-system/,
    );
    expect(run.summary).toContain('finalizers.kubesphere.io/namespaces');
  });

  test('metrics.k8s.io: the unavailable APIService, its reason and the missing Service', async () => {
    const s = metricsApiDown({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: s.namespace, kubeconfig, timeout: '3s' });
    expect(run.outputs.result).toBe('stuck');
    const t = run.report!.targets[0]!;
    expect(t.conditions.find((c) => c.type === 'NamespaceDeletionDiscoveryFailure')).toMatchObject({
      status: 'True',
      reason: 'DiscoveryFailed',
    });
    const finding = t.findings.find((f) => f.id === 'apiservice-unavailable')!;
    expect(finding.severity).toBe('error');
    expect(finding.evidence.map((e) => `${e.object} ${e.value}`).join('\n')).toContain('ServiceNotFound');
    expect(finding.evidence.map((e) => e.value).join('\n')).toContain(
      'service/metrics-server in "kube-system" is not present',
    );
    expect(finding.remedy.commands).toContain('kubectl delete apiservice v1beta1.metrics.k8s.io');
    expect(annotations(run)[0]).toMatch(
      /^::error title=Namespace preview-1 stuck in Terminating::APIService v1beta1\.metrics\.k8s\.io is unavailable .* Fix: kubectl --context fake delete apiservice v1beta1\.metrics\.k8s\.io$/,
    );
    expect(run.summary).toContain('v1beta1.metrics.k8s.io');
  });

  test('hostile text in finalizers and messages never forms a workflow command and renders escaped', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    cluster.addNamespace('pr-1');
    const hostile = 'kiali.io/x\n::error::pwned%0A::warning::again|<img src=x>`' + 'y'.repeat(10_000);
    cluster.addObject(GVR.kialis, { namespace: 'pr-1', name: 'kiali', finalizers: [hostile] });
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '3s' });
    expect(run.outputs.result).toBe('stuck');
    for (const line of run.stdout.split('\n')) {
      expect(line).not.toMatch(/^\s*::(error|warning)::(pwned|again)/);
      if (line.startsWith('::'))
        expect(line).toMatch(/^::(add-mask|group|endgroup|error|warning|notice|debug)[ :]/);
    }
    expect(run.stdout).not.toMatch(/^::warning::again/m);
    expect(gfm.render(run.summary)).not.toMatch(/<img/i);
    expect(run.summary).toContain('&lt;img src=x&gt;');
    expect(run.summary.split('\n').every((l) => !l.trimStart().startsWith('::'))).toBe(true);
  });
});
