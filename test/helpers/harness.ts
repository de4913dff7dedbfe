/** Integration-test wiring: the real adapter over real HTTPS against the fake API server. */
import { KubeConfig } from '@kubernetes/client-node';
import { execFile, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createKube, type KubeClient, type KubeClientOptions } from '../../src/kube/client.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { clusterIdentity } from '../../src/kube/config.js';
import type { RunReport } from '../../src/model/run.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { runTeardown } from '../../src/teardown/run-teardown.js';
import { resolveTargets } from '../../src/targets/resolve.js';
import { readSettings } from '../../src/settings/settings.js';
import { UNFENCED } from './inputs.js';
import type { FakeCluster } from '../fake-apiserver/index.js';
import { renderSummary } from '../../src/report/markdown.js';
import { JumpClock } from './clock.js';
import { gfmProblems } from './gfm.js';
import { SeenVersions } from './seen.js';
import { tempDir } from './temp.js';

/**
 * Every summary a test produces is read as GitHub reads it: a table row with the wrong cell count, a paragraph
 * swallowed by a table, an unclosed fence or a link from cluster text fails the test that made it.
 */
export function assertWellFormed(summary: string, runUrl?: string): void {
  // Links the action builds itself from the workflow context: the run, and pull requests the sweep asked about.
  const pulls = /^https:\/\/[^/]+\/[^/]+\/[^/]+\/pull\/\d+$/;
  const problems = gfmProblems(summary, runUrl ? [runUrl, pulls] : [pulls]);
  if (problems.length) throw new Error(`the summary is malformed:\n${problems.join('\n')}\n---\n${summary}`);
}

/** Timings that make the fake controller fast enough for tests. */
export const FAST = { queueDelayMs: 20, finalizerRecheckMs: 60, errorBackoffMaxMs: 200 };

export interface Started {
  kubeconfig: string;
  stop: () => Promise<void>;
}

/** Start the cluster; the caller stops it. */
export async function start(cluster: FakeCluster): Promise<Started> {
  const { kubeconfig } = await cluster.start();
  return { kubeconfig, stop: () => cluster.stop() };
}

/** An adapter on the started fake cluster, with the adapter's defaults. */
export async function connectKube(cluster: FakeCluster): Promise<KubeClient> {
  const { kubeconfig } = await cluster.start();
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  return createKube(kc);
}

