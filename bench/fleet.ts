/**
 * Section 10 (fleet): the merge action's bundle, `node dist/merge/index.js`, started as a runner starts it, merging the
 * reports of 50 clusters × 200 namespaces (10,000 targets). Each report is a real run's (the engine against the fake
 * API server: 200 previews, 10 held by a leaked finalizer), written once per cluster under its own name, laid out as
 * actions/download-artifact lays out one artifact per cluster. Wall time, peak RSS, summary bytes.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunReport } from '../src/model/run.js';
import { reportJson } from '../src/report/json.js';
import { parseOutputFile } from '../test/helpers/harness.js';
import { previewCluster, runCluster } from '../test/helpers/fleet.js';
import type { Options } from './args.js';
import { runnerFiles, timeChild } from './startup.js';
import { median, type Target } from './stats.js';

export interface FleetSample {
  wallMs: number;
  peakRssBytes?: number;
  summaryBytes: number;
  /** What the summary's closing line says it cut, when it cut. */
  cut?: string;
  result?: string;
  exitCode: number | null;
}

export interface FleetResult {
  clusters: number;
  perCluster: number;
  stuckPerCluster: number;
  /** Bytes of all the cluster reports read. */
  inputBytes: number;
  samples: FleetSample[];
  skipped?: string;
}

const MiB = 1024 * 1024;
const TIME_GOAL_MS = 5_000;
const RSS_GOAL = 250 * MiB;
const SUMMARY_GOAL = 100_000;

/** One real run's report: `n` preview namespaces, `stuck` of them held by a leaked finalizer. */
async function realReport(n: number, stuck: number, timeout: string): Promise<RunReport> {
  const prs = Array.from({ length: n }, (_, i) => 1000 + i);
  const cluster = previewCluster(prs, prs.slice(0, stuck));
  try {
    const { kubeconfig } = await cluster.start();
    return await runCluster(kubeconfig, { selector: 'preview.example.com/env=preview', timeout });
  } finally {
    await cluster.stop();
  }
}

/** The report written once per cluster, each under its own name and context, one directory per artifact. */
function writeCopies(report: RunReport, clusters: number, dir: string): number {
  let bytes = 0;
  for (let i = 1; i <= clusters; i++) {
    const name = `cluster-${String(i).padStart(2, '0')}`;
    const copy = {
      ...report,
      context: {
        ...report.context,
        cluster: { name, context: `kind-${name}`, server: `${name}.example.com:6443` },
      },
    };
    const artifact = join(dir, `namespace-teardown-${name}`);
    mkdirSync(artifact);
    const text = [...reportJson(copy)].join('');
    writeFileSync(join(artifact, 'namespace-teardown-teardown-20261122T100000Z-0a1b2c.json'), text);
    bytes += Buffer.byteLength(text);
  }
  return bytes;
}

