/**
 * Section 9 (scale): thousands of targets in one run of the bundle, `node dist/index.js`, started as a runner starts
 * it, against the fake API server in the bench's worker thread (so the server's memory is not the action's). Peak RSS
 * of the action's process, wall time against the run's deadline, job summary and report bytes, requests and the most
 * the server had open at once.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Options } from './args.js';
import { scaleName, type InFlight, type ScaleSpec } from './protocol.js';
import type { RemoteCluster } from './remote.js';
import { runnerFiles, timeChild } from './startup.js';
import type { Target } from './stats.js';
import { parseOutputFile } from '../test/helpers/harness.js';

/** Real namespace-controller timing (5 s before the first pass): every target is watched for a while. */
const CONTROLLER: ScaleSpec['controller'] = {
  queueDelayMs: 5_000,
  finalizerRecheckMs: 8_000,
  errorBackoffMaxMs: 60_000,
};

/** One case of the scale scenario. */
export interface ScaleCase {
  label: string;
  names: number;
  existing: number;
  stuck: number;
  timeout: string;
}

export interface ScaleSample {
  case: ScaleCase;
  /** Undefined when the probe wrote nothing (the process was killed). */
  peakRssBytes?: number;
  wallMs: number;
  /** The run's one deadline (timeout + its grace) from the process start. */
  deadlineMs: number;
  exitCode: number | null;
  result?: string;
  summaryBytes: number;
  reportBytes: number;
  /** Whether the summary says what it cut. */
  summaryCutSaid: boolean;
  outcomes: [string, number][];
  requests: number;
  inFlight: InFlight;
}

export interface ScaleResult {
  latencyMs: number;
  samples: ScaleSample[];
  skipped?: string;
}

/** The cases: every target present, and a few of many present; --quick runs one small case (a smoke test). */
export function scaleCases(quick: boolean, smoke = false): ScaleCase[] {
  if (smoke) return [{ label: '20 targets, all present', names: 20, existing: 20, stuck: 1, timeout: '3s' }];
  if (quick)
    return [{ label: '200 targets, all present', names: 200, existing: 200, stuck: 1, timeout: '8s' }];
  return [
    { label: '5,000 targets, all present', names: 5_000, existing: 5_000, stuck: 10, timeout: '45s' },
    { label: '5,000 names, 300 present', names: 5_000, existing: 300, stuck: 0, timeout: '45s' },
  ];
}

/** `timeout` plus a quarter of it, 5 s to 30 s: the run's one deadline (src/teardown/run-teardown.ts). */
function deadlineOf(timeout: string): number {
  const ms = Number(timeout.replace(/s$/, '')) * 1000;
  return ms + Math.min(30_000, Math.max(5_000, ms / 4));
}

