import { execFile, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster, kialiStuck, PREVIEW_LABEL } from '../fake-apiserver/index.js';
import { FAST } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

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

  test('bad input exits 2 with one line naming the flag', async () => {
    const run = await cli(['--namespaces', 'kube-system', '--target-label', 'none']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /^namespace-teardown: --namespaces names protected namespace\(s\) "kube-system"/,
    );
  });

  test('every bad flag in one message, in the words of the command line, before any cluster call', async () => {
    const run = await cli([
      '--namespaces',
      'pr-1',
      '--timeout',
      '5',
      '--forse',
      'on',
      '-o',
      'yaml',
      '--sweep',
      'plan',
      '--sweep-pr-label',
      'pr',
      '--kubeconfig',
      '/nonexistent/config',
    ]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n')).toEqual([
      'namespace-teardown: 8 problems with the input:',
      '  - --forse is not a flag (did you mean --force?).',
      '  - "on" is not a flag: every input is given as --name VALUE.',
      '  - --sweep-repository is ""; expected owner/name, e.g. acme/shop.',
      '  - --timeout is "5", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.',
      '  - --namespaces and --sweep plan cannot be used together: the sweep chooses the targets (narrow it with --selector).',
      '  - GITHUB_TOKEN is empty; the sweep needs a token that can read pull requests.',
      '  - --output (-o) is "yaml"; allowed: text, markdown, json.',
      '  - --kubeconfig is "/nonexistent/config", which cannot be read: ENOENT.',
      'See namespace-teardown --help.',
      '',
    ]);
    expect(run.stderr).not.toMatch(/Input "/);
  });

  test('forces a stuck namespace within the policy, prints the summary, writes the report, exits 1 (fail-on leaked)', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const dir = tempDir('nt-cli-');
    writeFileSync(join(dir, 'config'), kubeconfig);
    const report = join(dir, 'report.json');
    const run = await cli([
      '--kubeconfig',
      join(dir, 'config'),
      '--namespaces',
      s.namespace,
      '--target-label',
      PREVIEW_LABEL.key,
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
      '-o',
      'markdown',
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

  test('Ctrl-C while waiting: the result so far, marked cancelled, nothing forced, exit 130', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    cluster.addNamespace('pr-2');
    cluster.addObject(
      { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' },
      { metadata: { namespace: 'pr-2', name: 'kiali', finalizers: ['kiali.io/finalizer'] } },
    );
    const { kubeconfig } = await cluster.start();
    const dir = tempDir('nt-cli-');
    writeFileSync(join(dir, 'config'), kubeconfig);
    const report = join(dir, 'report.json');
    const child = spawn(
      process.execPath,
      // Forcing is allowed, but only after 5 minutes: the signal comes long before.
      [
        'dist/cli/index.js',
        '--kubeconfig',
        join(dir, 'config'),
        '--namespaces',
        'pr-2',
        '--target-label',
        'none',
        '--timeout',
        '10m',
      ].concat([
        '--force',
        'on',
        '--force-after',
        '5m',
        '--force-finalizers',
        'kiali.io/*',
        '--report',
        report,
      ]),
      { env: { PATH: process.env.PATH } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Once the DELETE was sent and the namespace is watched, the run is waiting.
    const waiting = (): boolean =>
      cluster.requests.some((r) => r.method === 'DELETE') && cluster.openWatches > 0;
    while (!waiting()) await new Promise((r) => setTimeout(r, 50));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('warning: SIGINT received: stopping');
    // Plain text, also into a pipe, as kubectl prints it.
    expect(stdout.split('\n')[0]).toBe('✗ Namespace teardown (cancelled): 1 stuck of 1 namespace');
    const json = JSON.parse(readFileSync(report, 'utf8'));
    expect(json.cancelled).toBe(true);
    expect(json.targets[0]).toMatchObject({ name: 'pr-2', outcome: 'stuck' });
    // Nothing was forced: the finalizer is still there.
    expect(cluster.requests.some((r) => r.method === 'PATCH' || r.method === 'PUT')).toBe(false);
  });
});
