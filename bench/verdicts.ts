/** The key figures and the pass/miss verdict of every target, from the raw results. Pure. */
import type { BigResult } from './big.js';
import { type ManyResult, type TeardownSample, RETRY_AFTER_SECONDS, targetsFor } from './many.js';
import { peerTargets } from './peers.js';
import { floorMs } from './scan.js';
import { median, percentile, ratio as x, shortMs as t, type Target } from './stats.js';
import type { StartupResult } from './startup.js';

/** The key figures of a run, as `figures` computes them. */
export type Figures = ReturnType<typeof figures>;

const perNs = (samples: readonly TeardownSample[]): number => median(samples.map((s) => s.requests / s.n));

/**
 * The actor model's cluster-wide reads (workloads, roles and bindings, Leases, CRDs, APIServices, webhooks, the control
 * plane, GitOps owners, policy bindings): the requests of a run that no namespace's scan makes.
 */
const MODEL_READ =
  /^GET \/apis\/(apps\/v1\/(deployments|statefulsets|daemonsets)|rbac\.authorization\.k8s\.io\/v1\/(clusterroles|clusterrolebindings)|coordination\.k8s\.io\/v1\/(namespaces\/kube-system\/)?leases|apiextensions\.k8s\.io\/v1\/customresourcedefinitions|apiregistration\.k8s\.io\/v1\/apiservices|admissionregistration\.k8s\.io\/v1\/[a-z]+(configurations|policybindings)|kustomize\.toolkit\.fluxcd\.io|helm\.toolkit\.fluxcd\.io|argoproj\.io)\b|^GET \/api\/v1\/namespaces\/kube-system\/pods /;

/** Requests of the actor model's cluster-wide reads in one sample (median over samples). */
export const modelReads = (samples: readonly TeardownSample[]): number =>
  median(samples.map((s) => s.byKind.filter(([k]) => MODEL_READ.test(k)).reduce((a, [, n]) => a + n, 0)));

/** The linear model: each namespace costs what it costs alone, by kind. */
function predicted(r: ManyResult, n: number, perRelease: number, perStuck: number): number {
  const stuck = targetsFor(n, r.sizes).filter((t) => t.kind === 'stuck').length;
  return (n - stuck) * perRelease + stuck * perStuck;
}

export function figures(big: BigResult, many: ManyResult, startup: StartupResult) {
  const oursMs = median(big.ours.map((s) => s.wallMs));
  const naiveMs = median(big.naive.map((s) => s.wallMs));
  const kubectlMs = median(big.kubectl.map((s) => s.wallMs));
  const shape = big.ours[0]!.shape;
  const floor = floorMs(shape, big.latencyMs);
  const allMs = median(many.all.map((s) => s.wallMs));
  const singleStuckMs = median(many.singleStuck.map((s) => s.wallMs));
  const singleReleaseMs = median(many.singleRelease.map((s) => s.wallMs));
  const slowestSingleMs = Math.max(singleStuckMs, singleReleaseMs);
  const perRelease = perNs(many.singleRelease);
  const perStuck = perNs(many.singleStuck);
  const predictedAll = predicted(many, many.sizes.namespaces, perRelease, perStuck);
  const predictedLinearity = predicted(many, many.sizes.linearity, perRelease, perStuck);
  const allRequests = median(many.all.map((s) => s.requests));
  const linearityRequests = median(many.linearity.map((s) => s.requests));
  const det = (samples: readonly TeardownSample[]): number[] =>
    samples.flatMap((s) => s.targets.flatMap((t) => (t.detectionMs !== undefined ? [t.detectionMs] : [])));
  return {
    oursMs,
    naiveMs,
    kubectlMs,
    vsKubectl: kubectlMs / oursMs,
    vsNaive: naiveMs / oursMs,
    floorMs: floor,
    floorRatio: oursMs / floor,
    // What each client has to parse (before compression): both get gzip on the wire.
    bytesRatio: median(big.ours.map((s) => s.bodyBytes)) / median(big.naive.map((s) => s.bodyBytes)),
    oursRequests: median(big.ours.map((s) => s.requests)),
    requestBudget: 2 + big.expectedScan + shape.clusterReadCount,
    allMs,
    singleStuckMs,
    singleReleaseMs,
    slowestSingleMs,
    manyRatio: allMs / slowestSingleMs,
    perRelease,
    perStuck,
    predictedAll,
    predictedLinearity,
    allRequests,
    linearityRequests,
    deviationAll: allRequests / predictedAll - 1,
    modelReadsAll: modelReads(many.all),
    modelReadsStuck: modelReads(many.singleStuck),
    snapshotsAll: median(many.all.map((x) => x.snapshots)),
    snapshotsStuck: median(many.singleStuck.map((x) => x.snapshots)),
    deviationLinearity: linearityRequests / predictedLinearity - 1,
    spacing: many.throttled.flatMap((s) => s.retrySpacingMs),
    injected429: many.throttleTimes * many.throttled.length,
    seen429: many.throttled.reduce((a, s) => a + s.status429, 0),
    unmatched429: many.throttled.reduce((a, s) => a + s.unmatched429, 0),
    extraRequests: median(many.throttled.map((s) => s.requests)) - allRequests,
    detectionAll: det(many.all),
    detectionSingle: det([...many.singleStuck, ...many.singleRelease]),
    startupMs: median(startup.badInputMs),
    nodeMs: median(startup.nodeBaselineMs),
    firstRequestMs: median(startup.firstRequestMs),
  };
}