async function one(
  remote: RemoteCluster,
  root: string,
  c: ScaleCase,
  latencyMs: number,
): Promise<ScaleSample> {
  const started = await remote.start({
    spec: { kind: 'scale', names: c.names, existing: c.existing, stuck: c.stuck, controller: CONTROLLER },
    latencyMs,
  });
  const dir = mkdtempSync(join(tmpdir(), 'nt-bench-scale-'));
  try {
    const { files, env: runner } = runnerFiles(dir);
    const names = Array.from({ length: c.names }, (_, i) => scaleName(i));
    const env: NodeJS.ProcessEnv = {
      ...runner,
      GITHUB_ACTION: 'teardown',
      GITHUB_REPOSITORY: 'bench/namespace-teardown',
      INPUT_NAMESPACES: names.join('\n'),
      INPUT_KUBECONFIG: started.kubeconfig,
      INPUT_TIMEOUT: c.timeout,
      'INPUT_FAIL-ON': 'stuck',
      // The benchmark's namespaces carry no preview label: the fence is off, as its own tests prove it.
      'INPUT_TARGET-LABEL': 'none',
    };
    const from = await remote.mark();
    const probe = join(root, 'bench', 'rss-probe.mjs');
    const child = await timeChild(['--import', probe, join(root, 'dist', 'index.js')], env, false);
    const log = await remote.requests(from);
    const inFlight = await remote.inFlight();
    const outputs = parseOutputFile(readFileSync(files.output, 'utf8'));
    const summary = readFileSync(files.summary, 'utf8');
    const reportPath = outputs.report;
    const report =
      reportPath && existsSync(reportPath)
        ? (JSON.parse(readFileSync(reportPath, 'utf8')) as { targets: { outcome: string }[] })
        : undefined;
    const outcomes = new Map<string, number>();
    for (const t of report?.targets ?? []) outcomes.set(t.outcome, (outcomes.get(t.outcome) ?? 0) + 1);
    const rss = existsSync(files.rss) ? Number(readFileSync(files.rss, 'utf8')) * 1024 : undefined;
    return {
      case: c,
      peakRssBytes: rss,
      wallMs: child.ms,
      deadlineMs: deadlineOf(c.timeout),
      exitCode: child.code,
      result: outputs.result,
      summaryBytes: Buffer.byteLength(summary),
      reportBytes: reportPath && existsSync(reportPath) ? statSync(reportPath).size : 0,
      summaryCutSaid: /Everything is in the JSON report/.test(summary),
      outcomes: [...outcomes].sort((a, b) => b[1] - a[1]),
      requests: log.length,
      inFlight,
    };
  } finally {
    await remote.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Run every scale case `runs` times against the bundle in dist/ (never builds it). */
export async function runScale(
  remote: RemoteCluster,
  opts: Options,
  root: string,
  log: (line: string) => void,
): Promise<ScaleResult> {
  const result: ScaleResult = { latencyMs: opts.latencyMs, samples: [] };
  if (!existsSync(join(root, 'dist', 'index.js'))) {
    result.skipped = 'dist/index.js is missing (run npm run build)';
    log(`scale: ${result.skipped}`);
    return result;
  }
  for (const c of scaleCases(opts.quick, opts.smoke)) {
    for (let run = 0; run < opts.runs; run++) {
      const s = await one(remote, root, c, opts.latencyMs);
      result.samples.push(s);
      log(
        `scale: ${c.label}: peak RSS ${s.peakRssBytes === undefined ? 'n/a' : `${Math.round(s.peakRssBytes / 1024 / 1024)} MB`}, ` +
          `${Math.round(s.wallMs)} ms (deadline ${s.deadlineMs} ms), summary ${s.summaryBytes} B, report ${s.reportBytes} B, ` +
          `${s.requests} requests, at most ${s.inFlight.requests} in flight + ${s.inFlight.watches} watches; ` +
          `${s.outcomes.map(([o, n]) => `${n} ${o}`).join(', ')}`,
      );
    }
  }
  return result;
}

const MiB = 1024 * 1024;
const RSS_GOAL = 250 * MiB;
const SUMMARY_GOAL = 100_000;

/** The targets of the section: peak RSS, summary size and the deadline, per case. */
export function scaleTargets(r: ScaleResult): Target[] {
  return r.samples.flatMap((s) => [
    {
      id: `scale-rss-${s.case.names}-${s.case.existing}`,
      name: `Scale, ${s.case.label}: peak RSS of the action`,
      goal: '≤ 250 MiB',
      pass: s.peakRssBytes === undefined ? undefined : s.peakRssBytes <= RSS_GOAL,
      measured: s.peakRssBytes === undefined ? 'not measured' : `${(s.peakRssBytes / MiB).toFixed(0)} MiB`,
    },
    {
      id: `scale-summary-${s.case.names}-${s.case.existing}`,
      name: `Scale, ${s.case.label}: job summary, and the deadline held`,
      goal: `≤ 100 KB; done within ${Math.round(s.deadlineMs / 1000)} s`,
      pass: s.summaryBytes <= SUMMARY_GOAL && s.wallMs <= s.deadlineMs + 5_000,
      measured: `${(s.summaryBytes / 1000).toFixed(1)} KB; ${(s.wallMs / 1000).toFixed(1)} s`,
    },
  ]);
}

/** Section 9 of BENCHMARKS.md. */
export function renderScale(r: ScaleResult): string {
  const head = `## 9. Scale: thousands of targets in one run

**Setup.** \`node dist/index.js\` started as a runner starts it (inputs in the environment), against the fake API
server in the bench's worker thread, ${r.latencyMs} ms latency, the real namespace controller's timing (first pass after
5 s). Peak RSS is the action process's own (VmHWM from \`/proc/self/status\` at exit: the child's \`maxRSS\`
carries its parent's RSS from before exec). From 64 waits on, one watch and one paged list of all namespaces serve
every wait; requests in flight are bounded to 32 (watches apart).`;
  if (r.skipped) return `${head}\n\nNot measured: ${r.skipped}.`;
  const rows = r.samples.map((s) => {
    const rss = s.peakRssBytes === undefined ? '—' : `${(s.peakRssBytes / MiB).toFixed(0)} MiB`;
    const outcomes = s.outcomes.map(([o, n]) => `${n} ${o}`).join(', ');
    return `| ${s.case.label} | ${rss} | ${(s.wallMs / 1000).toFixed(1)} s of ${Math.round(s.deadlineMs / 1000)} s | ${(s.summaryBytes / 1000).toFixed(1)} KB${s.summaryCutSaid ? ' (cut, said so)' : ''} | ${(s.reportBytes / 1000).toFixed(0)} KB | ${s.requests} | ${s.inFlight.requests} (+${s.inFlight.watches} watches) | ${s.result ?? '—'}: ${outcomes} |`;
  });
  return [
    head,
    '',
    '| Case | Peak RSS | Wall time (of the deadline) | Job summary | Report | Requests | Most in flight | Result |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
