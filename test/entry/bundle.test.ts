import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle } from '../helpers/harness.js';

const KIALI = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };

describe('node dist/index.js, run the way the runner runs it', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('writes the job summary, the outputs and the JSON report, and fails the step on a stuck namespace', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    cluster.addNamespace('preview-1');
    cluster.addNamespace('preview-2');
    cluster.addObject(KIALI, {
      metadata: { namespace: 'preview-2', name: 'kiali', finalizers: ['kiali.io/finalizer'] },
    });
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({
      namespaces: 'preview-1\npreview-2',
      kubeconfig,
      timeout: '4s',
      'fail-on': 'stuck',
    });

    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('stuck');
    expect(JSON.parse(run.outputs.deleted!)).toEqual(['preview-1']);
    expect(JSON.parse(run.outputs.stuck!)).toEqual(['preview-2']);
    expect(run.report?.targets.map((t) => t.outcome)).toEqual(['gone', 'stuck']);
    expect(run.summary).toContain('## ❌ Namespace teardown: 1 stuck, 1 gone of 2 namespaces');
    expect(run.summary).toMatch(/^Cluster <code>fake<\/code> at 127\.0\.0\.1&#58;\d+ · \*\*acme\/shop\*\*/m);
    expect(run.summary).toMatch(/^\| preview-2 \| .* \| ❌ stuck · \d+s \| kiali\.io\/finalizer on kialis/m);
    expect(run.summary).toContain('kiali.io/finalizer in 1 resource instances');
    expect(run.stdout).toMatch(
      /^::error title=Namespace preview-2 stuck in Terminating::kiali\.io\/finalizer on kialis\.kiali\.io\/kiali: leaked: no live actor can release it\. Fix: kubectl --context fake patch kialis\.kiali\.io kiali -n preview-2 /m,
    );
    expect(run.stdout).toContain(
      '::error::Namespace teardown failed: 1 namespace(s) still present: preview-2',
    );
    expect(run.stdout).toContain('::group::Delete, wait and diagnose');
  });

  test('bad input fails the step with one clear line and makes no cluster call', async () => {
    cluster = new FakeCluster();
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: 'Preview_1', kubeconfig });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('::error::Input "namespaces": "Preview_1" is not a valid namespace name');
    expect(cluster.requests).toEqual([]);
    expect(run.outputs).toEqual({});
  });

  test('runs outside a workflow too (no GITHUB_* context): the summary simply has no context line', async () => {
    cluster = new FakeCluster();
    const { kubeconfig } = await cluster.start();
    const run = await runBundle(
      { namespaces: 'gone-already', kubeconfig, timeout: '5s' },
      {
        GITHUB_REPOSITORY: undefined,
        GITHUB_SHA: undefined,
        GITHUB_REF: undefined,
        GITHUB_RUN_ID: undefined,
      },
    );
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(run.summary).toContain('## ✅ Namespace teardown: 1 already gone of 1 namespace');
    expect(run.summary).not.toContain('acme/shop');
  });

  test('tokens from the kubeconfig are masked, never printed', async () => {
    cluster = new FakeCluster();
    const { kubeconfig, token } = await cluster.start();
    const run = await runBundle({ namespaces: 'gone-already', kubeconfig, timeout: '5s' });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`::add-mask::${token}`);
    expect(run.stdout.replace(`::add-mask::${token}`, '')).not.toContain(token);
    expect(run.stdout).not.toMatch(/::add-mask::apiVersion/);
  });
});
