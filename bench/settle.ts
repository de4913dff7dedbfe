/**
 * Section 11: time to the answer with the default inputs (`wait: settled`, `timeout: 5m`), against the fake API
 * server with the namespace controller's real timing (a pass 5 s after each write of the namespace, a recheck every
 * 8 s while finalizers remain): one leaked finalizer, ten namespaces with one leak among them, a namespace a live
 * controller holds for 30 s; and the leak under `wait: timeout`, the behaviour before. Each case runs the engine in
 * this process against a fresh fake, timed from the start of the run to its report (the check's answer).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { createKube } from '../src/kube/client.js';
import type { RunReport } from '../src/model/run.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import { runTeardown } from '../src/teardown/run-teardown.js';
import { resolveTargets } from '../src/targets/resolve.js';
import { FakeCluster } from '../test/fake-apiserver/index.js';
import type { Options } from './args.js';

export const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
export const FINALIZER = 'acme.io/cleanup';
/** How long the live controller of the held case holds its namespace (3 s in the smoke run). */
export const HOLD_MS = 30_000;
/** The smoke run's controller: quicker than upstream, so the section is checked in seconds. */
const SMOKE_TIMING = { queueDelayMs: 500, finalizerRecheckMs: 1_000, errorBackoffMaxMs: 2_000 };

/** One run of one case: its wall time and what the report says. */
export interface SettleSample {
  wallMs: number;
  result: string;
  ended: string;
  /** Start of the run → the last healthy namespace seen gone (the ten-namespace case). */
  slowestGoneMs?: number;
  settledReason?: string;
}

export interface SettleResult {
  runs: number;
  latencyMs: number;
  holdMs: number;
  /** Whether the namespace controller ran with upstream's timing (not in the smoke run). */
  upstreamTiming: boolean;
  leak: SettleSample[];
  ten: SettleSample[];
  held: SettleSample[];
  heldNamespaceOrder: SettleSample[];
  /** The leak under `wait: timeout`, once. */
  before?: SettleSample;
  beforeTimeout: string;
}

/** A leaked widget (its controller uninstalled) in `ns`. */
export function addLeak(c: FakeCluster, ns: string): void {
  c.addNamespace(ns);
  c.addObject({ group: '', version: 'v1', resource: 'configmaps' }, { namespace: ns, name: 'app' });
  c.addObject(WIDGETS, { namespace: ns, name: 'w0', finalizers: [FINALIZER] });
}

interface Case {
  latencyMs: number;
  smoke: boolean;
  holdMs: number;
}

function fake(k: Case): FakeCluster {
  const c = new FakeCluster({ latencyMs: k.latencyMs, ...(k.smoke ? { controller: SMOKE_TIMING } : {}) });
  c.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  return c;
}

/** Run the engine with `inputs` (the defaults otherwise) against `c`, timed from its start to its report. */
export async function timedRun(
  c: FakeCluster,
  inputs: Record<string, string>,
  onStart: () => void = () => undefined,
): Promise<{ report: RunReport; wallMs: number }> {
  const { kubeconfig } = await c.start();
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  try {
    // The fence is off: the bench's namespaces carry no preview label (the fence is not what is measured).
    const settings = readSettings((n) => ({ 'target-label': 'none', ...inputs })[n] ?? '');
    const started = performance.now();
    onStart();
    const report = await runTeardown(
      settings,
      { kube, logger: new RecordingLogger(), clock: systemClock },
      {},
      await resolveTargets(settings, kube),
    );
    return { report, wallMs: performance.now() - started };
  } finally {
    await kube.close();
    await c.stop();
  }
}

export function sampleOf(r: { report: RunReport; wallMs: number }): SettleSample {
  const t0 = Date.parse(r.report.startedAt);
  const gone = r.report.targets.filter((t) => t.goneAt).map((t) => Date.parse(t.goneAt!) - t0);
  const settled = r.report.targets.find((t) => t.settled)?.settled;
  return {
    wallMs: r.wallMs,
    result: r.report.result,
    ended: r.report.wait?.ended ?? 'n/a',
    ...(gone.length ? { slowestGoneMs: Math.max(...gone) } : {}),
    ...(settled ? { settledReason: settled.reason } : {}),
  };
}