const pct = (v: number): string => `${v >= 0 ? '+' : ''}${(v * 100).toFixed(1)} %`;

export function targets(f: Figures, big: BigResult, many: ManyResult, startup: StartupResult): Target[] {
  const shape = big.ours[0]!.shape;
  const requestsOk =
    shape.discovery <= 2 && shape.scan === big.expectedScan && shape.scanTypes === shape.listedTypes;
  const minSpacing = Math.min(...f.spacing);
  const p95All = percentile(f.detectionAll, 95);
  const n = many.sizes.namespaces;
  const stuck = big.stuck;
  const targetedMs = stuck ? median(stuck.targeted.map((s) => s.wallMs)) : NaN;
  const stuckKubectlMs = stuck?.kubectl.length ? median(stuck.kubectl.map((s) => s.wallMs)) : NaN;
  const targetedRequests = stuck ? median(stuck.targeted.map((s) => s.requests)) : NaN;
  const allTargeted = stuck?.targeted.every((s) => s.shape.scanChoice.mode === 'targeted') ?? false;
  const list: Target[] = [
    {
      id: 'targeted-kubectl',
      name: 'Big namespace after the controller pass: targeted scan vs the kubectl recipe',
      goal: '≥ 300× faster',
      pass: stuck?.kubectl.length ? stuckKubectlMs / targetedMs >= 300 && allTargeted : undefined,
      measured: stuck?.kubectl.length
        ? `${x(stuckKubectlMs / targetedMs)} (${t(stuckKubectlMs)} vs ${t(targetedMs)})${allTargeted ? '' : '; the targeted scan did not run'}`
        : 'not measured',
    },
    {
      id: 'targeted-requests',
      name: 'Big namespace after the controller pass: targeted scan requests, same findings as the full scan',
      goal: '≤ 15 requests, identical findings',
      pass: stuck ? targetedRequests <= 15 && allTargeted && stuck.sameFindings : undefined,
      measured: stuck
        ? `${targetedRequests} requests (full scan ${median(stuck.full.map((s) => s.requests))}); findings ${stuck.sameFindings ? 'identical' : 'DIFFER'}`
        : 'not measured',
    },
    {
      id: 'kubectl',
      name: 'Big namespace vs the kubectl recipe',
      goal: '≥ 30× faster',
      pass: big.kubectl.length ? f.vsKubectl >= 30 : undefined,
      measured: big.kubectl.length
        ? `${x(f.vsKubectl)} (${t(f.kubectlMs)} vs ${t(f.oursMs)})`
        : `not measured: ${big.kubectlSkipped ?? 'no run'}`,
    },
    {
      id: 'naive',
      name: 'Big namespace vs the naive client-node scan',
      goal: '≥ 5× faster',
      pass: f.vsNaive >= 5,
      measured: `${x(f.vsNaive)} (${t(f.naiveMs)} vs ${t(f.oursMs)})`,
    },
    {
      id: 'floor',
      name: 'Big namespace vs the latency floor',
      goal: '≤ 2× the floor',
      pass: f.floorMs > 0 ? f.floorRatio <= 2 : undefined,
      measured:
        f.floorMs > 0
          ? `${x(f.floorRatio)} (${t(f.oursMs)} vs floor ${t(f.floorMs)})`
          : `no latency injected (--latency 0): ${t(f.oursMs)}`,
    },
    {
      id: 'bytes',
      name: 'Big namespace bytes to parse (before compression) vs full-object lists',
      goal: '≤ 1/5 (0.20×)',
      pass: f.bytesRatio <= 0.2,
      measured: `${x(f.bytesRatio)} (${(median(big.ours.map((s) => s.bodyBytes)) / 1024 / 1024).toFixed(2)} MiB vs ${(median(big.naive.map((s) => s.bodyBytes)) / 1024 / 1024).toFixed(2)} MiB; on the wire, gzip-encoded, ${(median(big.ours.map((s) => s.bytes)) / 1024 / 1024).toFixed(2)} MiB vs ${(median(big.naive.map((s) => s.bytes)) / 1024 / 1024).toFixed(2)} MiB)`,
    },
    gzipTarget(big),
    {
      id: 'requests',
      name: 'Big namespace requests',
      goal: '≤ 2 discovery + 1 paged LIST per listable namespaced type + the cluster reads the rules need',
      pass: requestsOk && f.oursRequests <= f.requestBudget,
      measured: `${f.oursRequests} = ${shape.discovery} discovery + ${shape.scan} LIST pages for ${shape.scanTypes} types (expected ${big.expectedScan}) + ${shape.clusterReadCount} cluster reads`,
    },
    {
      id: 'many',
      name: `${n} namespaces vs the slowest single one`,
      goal: '≤ 1.5×',
      pass: f.manyRatio <= 1.5,
      measured: `${x(f.manyRatio)} (${t(f.allMs)} vs ${t(f.slowestSingleMs)})`,
    },
    {
      // Growing less than linearly is no miss: the run's snapshots share their cluster-wide reads.
      id: 'linear',
      name: 'Requests grow at most linearly with the namespaces',
      goal: '≤ n × the single-namespace requests + 10 %',
      pass: f.deviationAll <= 0.1 && f.deviationLinearity <= 0.1,
      measured: `${n}: ${f.allRequests} vs ${Math.round(f.predictedAll)} predicted (${pct(f.deviationAll)}); ${many.sizes.linearity}: ${f.linearityRequests} vs ${Math.round(f.predictedLinearity)} (${pct(f.deviationLinearity)})`,
    },
    {
      id: 'model-reads',
      name: `The actor model's cluster-wide reads with ${n} targets`,
      goal: '≤ 3 × those of one stuck target alone (shared by every snapshot of a checkpoint)',
      pass: f.modelReadsAll <= 3 * f.modelReadsStuck,
      measured: `${f.modelReadsAll} requests over ${f.snapshotsAll} snapshots (one stuck target alone: ${f.modelReadsStuck} over ${f.snapshotsStuck}; unshared, ${n} targets would need about ${Math.round((f.modelReadsStuck / Math.max(1, f.snapshotsStuck)) * f.snapshotsAll)})`,
    },
    {
      id: '429',
      name: '429 Retry-After honoured, no retry storm',
      goal: `every 429 retried once, ≥ ${RETRY_AFTER_SECONDS} s later`,
      pass:
        f.spacing.length > 0 &&
        f.unmatched429 === 0 &&
        f.seen429 === f.injected429 &&
        minSpacing >= RETRY_AFTER_SECONDS * 1000,
      measured: `${f.seen429} × 429 (injected ${f.injected429}), ${f.spacing.length} retried, spacing min ${t(minSpacing)} / median ${t(median(f.spacing))}; ${f.extraRequests >= 0 ? '+' : ''}${f.extraRequests} requests vs unthrottled`,
    },
    {
      id: 'detection',
      name: 'Detection latency (server removal → goneAt)',
      goal: '< 200 ms (median and p95)',
      pass: f.detectionAll.length > 0 && median(f.detectionAll) < 200 && p95All < 200,
      measured: `${n} at once: median ${t(median(f.detectionAll))}, p95 ${t(p95All)}, max ${t(Math.max(...f.detectionAll))}; alone: median ${t(median(f.detectionSingle))}`,
    },
    {
      id: 'startup',
      name: 'Bundle start-up (load + parse inputs + exit)',
      goal: '< 300 ms',
      pass: startup.bytes !== undefined && startup.badInputOk ? f.startupMs < 300 : undefined,
      measured:
        startup.bytes === undefined
          ? 'dist/index.js missing: run npm run build'
          : `${t(f.startupMs)} (Node alone ${t(f.nodeMs)}, so the bundle adds ${t(f.startupMs - f.nodeMs)})${startup.badInputOk ? '' : '; the run did not fail the way expected'}`,
    },
  ];
  return list;
}

