import { TOKEN as BENCH_TOKEN, sweepOnce } from '../../bench/github-sweep.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FakeGitHub } from '../github/fake-github.js';
import { FAST } from '../helpers/harness.js';

const LABEL = 'preview.example.com/pr';
const daysAgo = (d: number): string => new Date(Date.now() - d * 86_400_000).toISOString();

async function sweep(gh: FakeGitHub, inputs: Record<string, string> = {}): Promise<RunReport> {
  const cluster = new FakeCluster({ controller: FAST });
  for (const pr of [1, 2])
    cluster.addNamespace(`pr-${pr}`, { labels: { [LABEL]: String(pr) }, createdAt: daysAgo(3) });
  return sweepOnce(
    cluster,
    gh,
    { sweep: 'on', timeout: '20s', ...inputs },
    { pollMs: 500, logger: new RecordingLogger() },
    (r) => r,
  );
}

describe('a sweep that could not read a pull request', () => {
  test('GitHub answers for other pull requests: both previews kept, and the check fails saying which pull requests', async () => {
    const gh = new FakeGitHub(BENCH_TOKEN);
    gh.misbehave.push({ match: /./, how: 'swapped' });
    for (const pr of [1, 2, 3]) gh.pulls.set(pr, { state: 'closed', closed_at: daysAgo(2) });
    const report = await sweep(gh, { timeout: '5s' });
    expect(report.sweep!.entries.map((e) => e.decision)).toEqual(['keep', 'keep']);
    expect(report.targets).toEqual([]);
    expect(report.failures).toEqual([
      '2 pull request(s) could not be read from GitHub, so their namespaces were kept: #1, #2',
    ]);
    expect(renderSummary(report)).toContain(
      '**The check fails:** 2 pull request&#40;s&#41; could not be read from GitHub',
    );
  });

  test('every pull request read: the check passes', async () => {
    const gh = new FakeGitHub(BENCH_TOKEN);
    gh.pulls.set(1, { state: 'open' });
    gh.pulls.set(2, { state: 'closed', closed_at: daysAgo(2), merged_at: daysAgo(2) });
    const report = await sweep(gh);
    expect(report.failures).toEqual([]);
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-2', 'gone']]);
  });

  test('fail-on: never: kept, and the check passes as asked', async () => {
    const gh = new FakeGitHub(BENCH_TOKEN);
    gh.misbehave.push({ match: /./, how: 'swapped' });
    for (const pr of [1, 2, 3]) gh.pulls.set(pr, { state: 'closed', closed_at: daysAgo(2) });
    const report = await sweep(gh, { timeout: '5s', 'fail-on': 'never' });
    expect(report.sweep!.entries.map((e) => e.decision)).toEqual(['keep', 'keep']);
    expect(report.failures).toEqual([]);
  });
});
