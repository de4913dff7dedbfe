/**
 * Section 7: one preview namespace with an operator inside it and 20 custom resources, on the fake cluster with
 * pods-first deletion (1.34): wall time from the start of the run to the namespace gone with
 * `custom-resources-first`, against `namespace` order plus forcing (and what forcing left behind: the operator's
 * cleanups not done); and the added cost of the custom-resources phase for a namespace without custom resources.
 * The fake runs in this process (unlike sections 1–3), with the same per-request latency; every run gets a fresh one.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { createKube } from '../src/kube/client.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import type { RunReport } from '../src/model/run.js';
import { runTeardown } from '../src/teardown/run-teardown.js';
import { resolveTargets } from '../src/targets/resolve.js';
import { FakeCluster } from '../test/fake-apiserver/index.js';
import type { Options } from './args.js';
import { median, ms, spread } from './stats.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const FINALIZER = 'acme.io/cleanup';
const NS = 'preview-1';
/** Namespace controller timing: quicker than upstream's 5 s first pass, the same for every row. */
const CONTROLLER = { queueDelayMs: 500, finalizerRecheckMs: 1000, errorBackoffMaxMs: 2000 };

interface Sample {
  wallMs: number;
  result: string;
  cleanups: number;
  forcedWrites: number;
  preMortemMs: number;
}

function cluster(crs: number, latencyMs: number): FakeCluster {
  // Without custom resources: a ConfigMap only (no operator pod, whose 1 s grace rounds to whole seconds and would
  // drown the difference in that noise); the CRD stays registered, so the phase still reads the catalog.
  const c = new FakeCluster({ controller: CONTROLLER, latencyMs });
  c.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  c.addNamespace(NS);
  c.addObject({ group: '', version: 'v1', resource: 'configmaps' }, { namespace: NS, name: 'app' });
  for (let i = 0; i < crs; i++)
    c.addObject(WIDGETS, { namespace: NS, name: `w${i}`, finalizers: [FINALIZER] });
  // The operator (its Deployment and pod, 1 s grace) lives in the preview namespace; each cleanup takes 200 ms.
  if (crs > 0) c.addOperator({ gvr: WIDGETS, finalizer: FINALIZER, namespace: NS, delayMs: 200 });
  return c;
}

async function once(crs: number, inputs: Record<string, string>, latencyMs: number): Promise<Sample> {
  const c = cluster(crs, latencyMs);
  const { kubeconfig } = await c.start();
  try {
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const kube = createKube(kc);
    // The benchmark's namespace carries no preview label: the fence is off, as its own tests prove it.
    const given: Record<string, string> = {
      namespaces: NS,
      timeout: '30s',
      'target-label': 'none',
      ...inputs,
    };
    const settings = readSettings((n) => given[n] ?? '');
    const started = performance.now();
    const report: RunReport = await runTeardown(
      settings,
      { kube, logger: new RecordingLogger(), clock: systemClock, pollMs: 2_000 },
      {},
      await resolveTargets(settings, kube),
    );
    const wallMs = performance.now() - started;
    await kube.close();
    const t = report.targets[0]!;
    const forcedWrites = (t.force?.audit ?? []).reduce((n, a) => n + a.writes, 0);
    return {
      wallMs,
      result: report.result,
      cleanups: c.operatorCleanups.length,
      forcedWrites,
      preMortemMs: t.preMortem?.tookMs ?? 0,
    };
  } finally {
    await c.stop();
  }
}

async function repeat(
  runs: number,
  crs: number,
  inputs: Record<string, string>,
  latencyMs: number,
): Promise<Sample[]> {
  const out: Sample[] = [];
  for (let i = 0; i < runs; i++) out.push(await once(crs, inputs, latencyMs));
  return out;
}

// 4 s: by then pods-first deletion has stopped the operator's pod and the widgets are marked, so the first forcing
// pass finds them (with 2 s it finds nothing yet, and the next pass comes 10 s later: about 13 s in all).
const FORCE = {
  'teardown-order': 'namespace',
  force: 'on',
  'force-after': '4s',
  'force-finalizers': FINALIZER,
};

/** Run section 7 and return its markdown. */
export async function runOperator(options: Options, log: (line: string) => void): Promise<string> {
  const runs = options.quick ? 1 : Math.max(3, options.runs);
  const crs = options.smoke ? 2 : options.quick ? 5 : 20;
  const lat = options.latencyMs;
  const first = await repeat(runs, crs, {}, lat);
  log(`operator: custom-resources-first ${ms(median(first.map((s) => s.wallMs)))}`);
  const forced = await repeat(runs, crs, FORCE, lat);
  log(`operator: namespace + force ${ms(median(forced.map((s) => s.wallMs)))}`);
  // No custom resources (the operator's Deployment and pod stay, the CRD exists): the phase finds nothing to delete.
  const bareRuns = options.smoke ? 1 : options.quick ? 3 : runs * 3;
  const bareFirst: Sample[] = [];
  const bareNs: Sample[] = [];
  // Interleaved, so a slow moment of the machine hits both alike.
  for (let i = 0; i < bareRuns; i++) {
    bareFirst.push(await once(0, {}, lat));
    bareNs.push(await once(0, { 'teardown-order': 'namespace' }, lat));
  }
  const cost = median(bareFirst.map((s) => s.wallMs)) / median(bareNs.map((s) => s.wallMs)) - 1;
  log(`operator: no custom resources, added cost ${(cost * 100).toFixed(1)} %`);
  const row = (name: string, xs: Sample[]): string =>
    `| ${name} | ${spread(xs.map((s) => s.wallMs))} | ${[...new Set(xs.map((s) => s.result))].join(', ')} | ${xs === bareFirst || xs === bareNs ? '—' : `${median(xs.map((s) => s.cleanups))} of ${crs}`} | ${median(xs.map((s) => s.forcedWrites))} | ${ms(median(xs.map((s) => s.preMortemMs)))} |`;
  return [
    '## 7. Custom resources first: an operator inside the preview namespace',
    '',
    `One namespace, ${crs} custom resources holding \`${FINALIZER}\`, the operator's Deployment and pod inside it`,
    '(1 s grace; 200 ms per cleanup), fake 1.34 (pods-first), namespace controller first pass 500 ms, recheck 1 s,',
    `${lat} ms per request; median and spread of ${runs} run(s) each, a fresh fake per run, in this process.`,
    "Wall time is from the start of the run to the namespace seen gone (the run's end).",
    '',
    '| Run | Start → gone | Result | Operator cleanups done | Forced writes | Pre-mortem |',
    '| --- | --- | --- | --- | --- | --- |',
    row('`custom-resources-first` (default)', first),
    row('`namespace` + `force: on`, `force-after: 4s`, `force-finalizers: acme.io/cleanup`', forced),
    row('no custom resources, `custom-resources-first`', bareFirst),
    row('no custom resources, `namespace`', bareNs),
    '',
    `Added cost of the custom-resources phase without custom resources: ${(cost * 100).toFixed(1)} % of the wall time`,
    `(goal: under 10 %), the ratio of the medians of ${bareRuns} interleaved runs each (both run the pre-mortem;`,
    'the difference is the catalog read — one discovery and one CRD list per run — and finding nothing to delete).',
    `Forcing left ${crs - median(forced.map((s) => s.cleanups))} of ${crs} cleanups undone: the buckets the operator`,
    'would have deleted are still there.',
  ].join('\n');
}
