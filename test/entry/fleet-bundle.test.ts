/**
 * The fleet as a runner runs it: two matrix jobs (the action's bundle, each a child process with the GITHUB_*
 * environment a runner sets) tear down the same preview in two clusters; their reports are laid out as
 * actions/download-artifact lays them out; the merge action's bundle makes one answer of them. Then the command line:
 * `merge DIR…` and `--context a,b,c`. Needs `npm run build`.
 */
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FleetReport } from '../../src/model/fleet.js';
import { type FakeCluster, silentServer } from '../fake-apiserver/index.js';
import { FakeGitHub } from '../github/fake-github.js';
import { joinKubeconfigs, previewCluster, renamed } from '../helpers/fleet.js';
import { runBundle, runCli, type BundleRun } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'ghs_fleet-token-never-printed-7';
/** What a repository variable would hold: the matrix's list, passed to the merge as it is. */
const CLUSTERS = JSON.stringify([
  { name: 'eu', secret: 'KUBECONFIG_EU' },
  { name: 'us', secret: 'KUBECONFIG_US' },
  { name: 'ap', secret: 'KUBECONFIG_AP' },
]);

const cli = (args: string[]) => runCli(args);

const merge = (inputs: Record<string, string>, env: Record<string, string> = {}): Promise<BundleRun> =>
  runBundle(
    inputs,
    { GITHUB_JOB: 'merge', GITHUB_ACTION: 'merge', ...env },
    { entry: 'dist/merge/index.js' },
  );

