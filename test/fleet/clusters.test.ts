/**
 * The merge over reports of real runs: two fake API servers (one clean, one where a finalizer leaked), one that cannot
 * be reached, one cluster whose job never ran; each run through the real entry, its report written as an artifact.
 */
import { copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mergeFleet } from '../../src/fleet/merge.js';
import { readReports } from '../../src/fleet/read.js';
import type { FleetReport } from '../../src/model/fleet.js';
import type { RunReport } from '../../src/model/run.js';
import { planFleetAnnotations } from '../../src/report/fleet-annotations.js';
import { renderFleetSummary } from '../../src/report/fleet-markdown.js';
import { renderFleetText } from '../../src/report/fleet-text.js';
import type { FakeCluster } from '../fake-apiserver/index.js';
import { previewCluster, renamed, runCluster, writeArtifacts } from '../helpers/fleet.js';
import { assertWellFormed } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

const SELECTOR = 'preview.example.com/env=preview';
const EXPECTED = ['eu', 'us', 'ap', 'sa'];

describe('one answer from the reports of runs in several clusters', () => {
  const clusters: FakeCluster[] = [];
  let reports: RunReport[];
  let dir: string;

  beforeAll(async () => {
    const eu = previewCluster([101, 102]);
    const us = previewCluster([101, 103, 104], [101, 103]);
    const ap = previewCluster([101]);
    clusters.push(eu, us);
    const [a, b, c] = [await eu.start(), await us.start(), await ap.start()];
    await ap.stop(); // its port is closed now: unreachable
    // Long enough for the clean cluster's namespaces to go on a loaded machine; only the leaked ones wait it out.
    const inputs = { selector: SELECTOR, timeout: '10s' };
    reports = await Promise.all([
      runCluster(renamed(a.kubeconfig, 'kind-eu'), { ...inputs, 'cluster-name': 'eu' }),
      runCluster(renamed(b.kubeconfig, 'kind-us'), { ...inputs, 'cluster-name': 'us' }),
      runCluster(renamed(c.kubeconfig, 'kind-ap'), { ...inputs, 'cluster-name': 'ap' }),
    ]);
    dir = tempDir('nt-fleet-');
    writeArtifacts(dir, reports);
  }, 60_000);
  afterAll(() => Promise.all(clusters.map((c) => c.stop())));

  const merged = async (paths: string[]): Promise<FleetReport> =>
    mergeFleet({
      expected: EXPECTED,
      found: await readReports(paths),
      failOn: 'leaked',
      context: {
        repository: 'acme/shop',
        runUrl: 'https://github.com/acme/shop/actions/runs/7',
        serverUrl: 'https://github.com',
      },
      now: Date.now(),
    });

  test('each run names its cluster: the given name, its context, its server', () => {
    expect(reports.map((r) => [r.context.cluster?.name, r.context.cluster?.context, r.result])).toEqual([
      ['eu', 'kind-eu', 'clean'],
      ['us', 'kind-us', 'stuck'],
      ['ap', 'kind-ap', 'error'],
    ]);
    expect(reports[0]!.context.cluster?.server).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  test('clean, leaked, unreachable and never ran: every cluster in the answer, the worst result, the check fails', async () => {
    const fleet = await merged([dir]);
    expect(fleet.clusters.map((c) => [c.name, c.result])).toEqual([
      ['eu', 'clean'],
      ['us', 'stuck'],
      ['ap', 'error'],
      ['sa', 'unknown'],
    ]);
    expect(fleet.result).toBe('unknown');
    expect(fleet.failures).toEqual([
      'us: 2 namespace(s) still present: preview-pr-101, preview-pr-103',
      'us: finalizers leaked in: preview-pr-101, preview-pr-103',
      expect.stringMatching(/^ap: listing namespaces by selector .* cannot reach the Kubernetes API server/),
      expect.stringMatching(/^sa: unknown, no report \(its job failed/),
    ]);
    expect(fleet.problems).toEqual([]);
  });

  test('the summary: one row per cluster, the cause with the command for its context, one table per outcome', async () => {
    const fleet = await merged([dir]);
    const summary = renderFleetSummary(fleet);
    assertWellFormed(summary, fleet.context.runUrl);
    expect(summary).toMatch(
      /^## ❌ Namespace teardown on 4 clusters: 2 stuck, 3 gone of 5 namespaces · 1 unknown\n/,
    );
    expect(summary).toContain('| **sa** | ❔ unknown | — | no report &#40;its job failed');
    expect(summary).toContain(
      '**1. Same cause in 2 namespaces on us (2 objects):** preview-pr-101, preview-pr-103',
    );
    expect(summary).toContain(
      '# us\nfor ns in preview-pr-101 preview-pr-103; do\n  kubectl --context kind-us patch',
    );
    // The verdict comes with the evidence this run read for it, as in one run's summary.
    expect(summary).toMatch(/🔴 kiali\.io\/finalizer[^\n]*\n\n\*\*Evidence\*\* \(read in this run\): \S/);
    expect(summary).toContain('### ❌ stuck: 2 in 1 cluster');
    expect(summary).toContain('| us | preview-pr-101 |');
    expect(summary).toContain('<details><summary>✅ 3 namespaces gone</summary>');
    const text = renderFleetText(fleet, { width: 100, color: false });
    expect(text).toMatch(/^sa +unknown +— +no report \(its job failed/m);
  });

  test('annotations: the unknown and the failed cluster first, then the cause; within the budget', async () => {
    const { emit, overflow } = planFleetAnnotations(await merged([dir]));
    expect(emit.map((a) => [a.level, a.title])).toEqual([
      ['error', 'Cluster ap: the run failed'],
      ['error', 'Cluster sa: unknown'],
      ['error', '2 namespace(s) stuck in 1 cluster(s): us: preview-pr-101, preview-pr-103'],
    ]);
    expect(emit[2]!.message).toContain(
      'Fix on us: for ns in preview-pr-101 preview-pr-103; do kubectl --context kind-us',
    );
    expect(overflow).toBe(0);
  });

  test('the same leak in two clusters is one cause, with one script reaching both contexts', async () => {
    const other = tempDir('nt-fleet-');
    const second = structuredClone(reports[1]!);
    second.context.cluster = { ...second.context.cluster, name: 'eu', context: 'kind-eu' };
    writeArtifacts(other, [second, reports[1]!]);
    const fleet = await merged([other]);
    const summary = renderFleetSummary(fleet);
    expect(summary).toContain(
      '**1. Same cause in 2 clusters, 4 namespaces (4 objects):** eu: preview-pr-101, preview-pr-103 · us: preview-pr-101, preview-pr-103',
    );
    const script = /```sh\n([^`]+)```/.exec(summary)![1]!;
    expect(
      script.startsWith('# eu\nfor ns in preview-pr-101 preview-pr-103; do\n  kubectl --context kind-eu '),
    ).toBe(true);
    expect(script).toContain(
      '\n\n# us\nfor ns in preview-pr-101 preview-pr-103; do\n  kubectl --context kind-us ',
    );
  });

  test('download-artifact with merge-multiple (all reports in one directory) merges the same', async () => {
    const flat = tempDir('nt-fleet-flat-');
    for (const sub of readdirSync(dir))
      for (const file of readdirSync(join(dir, sub)))
        copyFileSync(join(dir, sub, file), join(flat, `${sub}-${file}`));
    const a = await merged([dir]);
    const b = await merged([flat]);
    expect(b.clusters.map((c) => [c.name, c.result])).toEqual(a.clusters.map((c) => [c.name, c.result]));
  });

  test('a corrupt, a wrong-version and a missing report are each named; their clusters are unknown', async () => {
    const bad = tempDir('nt-fleet-bad-');
    writeArtifacts(bad, [reports[0]!]);
    mkdirSync(join(bad, 'namespace-teardown-us'));
    writeFileSync(join(bad, 'namespace-teardown-us', 'r.json'), JSON.stringify(reports[1]).slice(0, 500));
    mkdirSync(join(bad, 'namespace-teardown-ap'));
    writeFileSync(
      join(bad, 'namespace-teardown-ap', 'r.json'),
      JSON.stringify({ ...reports[2], version: 2 }),
    );
    const fleet = await merged([bad, join(bad, 'not-downloaded')]);
    expect(fleet.clusters.map((c) => [c.name, c.result])).toEqual([
      ['eu', 'clean'],
      ['us', 'unknown'],
      ['ap', 'unknown'],
      ['sa', 'unknown'],
    ]);
    expect(fleet.clusters[2]!.why).toMatch(/namespace-teardown-ap\/r.json is unusable: report version 2/);
    expect(fleet.problems.map((p) => [p.source.slice(bad.length), p.problem.slice(0, 30)])).toEqual([
      ['/namespace-teardown-ap/r.json', 'report version 2; this merge r'],
      ['/namespace-teardown-us/r.json', 'not JSON (Unterminated string '],
      ['/not-downloaded', 'does not exist: no report was '],
    ]);
    const summary = renderFleetSummary(fleet);
    assertWellFormed(summary, fleet.context.runUrl);
    expect(summary).toContain('### ⚠️ Reports not used (3)');
    expect(fleet.failures.filter((f) => f.startsWith('report '))).toHaveLength(2);
  });
});
