/**
 * Scenario 2 (many namespaces at once, linear requests, 429 Retry-After) and 3 (detection latency): the real
 * engine (`runTeardown` with settings from `readSettings`) against namespaces whose deletion time the namespace
 * controller and a simulated operator decide.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../src/kube/client.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import type { RunReport } from '../src/model/run.js';
import { runTeardown } from '../src/teardown/run-teardown.js';
import { resolveTargets } from '../src/targets/resolve.js';
import type { Options, Sizes } from './args.js';
import { measure, requestKind, tally, type Sample } from './measure.js';
import { STUCK_FINALIZER, type LoggedRequest, type ManySpec, type ManyTarget } from './protocol.js';
import type { RemoteCluster } from './remote.js';

/** Namespace controller timing: real ones are 5 s / 8 s; scaled so that a run takes seconds, not minutes. */
export const CONTROLLER: ManySpec['controller'] = {
  queueDelayMs: 200,
  finalizerRecheckMs: 200,
  errorBackoffMaxMs: 2000,
};
export const TIMEOUT = '60s';
export const RETRY_AFTER_SECONDS = 1;

export interface TargetResult {
  name: string;
  kind: ManyTarget['kind'];
  outcome: string;
  durationMs?: number;
  /** When the server removed it, ms after the run started. */
  removedAtMs?: number;
  /** goneAt in the report minus the server's removal time. */
  detectionMs?: number;
  /** When the engine decided to send the DELETE, ms after the run started. */
  requestedAtMs?: number;
}

export interface TeardownSample extends Sample {
  label: string;
  n: number;
  stuck: number;
  outcomes: [string, number][];
  targets: TargetResult[];
  /** Diagnoses (each starts with GET /api), and which namespaces they were for. */
  snapshots: number;
  watches: number;
  byKind: [string, number][];
  status429: number;
  /** For each 429: time from it to the retry of the same request. */
  retrySpacingMs: number[];
  unmatched429: number;
}

export interface ManyResult {
  sizes: Sizes;
  latencyMs: number;
  inputs: Record<string, string>;
  targets: ManyTarget[];
  all: TeardownSample[];
  linearity: TeardownSample[];
  singleStuck: TeardownSample[];
  singleRelease: TeardownSample[];
  throttled: TeardownSample[];
  throttleTimes: number;
}

/** `n` targets: every 10th (and the last) stuck behind a finalizer nobody removes; the others released in turn. */
export function targetsFor(n: number, s: Sizes): ManyTarget[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `preview-${String(i + 1).padStart(2, '0')}`,
    kind: (i + 1) % 10 === 0 || i === n - 1 ? 'stuck' : 'release',
    releaseMs: Math.round(s.releaseFromMs + ((s.releaseToMs - s.releaseFromMs) * i) / Math.max(1, n - 1)),
  }));
}

/** The action's inputs, as the workflow would give them. */
export function inputsFor(targets: readonly ManyTarget[], s: Sizes): Record<string, string> {
  return {
    namespaces: targets.map((t) => t.name).join('\n'),
    timeout: TIMEOUT,
    'fail-on': 'stuck',
    force: 'on',
    'force-after': s.forceAfter,
    'force-finalizers': STUCK_FINALIZER,
    // The benchmark's namespaces carry no preview label: the fence is off, as its own tests prove it.
    'target-label': 'none',
  };
}

function retries(log: readonly LoggedRequest[]): { spacing: number[]; unmatched: number } {
  const spacing: number[] = [];
  let unmatched = 0;
  log.forEach((r, i) => {
    if (r.status !== 429) return;
    const next = log
      .slice(i + 1)
      .find((x) => x.method === r.method && x.path === r.path && x.query === r.query);
    if (next) spacing.push(next.at - r.at);
    else unmatched++;
  });
  return { spacing, unmatched };
}