function leak(k: Case, inputs: Record<string, string> = {}): Promise<SettleSample> {
  const c = fake(k);
  addLeak(c, 'preview-1');
  return timedRun(c, { namespaces: 'preview-1', ...inputs }).then(sampleOf);
}

/** Nine healthy namespaces whose pods take 1 to 9 s to stop, and one leak. */
function ten(k: Case): Promise<SettleSample> {
  const c = fake(k);
  c.addNode('node-1', true);
  const names: string[] = [];
  for (let i = 1; i <= 9; i++) {
    c.addNamespace(`preview-${i}`);
    c.addPod(`preview-${i}`, 'web', { nodeName: 'node-1', graceSeconds: i, phase: 'Running' });
    names.push(`preview-${i}`);
  }
  addLeak(c, 'preview-10');
  return timedRun(c, { namespaces: [...names, 'preview-10'].join(',') }).then(sampleOf);
}

/** A widget whose operator (in a shared namespace, alive) finishes its cleanup `holdMs` after the run starts. */
function held(k: Case, inputs: Record<string, string> = {}): Promise<SettleSample> {
  const c = fake(k);
  c.addNamespace('preview-1');
  c.addObject(WIDGETS, { namespace: 'preview-1', name: 'w0', finalizers: [FINALIZER] });
  c.addNamespace('operators');
  const op = c.addOperator({ gvr: WIDGETS, finalizer: FINALIZER, namespace: 'operators', scope: 'all' });
  op.pause();
  let timer: NodeJS.Timeout | undefined;
  return timedRun(c, { namespaces: 'preview-1', ...inputs }, () => {
    timer = setTimeout(() => op.resume(), k.holdMs);
  })
    .then(sampleOf)
    .finally(() => clearTimeout(timer));
}

/** Run section 11: the cases of a run side by side (each its own fake), the leak under `wait: timeout` beside them. */
export async function runSettle(options: Options, log: (line: string) => void): Promise<SettleResult> {
  const k: Case = {
    latencyMs: options.latencyMs,
    smoke: options.smoke,
    holdMs: options.smoke ? 3_000 : HOLD_MS,
  };
  const runs = options.quick ? 1 : Math.max(1, Math.min(options.runs, 3));
  const beforeTimeout = options.smoke ? '12s' : options.quick ? '30s' : '5m';
  const result: SettleResult = {
    runs,
    latencyMs: k.latencyMs,
    holdMs: k.holdMs,
    upstreamTiming: !k.smoke,
    leak: [],
    ten: [],
    held: [],
    heldNamespaceOrder: [],
    beforeTimeout,
  };
  const before = leak(k, { wait: 'timeout', timeout: beforeTimeout }).then((s) => {
    result.before = s;
    log(`settle: wait: timeout (${beforeTimeout}): ${(s.wallMs / 1000).toFixed(1)} s, ${s.result}`);
  });
  for (let run = 0; run < runs; run++) {
    const [a, b, c, d] = await Promise.all([
      leak(k),
      ten(k),
      held(k),
      held(k, { 'teardown-order': 'namespace' }),
    ]);
    result.leak.push(a);
    result.ten.push(b);
    result.held.push(c);
    result.heldNamespaceOrder.push(d);
    log(
      `settle: run ${run + 1}: leak ${(a.wallMs / 1000).toFixed(1)} s (${a.ended}), ten ${(b.wallMs / 1000).toFixed(1)} s ` +
        `(slowest healthy ${((b.slowestGoneMs ?? NaN) / 1000).toFixed(1)} s), held ${(c.wallMs / 1000).toFixed(1)} s ` +
        `(${c.result}), held with namespace order ${(d.wallMs / 1000).toFixed(1)} s (${d.result})`,
    );
  }
  await before;
  return result;
}