/** Delete the namespace and poll (every 50 ms, `tries` times) until `ready` holds for it. */
export async function terminating(
  kube: KubeClient,
  name: string,
  ready: (ns: NamespaceState) => boolean,
  tries = 100,
): Promise<NamespaceState> {
  await kube.deleteNamespace(name);
  for (let i = 0; i < tries; i++) {
    const ns = await kube.getNamespace(name);
    if (ns && ready(ns)) return ns;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${name} never reached the expected state`);
}

/**
 * Run the engine in-process with the given inputs (kubeconfig content from the cluster). With `settle`, the run's
 * clock stands still and jumps to the timeout once the fake cluster has settled (its namespace controller has been
 * through each target: `FakeCluster.settled`) and the run has read each target as it now is: what a stuck namespace
 * shows at the timeout never depends on how fast a busy machine got there. With `settle.holdAtMs` the clock moves only
 * that far then and stands still there: what the run does at that time happens, and its timeout never comes.
 */
export async function runEngine(
  kubeconfig: string,
  inputs: Record<string, string>,
  opts: {
    pollMs?: number;
    kube?: KubeClientOptions;
    settle?: { cluster: FakeCluster; names?: readonly string[]; holdAtMs?: number };
  } = {},
): Promise<{ report: RunReport; log: string[] }> {
  const given: Record<string, string> = { ...UNFENCED, ...inputs };
  const settings = readSettings((name) => given[name] ?? '');
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const logger = new RecordingLogger();
  const clock = opts.settle ? new JumpClock() : systemClock;
  const seen = new SeenVersions();
  // Plan mode needs the adapter that sends every write as a dry run, as the entry points build it.
  const kube = seen.wrap(createKube(kc, { ...(settings.dryRun ? { dryRun: true } : {}), ...opts.kube }));
  if (opts.settle) {
    const { cluster, names = settings.namespaces, holdAtMs } = opts.settle;
    void cluster
      .settled(names)
      .then(() => seen.caughtUp(cluster, names))
      .then(() =>
        (clock as JumpClock).jump(holdAtMs ?? settings.timeoutMs, { hold: holdAtMs !== undefined }),
      );
  }
  // The targets' reads count in the timeout, as the engine counts them.
  const started = clock.now();
  const report = await runTeardown(
    settings,
    {
      kube,
      logger,
      clock,
      pollMs: opts.pollMs ?? 2_000,
      progressMs: 500,
      onProgress: seen.onProgress,
    },
    { repository: 'acme/shop', cluster: clusterIdentity(kc) },
    await resolveTargets(settings, kube),
    started,
  );
  assertWellFormed(renderSummary(report));
  return { report, log: logger.lines };
}

/** What a run of the bundle left behind, read the way the runner reads it. */
export interface BundleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  summary: string;
  summaryPath: string;
  outputs: Record<string, string>;
  report?: RunReport;
  /** Wall time from start to exit. */
  ms: number;
}

/**
 * How long a run took by its own clock (its report's startedAt to finishedAt): the process's start-up and the
 * publishing after it are only the machine's speed, never the deadline's.
 */
export function runMs(run: BundleRun): number {
  return Date.parse(run.report?.finishedAt ?? '') - Date.parse(run.report?.startedAt ?? '');
}

/** Parse a GITHUB_OUTPUT file (`name<<delimiter` blocks). */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^<]+)<<(.+)$/.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]!);
    out[m[1]!] = value.join('\n');
  }
  return out;
}

/**
 * Run `node dist/index.js` (or another action's bundle, `entry`) as the runner does: INPUT_* variables,
 * GITHUB_STEP_SUMMARY, GITHUB_OUTPUT.
 */
export function runBundle(
  inputs: Record<string, string>,
  extraEnv: Record<string, string | undefined> = {},
  opts: { timeoutMs?: number; onStart?: (child: ChildProcess) => void; entry?: string } = {},
): Promise<BundleRun> {
  const dir = tempDir('nt-bundle-');
  const summaryFile = join(dir, 'summary.md');
  const outputFile = join(dir, 'output.txt');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  const env: Record<string, string | undefined> = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    RUNNER_TEMP: dir,
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/pull/42/merge',
    GITHUB_RUN_ID: '7',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_ACTION: 'teardown',
    // Where the OS temp dir is for this test run, so a report written there is the run's to remove.
    ...(process.env.TMPDIR ? { TMPDIR: process.env.TMPDIR } : {}),
    ...extraEnv,
  };
  for (const [name, value] of Object.entries({ ...UNFENCED, ...inputs }))
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const started = Date.now();
  return new Promise<BundleRun>((resolve) => {
    const child = execFile(
      process.execPath,
      [opts.entry ?? 'dist/index.js'],
      // A run may log much (10,000 lines and more): its whole output is read, never cut.
      { env, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 256 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const ms = Date.now() - started;
        const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
        const reportPath = outputs.report;
        resolve({
          code: error ? ((error as { code?: number }).code ?? 1) : 0,
          stdout,
          stderr,
          summary: readFileSync(summaryFile, 'utf8'),
          summaryPath: summaryFile,
          outputs,
          ms,
          report:
            reportPath && existsSync(reportPath)
              ? (JSON.parse(readFileSync(reportPath, 'utf8')) as RunReport)
              : undefined,
        });
      },
    );
    opts.onStart?.(child);
  }).then((run) => {
    const runUrl = `${env.GITHUB_SERVER_URL}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}`;
    assertWellFormed(run.summary, runUrl);
    return run;
  });
}

/** Run `node dist/cli/index.js` with `args` and only PATH (and `env`) in its environment. */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/cli/index.js', ...args],
      { timeout: 60_000, env: { PATH: process.env.PATH, ...env } },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}