/** `Accept-Encoding: gzip` on the request path: the full scan with and without it. */
function gzipTarget(big: BigResult): Target {
  const m = (xs: readonly { bytes: number; wallMs: number }[], k: 'bytes' | 'wallMs'): number =>
    median(xs.map((s) => s[k]));
  const [bz, bp] = [m(big.ours, 'bytes'), m(big.oursPlain, 'bytes')];
  const [wz, wp] = [m(big.ours, 'wallMs'), m(big.oursPlain, 'wallMs')];
  const kib = (b: number): string => `${(b / 1024).toFixed(0)} KiB`;
  return {
    id: 'gzip',
    name: 'Big namespace, `Accept-Encoding: gzip`: bytes on the wire vs without',
    goal: 'fewer bytes, wall time within 10 % of without',
    pass: big.oursPlain.length ? bz < bp && wz <= wp * 1.1 : undefined,
    measured: big.oursPlain.length
      ? `${kib(bz)} vs ${kib(bp)} (${x(bp / bz)} less); ${t(wz)} vs ${t(wp)}`
      : 'not measured',
  };
}

/** The last line the bench prints. */
export function finalLine(f: Figures, list: Target[], many: ManyResult): string {
  const passed = list.filter((l) => l.pass === true).length;
  const measured = list.filter((l) => l.pass !== undefined).length;
  return (
    `bench: big namespace ${x(f.vsKubectl)} faster than the kubectl recipe, ${x(f.vsNaive)} than the naive scan, ` +
    `${x(f.floorRatio)} the latency floor, ${x(f.bytesRatio)} the bytes; ${many.sizes.namespaces} namespaces ` +
    `${x(f.manyRatio)} the slowest single; detection p95 ${t(percentile(f.detectionAll, 95))}; start-up ` +
    `${t(f.startupMs)}; targets met ${passed}/${measured}`
  );
}

/** The peers' targets of both states of the big namespace. */
export function bigPeerTargets(big: BigResult): Target[] {
  return [
    ...peerTargets('full', big.ours, big.latencyMs, big.peers),
    ...(big.stuck ? peerTargets('stuck', big.stuck.targeted, big.latencyMs, big.stuck.peers) : []),
  ];
}