async function teardown(
  remote: RemoteCluster,
  opts: Options,
  label: string,
  targets: ManyTarget[],
  throttle?: number,
): Promise<TeardownSample> {
  const started = await remote.start({
    spec: { kind: 'many', targets, controller: CONTROLLER },
    latencyMs: opts.latencyMs,
  });
  const kc = new KubeConfig();
  kc.loadFromString(started.kubeconfig);
  const inputs = inputsFor(targets, opts.sizes);
  const settings = readSettings((name) => inputs[name] ?? '');
  const kube = createKube(kc);
  const logger = new RecordingLogger();
  if (throttle) await remote.throttle(throttle, RETRY_AFTER_SECONDS);
  let m;
  try {
    m = await measure(remote, async () =>
      runTeardown(
        settings,
        { kube, logger, clock: systemClock },
        { repository: 'bench/namespace-teardown' },
        await resolveTargets(settings, kube),
      ),
    );
  } finally {
    await kube.close();
  }
  const removals = await remote.removals();
  await remote.stop();
  const report: RunReport = m.value;
  const names = new Set(targets.map((t) => t.name));
  const kinds = new Map(targets.map((t) => [t.name, t.kind]));
  const r = retries(m.log);
  return {
    ...m.sample,
    label,
    n: targets.length,
    stuck: targets.filter((t) => t.kind === 'stuck').length,
    outcomes: tally(report.targets.map((t) => t.outcome)),
    targets: report.targets.map((t) => {
      const removed = removals[t.name];
      const gone = t.goneAt ? Date.parse(t.goneAt) : undefined;
      return {
        name: t.name,
        kind: kinds.get(t.name) ?? 'release',
        outcome: t.outcome,
        durationMs: t.durationMs,
        removedAtMs: removed !== undefined ? removed - m.startedEpochMs : undefined,
        detectionMs: removed !== undefined && gone !== undefined ? gone - removed : undefined,
        requestedAtMs: t.requestedAt ? Date.parse(t.requestedAt) - m.startedEpochMs : undefined,
      };
    }),
    snapshots: m.log.filter((x) => x.path === '/api').length,
    watches: m.log.filter((x) => /(^|&)watch=(1|true)/.test(x.query)).length,
    byKind: tally(m.log.map((x) => requestKind(x, names))),
    status429: m.log.filter((x) => x.status === 429).length,
    retrySpacingMs: r.spacing,
    unmatched429: r.unmatched,
  };
}

export async function runMany(
  remote: RemoteCluster,
  opts: Options,
  log: (line: string) => void,
): Promise<ManyResult> {
  const s = opts.sizes;
  const targets = targetsFor(s.namespaces, s);
  const small = targetsFor(s.linearity, s);
  const lastStuck = [...targets].reverse().find((t) => t.kind === 'stuck')!;
  const slowestRelease = targets
    .filter((t) => t.kind === 'release')
    .reduce((a, b) => (b.releaseMs > a.releaseMs ? b : a));
  const throttleTimes = Math.ceil(s.namespaces / 2);
  const result: ManyResult = {
    sizes: s,
    latencyMs: opts.latencyMs,
    inputs: inputsFor(targets, s),
    targets,
    all: [],
    linearity: [],
    singleStuck: [],
    singleRelease: [],
    throttled: [],
    throttleTimes,
  };
  for (let run = 0; run < opts.runs; run++) {
    const all = await teardown(remote, opts, `${s.namespaces} at once`, targets);
    result.all.push(all);
    const single = await teardown(remote, opts, `${lastStuck.name} alone (stuck)`, [lastStuck]);
    result.singleStuck.push(single);
    const release = await teardown(remote, opts, `${slowestRelease.name} alone`, [slowestRelease]);
    result.singleRelease.push(release);
    result.linearity.push(await teardown(remote, opts, `${s.linearity} at once`, small));
    const throttled = await teardown(
      remote,
      opts,
      `${s.namespaces} at once, ${throttleTimes}×429`,
      targets,
      throttleTimes,
    );
    result.throttled.push(throttled);
    log(
      `many namespaces: run ${run + 1}: ${s.namespaces} at once ${Math.round(all.wallMs)} ms / ${all.requests} requests; ` +
        `stuck alone ${Math.round(single.wallMs)} ms; slowest release alone ${Math.round(release.wallMs)} ms; ` +
        `throttled ${Math.round(throttled.wallMs)} ms, ${throttled.status429}×429, min retry spacing ` +
        `${Math.round(Math.min(...throttled.retrySpacingMs))} ms`,
    );
  }
  return result;
}
