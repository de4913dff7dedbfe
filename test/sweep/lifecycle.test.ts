import { EXPIRES_ANNOTATION, TTL_ANNOTATION } from '../../src/model/lifecycle.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { sweepOnce, TOKEN as BENCH_TOKEN } from '../../bench/github-sweep.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST } from '../helpers/harness.js';
import { FakeGitHub } from '../github/fake-github.js';

const LABEL = 'preview.example.com/pr';
const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();

/** Run the real engine's sweep against the fake cluster and the GitHub stand-in, as the bench does. */
function sweep(
  cluster: FakeCluster,
  gh: FakeGitHub,
  inputs: Record<string, string>,
): Promise<{ report: RunReport; log: string[] }> {
  const logger = new RecordingLogger();
  return sweepOnce(cluster, gh, { timeout: '20s', ...inputs }, { pollMs: 500, logger }, (report) => ({
    report,
    log: logger.lines,
  }));
}

const decisionOf = (r: RunReport, ns: string): string | undefined =>
  r.sweep!.entries.find((e) => e.namespace === ns)?.decision;

describe('the sweep with the keep label and max age', () => {
  test('1,000 pull requests: labels come in the same GraphQL queries (10 requests), keep-labelled previews stay', async () => {
    const cluster = new FakeCluster();
    const gh = new FakeGitHub(BENCH_TOKEN);
    for (let pr = 1; pr <= 1000; pr++) {
      cluster.addNamespace(`pr-${pr}`, { labels: { [LABEL]: String(pr) }, createdAt: hoursAgo(72) });
      gh.pulls.set(pr, {
        state: 'closed',
        closed_at: hoursAgo(48),
        labels: pr % 7 === 0 ? ['bug', 'keep-preview'] : ['bug'],
      });
    }
    const { report } = await sweep(cluster, gh, { sweep: 'plan' });
    const asked = gh.requests.filter((r) => r.path === '/api/graphql');
    expect(gh.requests.length).toBe(10);
    expect(asked.length).toBe(10);
    expect(report.sweep!.githubRequests).toBeLessThanOrEqual(15);
    const kept = report.sweep!.entries.filter((e) => e.decision === 'keep');
    expect(kept.length).toBe(142);
    expect(kept.every((e) => e.keptBy === 'keep-preview' && e.pr! % 7 === 0)).toBe(true);
    expect(decisionOf(report, 'pr-8')).toBe('go');
    const summary = renderSummary(report);
    expect(summary).toContain('| pr-7 | 📌 kept |');
    expect(summary).toContain('kept by label <code>keep-preview</code> on #7 |');
    expect(summary).toContain('858 would go, 142 kept, 142 kept by label');
  });

  test('sweep on with max-age: an expired open PR goes, one with the keep label or a bad annotation stays', async () => {
    const cluster = new FakeCluster({ controller: FAST });
    const gh = new FakeGitHub(BENCH_TOKEN);
    const ns = (name: string, pr: number, hours: number, annotations?: Record<string, string>): void => {
      cluster.addNamespace(name, {
        labels: { [LABEL]: String(pr) },
        createdAt: hoursAgo(hours),
        annotations,
      });
    };
    ns('pr-1-old', 1, 24 * 9);
    ns('pr-2-kept', 2, 24 * 9);
    ns('pr-3-young', 3, 24);
    ns('pr-4-ttl', 4, 96, { [TTL_ANNOTATION]: '48h' });
    ns('pr-5-bad', 5, 24 * 30, { [TTL_ANNOTATION]: 'forever' });
    ns('pr-6-expires', 6, 24, { [EXPIRES_ANNOTATION]: '2025-01-01T00:00:00Z' });
    for (const pr of [1, 3, 4, 5, 6]) gh.pulls.set(pr, { state: 'open', labels: ['preview'] });
    gh.pulls.set(2, { state: 'open', labels: ['keep-preview'] });
    const { report, log } = await sweep(cluster, gh, { sweep: 'on', 'max-age': '7d' });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1-old', 'gone'],
      ['pr-4-ttl', 'gone'],
      ['pr-6-expires', 'gone'],
    ]);
    for (const n of ['pr-2-kept', 'pr-3-young', 'pr-5-bad']) expect(cluster.namespace(n)).toBeDefined();
    const reason = (n: string): string | undefined =>
      report.sweep!.entries.find((e) => e.namespace === n)?.reason;
    expect(reason('pr-1-old')).toBe('PR #1 is open; expired 2 days ago (max-age 7 days)');
    expect(reason('pr-4-ttl')).toBe('PR #4 is open; expired 2 days ago (ttl 48h)');
    expect(reason('pr-2-kept')).toBe('kept by label keep-preview on #2');
    expect(log).toContainEqual(
      expect.stringMatching(/^warning: pr-5-bad: kept — annotation .*ttl is "forever"/),
    );
    const summary = renderSummary(report);
    expect(summary).toContain(
      '3 chosen to go (3 expired), 3 kept, 1 kept by label, 1 with an expiry annotation',
    );
    expect(summary).toContain('max-age 7 days · keep label <code>keep-preview</code>');
    expect(summary).toContain('| pr-5-bad | ⚠️ kept (expiry unreadable) |');
  });
});