describe('a matrix of teardowns, then the merge, as a runner runs them', () => {
  const clusters: FakeCluster[] = [];
  let kubeconfigs: { eu: string; us: string };
  let artifacts: string;
  let jobs: BundleRun[];

  beforeAll(async () => {
    const eu = previewCluster([42]);
    const us = previewCluster([42], [42]);
    clusters.push(eu, us);
    kubeconfigs = {
      eu: renamed((await eu.start()).kubeconfig, 'kind-eu'),
      us: renamed((await us.start()).kubeconfig, 'kind-us'),
    };
    // Job "ap" of the matrix never ran (its runner was never assigned): no report.
    jobs = await Promise.all(
      (['eu', 'us'] as const).map((name) =>
        runBundle(
          {
            namespaces: 'preview-pr-42',
            kubeconfig: kubeconfigs[name],
            'cluster-name': name,
            timeout: '10s', // the leaked one waits it out; the clean one goes as soon as it can
            'fail-on': 'never',
          },
          { GITHUB_JOB: 'teardown', GITHUB_WORKFLOW: 'preview-cleanup' },
        ),
      ),
    );
    artifacts = tempDir('nt-artifacts-');
    for (const [i, name] of ['eu', 'us'].entries()) {
      const dir = join(artifacts, `namespace-teardown-${name}`);
      mkdirSync(dir);
      copyFileSync(jobs[i]!.outputs.report!, join(dir, basename(jobs[i]!.outputs.report!)));
    }
  }, 120_000);
  afterAll(() => Promise.all(clusters.map((c) => c.stop())));

  test('each job passes on its own (fail-on: never) and leaves a report naming its cluster', () => {
    expect(jobs.map((j) => [j.code, j.outputs.result, j.report?.context.cluster?.name])).toEqual([
      [0, 'clean', 'eu'],
      [0, 'stuck', 'us'],
    ]);
    expect(jobs[1]!.summary).toContain('Cluster **us** <code>kind-us</code> at 127.0.0.1');
  });

  test('the merge: one summary, the worst result, per-cluster outputs, the never-run cluster unknown, the check failed', async () => {
    const run = await merge({ reports: artifacts, clusters: CLUSTERS, 'fail-on': 'leaked' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('unknown');
    expect(JSON.parse(run.outputs.clusters!)).toEqual({
      eu: { result: 'clean', stuck: [], forced: [] },
      us: { result: 'stuck', stuck: ['preview-pr-42'], forced: [] },
      ap: { result: 'unknown', stuck: [], forced: [] },
    });
    expect(run.summary).toMatch(
      /^## ❌ Namespace teardown on 3 clusters: 1 stuck, 1 gone of 2 namespaces · 1 unknown\n\n\*\*acme\/shop\*\* · ref refs\/pull\/42\/merge/,
    );
    expect(run.summary).toContain(
      '# us\nkubectl --context kind-us patch kialis.kiali.io kiali -n preview-pr-42',
    );
    expect(run.stdout).toContain('::error title=Cluster ap%3A unknown::no report (its job failed');
    expect(run.stdout).toMatch(
      /::error::Namespace teardown failed in the fleet: us: 1 namespace\(s\) still present/,
    );
    const fleet = JSON.parse(readFileSync(run.outputs.report!, 'utf8')) as FleetReport;
    expect(fleet.kind).toBe('fleet');
    expect(fleet.clusters.map((c) => [c.name, c.report?.targets.length])).toEqual([
      ['eu', 1],
      ['us', 1],
      ['ap', undefined],
    ]);
  });

  test('fail-on: never and the same reports laid out by merge-multiple: the same answer, the check passes', async () => {
    const flat = tempDir('nt-flat-');
    for (const job of jobs) copyFileSync(job.outputs.report!, join(flat, basename(job.outputs.report!)));
    const run = await merge({ reports: flat, clusters: 'eu\nus', 'fail-on': 'never' });
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('stuck');
  });

  test('a corrupt report is named in the summary and fails the check; the step never crashes on it', async () => {
    const bad = tempDir('nt-bad-');
    writeFileSync(join(bad, 'eu.json'), readFileSync(jobs[0]!.outputs.report!, 'utf8').slice(0, 200));
    const run = await merge({ reports: bad, clusters: 'eu' });
    expect(run.code).toBe(1);
    expect(run.summary).toContain('### ⚠️ Reports not used (1)');
    expect(run.stdout).toContain('report ');
    expect(run.outputs.result).toBe('unknown');
  });

  test('bad input: no clusters list, exit 1 with one line naming the input, nothing read', async () => {
    const run = await merge({ reports: artifacts });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^::error::Input "clusters" is empty/m);
    expect(run.outputs).toEqual({});
  });

  test('pr-comment: the one comment, created by the first merge and edited by the next; the token never printed', async () => {
    const gh = new FakeGitHub(TOKEN);
    const api = await gh.start();
    try {
      const dir = tempDir('nt-event-');
      const event = join(dir, 'event.json');
      writeFileSync(
        event,
        JSON.stringify({ action: 'closed', pull_request: { number: 42, title: 'Add cart' } }),
      );
      const env = { GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'pull_request' };
      const inputs = { reports: artifacts, clusters: CLUSTERS, 'pr-comment': 'true', 'github-token': TOKEN };
      const runs = [await merge(inputs, env), await merge(inputs, env)];
      for (const run of runs) expect(run.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
      expect(gh.comments).toHaveLength(1);
      expect(gh.comments[0]!.body).toMatch(
        /^<!-- namespace-teardown:pr-comment -->\n## ❌ Namespace teardown on 3 clusters: 1 stuck, 1 gone of 2 namespaces · 1 unknown/,
      );
      expect(gh.requests.map((r) => `${r.method} ${r.path}`).filter((r) => /comments/.test(r))).toEqual([
        'GET /api/v3/repos/acme/shop/issues/42/comments',
        'POST /api/v3/repos/acme/shop/issues/42/comments',
        'GET /api/v3/repos/acme/shop/issues/42/comments',
        'PATCH /api/v3/repos/acme/shop/issues/comments/1',
      ]);
    } finally {
      await gh.stop();
    }
  });

  test('the command line: merge DIR prints the same answer as text, markdown and JSON', async () => {
    const text = await cli(['merge', artifacts, '--clusters', 'eu,us,ap', '--output', 'text']);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^✗ Namespace teardown on 3 clusters: 1 stuck, 1 gone of 2 namespaces · 1 unknown$/m,
    );
    expect(text.stdout).toMatch(/^ap +unknown +— +no report/m);
    const markdown = await cli(['merge', artifacts, '--clusters', 'eu,us,ap', '-o', 'markdown']);
    expect(markdown.stdout).toContain('| **us** | ❌ stuck | 1 stuck of 1 namespace |');
    const json = await cli(['merge', artifacts, '-o', 'json']);
    expect(json.code).toBe(1);
    const fleet = JSON.parse(json.stdout) as FleetReport;
    expect(fleet.clusters.map((c) => [c.name, c.result])).toEqual([
      ['eu', 'clean'],
      ['us', 'stuck'],
    ]);
    const missing = await cli(['merge', join(artifacts, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^namespace-teardown: merge: ".*nope" does not exist\.$/m);
  });

  test('--context a,b,c: every cluster from one process; one that never answers is bounded and does not hold back the others', async () => {
    const silent = await silentServer();
    try {
      const config = joinKubeconfigs([
        { name: 'kind-eu', kubeconfig: kubeconfigs.eu },
        { name: 'kind-us', kubeconfig: kubeconfigs.us },
        { name: 'kind-hang', kubeconfig: silent.kubeconfig },
      ]);
      const dir = tempDir('nt-contexts-');
      writeFileSync(join(dir, 'config'), config);
      const report = join(dir, 'fleet.json');
      const args = [
        '--kubeconfig',
        join(dir, 'config'),
        '-n',
        'preview-pr-42',
        '--target-label',
        'preview.example.com/pr',
        '--timeout',
        '2s',
      ];
      const run = await cli([
        ...args,
        '--context',
        'kind-eu,kind-us,kind-hang',
        '--output',
        'json',
        '--report',
        report,
      ]);
      expect([run.code, run.stderr.split('\n').filter((l) => /^namespace-teardown:/.test(l))]).toEqual([
        1,
        [],
      ]);
      const fleet = JSON.parse(run.stdout) as FleetReport;
      expect(fleet.clusters.map((c) => [c.name, c.result])).toEqual([
        ['kind-eu', 'clean'],
        ['kind-us', 'stuck'],
        ['kind-hang', 'error'],
      ]);
      expect(fleet.clusters[1]!.report!.targets[0]!.findings[0]!.id).toBe('finalizer-owner-gone');
      expect(JSON.parse(readFileSync(report, 'utf8'))).toEqual(fleet);
      expect(silent.connections()).toBeGreaterThan(0);
      const bad = await cli([...args, '--context', 'kind-eu,nowhere']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('nowhere');
    } finally {
      await silent.stop();
    }
  });
});