async function mergeOnce(root: string, dir: string, clusters: number): Promise<FleetSample> {
  const home = mkdtempSync(join(tmpdir(), 'nt-bench-merge-'));
  try {
    const { files, env: runner } = runnerFiles(home);
    const names = Array.from({ length: clusters }, (_, i) => `cluster-${String(i + 1).padStart(2, '0')}`);
    const env: NodeJS.ProcessEnv = {
      ...runner,
      GITHUB_ACTION: 'merge',
      GITHUB_REPOSITORY: 'bench/namespace-teardown',
      INPUT_REPORTS: dir,
      INPUT_CLUSTERS: JSON.stringify(names.map((name) => ({ name, secret: `KUBECONFIG_${name}` }))),
      'INPUT_FAIL-ON': 'leaked',
      'INPUT_PR-COMMENT': 'false',
    };
    const probe = join(root, 'bench', 'rss-probe.mjs');
    const child = await timeChild(['--import', probe, join(root, 'dist', 'merge', 'index.js')], env, false);
    const summary = readFileSync(files.summary, 'utf8');
    const outputs = parseOutputFile(readFileSync(files.output, 'utf8'));
    return {
      wallMs: child.ms,
      peakRssBytes: existsSync(files.rss) ? Number(readFileSync(files.rss, 'utf8')) * 1024 : undefined,
      summaryBytes: Buffer.byteLength(summary),
      cut: /Cut to keep the summary short \([^)]*\):\*\* ([^.]*)\./.exec(summary)?.[1],
      result: outputs.result,
      exitCode: child.code,
    };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** Merge `opts.runs` times against the bundle in dist/merge (never builds it). */
export async function runFleet(
  opts: Options,
  root: string,
  log: (line: string) => void,
): Promise<FleetResult> {
  const [clusters, perCluster, stuckPerCluster] = opts.smoke
    ? [3, 10, 1]
    : opts.quick
      ? [5, 20, 2]
      : [50, 200, 10];
  const result: FleetResult = { clusters, perCluster, stuckPerCluster, inputBytes: 0, samples: [] };
  if (!existsSync(join(root, 'dist', 'merge', 'index.js'))) {
    result.skipped = 'dist/merge/index.js is missing (run npm run build)';
    log(`fleet: ${result.skipped}`);
    return result;
  }
  // The stuck ones are waited for until the timeout: short for a smoke run.
  const report = await realReport(perCluster, stuckPerCluster, opts.quick ? '3s' : '10s');
  const dir = mkdtempSync(join(tmpdir(), 'nt-bench-fleet-'));
  try {
    result.inputBytes = writeCopies(report, clusters, dir);
    for (let run = 0; run < opts.runs; run++) {
      const s = await mergeOnce(root, dir, clusters);
      result.samples.push(s);
      log(
        `fleet: ${clusters} × ${perCluster}: ${Math.round(s.wallMs)} ms, peak RSS ${s.peakRssBytes === undefined ? 'n/a' : `${Math.round(s.peakRssBytes / MiB)} MiB`}, summary ${s.summaryBytes} B, result ${s.result}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return result;
}

const worstRss = (r: FleetResult): number | undefined => {
  const all = r.samples.map((s) => s.peakRssBytes);
  return all.some((x) => x === undefined) ? undefined : Math.max(...(all as number[]));
};

/** The targets: wall time and peak RSS of the merge, and the summary's size with what it cut named. */
export function fleetTargets(r: FleetResult): Target[] {
  if (r.skipped || r.samples.length === 0) return [];
  const label = `Fleet: merging ${r.clusters} clusters × ${r.perCluster} namespaces (${(r.clusters * r.perCluster).toLocaleString('en-US')} targets)`;
  const wall = median(r.samples.map((s) => s.wallMs));
  const rss = worstRss(r);
  const summary = Math.max(...r.samples.map((s) => s.summaryBytes));
  const cut = r.samples[0]!.cut;
  return [
    {
      id: `fleet-merge-${r.clusters}x${r.perCluster}`,
      name: `${label}: wall time and peak RSS of the merge step`,
      goal: '≤ 5 s and ≤ 250 MiB',
      pass: rss === undefined ? undefined : wall <= TIME_GOAL_MS && rss <= RSS_GOAL,
      measured: `${(wall / 1000).toFixed(2)} s (median of ${r.samples.length}); ${rss === undefined ? 'RSS not measured' : `${(rss / MiB).toFixed(0)} MiB`}`,
    },
    {
      id: `fleet-summary-${r.clusters}x${r.perCluster}`,
      name: `${label}: job summary, with what was cut named`,
      goal: '≤ 100 KB',
      pass: summary <= SUMMARY_GOAL && (cut !== undefined || summary < SUMMARY_GOAL / 2),
      measured: `${(summary / 1000).toFixed(1)} KB${cut ? `; cut, and said: ${cut}` : ''}`,
    },
  ];
}

/** Section 10 of BENCHMARKS.md. */
export function renderFleet(r: FleetResult): string {
  const head = `## 10. Fleet: many clusters merged into one answer

**Setup.** \`node dist/merge/index.js\` started as a runner starts it (inputs in the environment), merging ${r.clusters}
cluster reports of ${r.perCluster} namespaces each (${(r.clusters * r.perCluster).toLocaleString('en-US')} targets, ${r.stuckPerCluster} per cluster held by a leaked
finalizer: one real run's report against the fake API server, written once per cluster under its own name), one
directory per artifact as \`actions/download-artifact\` lays them out. Peak RSS is the merge process's own
(VmHWM from \`/proc/self/status\` at exit: the child's \`maxRSS\` carries its parent's RSS from before exec).`;
  if (r.skipped) return `${head}\n\nNot measured: ${r.skipped}.`;
  const rows = r.samples.map(
    (s) =>
      `| ${(s.wallMs / 1000).toFixed(2)} s | ${s.peakRssBytes === undefined ? '—' : `${(s.peakRssBytes / MiB).toFixed(0)} MiB`} | ${(r.inputBytes / MiB).toFixed(1)} MiB | ${(s.summaryBytes / 1000).toFixed(1)} KB${s.cut ? ` (cut: ${s.cut})` : ''} | ${s.result ?? '—'} (exit ${s.exitCode}) |`,
  );
  return [
    head,
    '',
    '| Wall time | Peak RSS | Reports read | Job summary | Result |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
