import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kialiStuck, type FakeCluster } from '../fake/index.js';
import { FAST } from '../helpers/harness.js';

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/index.js', ...args],
      { timeout: 60_000, env: { PATH: process.env.PATH } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('the command line runs the same engine', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster?.stop());

  test('--help exits 0 and lists the flags', async () => {
    const run = await cli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--force-finalizers GLOB');
  });

  test('bad input exits 2 with one line naming the input', async () => {
    const run = await cli(['--namespaces', 'kube-system']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^namespace-teardown: Input "namespaces" names protected namespace\(s\) "kube-system"/,
    );
  });

  test('forces a stuck namespace within the policy, prints the summary, writes the report, exits 1 (fail-on leaked)', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const dir = mkdtempSync(join(tmpdir(), 'nt-cli-'));
    writeFileSync(join(dir, 'config'), kubeconfig);
    const report = join(dir, 'report.json');
    const run = await cli([
      '--kubeconfig',
      join(dir, 'config'),
      '--namespaces',
      s.namespace,
      '--timeout',
      '10s',
      '--force',
      'on',
      '--force-after',
      '1s',
      '--force-finalizers',
      'kiali.io/*',
      '--report',
      report,
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('## ❌ Namespace teardown: 1 forced of 1 namespace');
    expect(run.stdout).toContain('#### istio-system — ⚠️ forced, then gone');
    expect(run.stdout).toContain(
      '**kialis.kiali.io/kiali** <code>metadata.finalizers</code> — ✅ removed · allowed by <code>force-finalizers&#58; kiali.io/&#42;</code>',
    );
    expect(run.stdout).toContain('```diff\n- kiali.io/finalizer\n```');
    expect(JSON.parse(readFileSync(report, 'utf8')).targets[0].outcome).toBe('forced');
    expect(cluster.namespace(s.namespace)).toBeUndefined();
  });
});
