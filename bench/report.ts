/** BENCHMARKS.md from the results. Pure. */
import type { Options } from './args.js';
import type { BigResult } from './big.js';
import type { Machine } from './machine.js';
import { peerNotes, type PeerResult } from './peers.js';
import { CONTROLLER, RETRY_AFTER_SECONDS, type ManyResult, type TeardownSample } from './many.js';
import type { Sample } from './measure.js';
import {
  besideScan,
  CONCURRENCY,
  floorMs,
  PAGE_SIZE,
  RECIPE,
  type OursSample,
  type OursShape,
} from './scan.js';
import { bytes, count, max, median, ms, percentile, spread, times, type Target } from './stats.js';
import type { StartupResult } from './startup.js';
import { SCAN_LABELS } from './stuck.js';
import type { Figures } from './verdicts.js';

export interface Results {
  options: Options;
  machine: Machine;
  big: BigResult;
  many: ManyResult;
  startup: StartupResult;
  figures: Figures;
  targets: Target[];
  totalMs: number;
}

const verdict = (t: Target): string =>
  t.pass === undefined ? '— not measured' : t.pass ? '✅ pass' : '❌ miss';
const col = <T>(xs: readonly T[], f: (x: T) => number): number[] => xs.map(f);
const table = (head: string[], rows: string[][]): string =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');

/** Bytes on the wire, and before compression when some answers were compressed. */
function wireBytes(xs: readonly Sample[]): string {
  const [wire, body] = [median(col(xs, (s) => s.bytes)), median(col(xs, (s) => s.bodyBytes))];
  return body > wire ? `${bytes(wire)} (${bytes(body)} decoded)` : bytes(wire);
}

function sampleRow(name: string, xs: readonly Sample[], oursMs: number, client = true): string[] {
  const wall = median(col(xs, (s) => s.wallMs));
  return [
    name,
    spread(col(xs, (s) => s.wallMs)),
    count(median(col(xs, (s) => s.requests))),
    wireBytes(xs),
    ms(median(col(xs, (s) => s.serverBusyMs))),
    client ? ms(median(col(xs, (s) => s.clientBusyMs))) : '(child processes)',
    Number.isFinite(oursMs) && wall !== oursMs ? times(wall / oursMs) : '1×',
  ];
}

/** What \`Accept-Encoding: gzip\` changes for our full scan: bytes on the wire, time and CPU, with and without. */
function gzipParagraph(big: Results['big']): string {
  const m = (xs: readonly Sample[], f: (s: Sample) => number): number => median(col(xs, f));
  const [zipped, plain] = [big.ours, big.oursPlain];
  const page = (xs: readonly OursSample[]): number => xs[0]!.shape.largestPage;
  return `With gzip the full scan received ${bytes(m(zipped, (s) => s.bytes))} against ${bytes(m(plain, (s) => s.bytes))}
without (${times(m(plain, (s) => s.bytes) / m(zipped, (s) => s.bytes))} less); only the ${Math.ceil(big.spec.configMaps / PAGE_SIZE)} ConfigMap pages are over the
threshold (the largest ${bytes(page(plain))} as JSON, ${bytes(page(zipped))} compressed), every other answer is sent as it is.
Wall time ${ms(m(zipped, (s) => s.wallMs))} with, ${ms(m(plain, (s) => s.wallMs))} without; client busy ${ms(m(zipped, (s) => s.clientBusyMs))} / ${ms(m(plain, (s) => s.clientBusyMs))}
(decoding runs on zlib's thread pool), server busy ${ms(m(zipped, (s) => s.serverBusyMs))} / ${ms(m(plain, (s) => s.serverBusyMs))} (the fake compresses on its one thread).
On this loopback link the bytes cost nothing; from a CI runner to a cloud API server they are what the link carries.`;
}

/** The peers' rows, beside the recipe's. */
function peerRows(peers: PeerResult | undefined, oursMs: number): string[][] {
  if (!peers) return [];
  const rows = [
    sampleRow('metadata-only pool scan, legacy discovery (bench/pool-scan.ts)', peers.pool, oursMs),
  ];
  if (peers.kubectlOne.length)
    rows.unshift(
      sampleRow('kubectl recipe in one process (`kubectl get TYPE,TYPE,…`)', peers.kubectlOne, oursMs, false),
    );
  return rows;
}

function bigSection(r: Results): string {
  const { big, figures: f, options } = r;
  const spec = big.spec;
  const shape = big.ours[0]!.shape;
  const oursMs = f.oursMs;
  const rows = [
    sampleRow('**ours**: `takeSnapshot(createKube(kc), ns)` + `diagnose()`', big.ours, oursMs),
    sampleRow('ours without compression: `createKube(kc, { gzip: false })`', big.oursPlain, oursMs),
    sampleRow('naive client-node scan (bench/naive.ts)', big.naive, oursMs),
  ];
  if (big.kubectl.length)
    rows.push(
      sampleRow(
        `kubectl recipe (${big.kubectl.length} run${big.kubectl.length > 1 ? 's' : ''})`,
        big.kubectl,
        oursMs,
        false,
      ),
    );
  rows.push(...peerRows(big.peers, oursMs));
  rows.push(
    sampleRow('ours, first (cold) run of the process', [big.oursCold], oursMs),
    sampleRow('naive, first (cold) run of the process', [big.naiveCold], oursMs),
    sampleRow(
      `ours on the fake's unmodified lists (${big.oursUnmodifiedFake.length} runs; see below)`,
      big.oursUnmodifiedFake,
      oursMs,
    ),
  );
  const latencyRows = [{ latencyMs: big.latencyMs, samples: big.ours }, ...big.oursAtLatency]
    .sort((a, b) => a.latencyMs - b.latencyMs)
    .map(({ latencyMs, samples }) => {
      const wall = median(col(samples, (s) => s.wallMs));
      const floor = floorMs(samples[0]!.shape, latencyMs);
      return [
        `${latencyMs} ms${latencyMs === big.latencyMs ? ' (main)' : ''}`,
        spread(col(samples, (s) => s.wallMs)),
        ms(floor),
        floor > 0 ? times(wall / floor) : 'n/a (no latency)',
        ms(median(col(samples, (s) => s.clientBusyMs))),
        ms(median(col(samples, (s) => s.serverBusyMs))),
      ];
    });
  const kubectl = big.kubectl[0];
  const clusterReads = shape.clusterReads.map(([k, n]) => `\`${k}\`${n > 1 ? ` ×${n}` : ''}`).join(', ');
  const crdTypes = spec.types;
  const perType = (spec.customResources / spec.types).toFixed(1);
  return `## 1. Big namespace

**Setup.** One namespace \`${spec.namespace}\`, Terminating (deleted through the API; the namespace controller is
paused so its content stays, as in a namespace whose deletion is blocked), with ${spec.configMaps.toLocaleString('en')}
ConfigMaps of ${spec.configMapBytes / 1024} KiB each and ${spec.customResources} custom resources (about ${perType} per
type) of ${crdTypes} namespaced CRD types spread over ${spec.groups} API groups; ${spec.withFinalizers} of the custom
resources, each of another type, hold the finalizer \`bench.example.com/cleanup\`. The cluster serves
${shape.listedTypes} listable namespaced types in all (the ${crdTypes} CRDs and the built-ins). The approaches
run against the same server: ours ${big.ours.length} times back to back (with and without gzip in turn, so that no run follows the
naive scan's garbage or a kubectl run), then the naive scan and the kubectl recipe in turn, ${options.runs} time(s) each${big.kubectl.length !== options.runs ? ` (the kubectl recipe ${big.kubectl.length} time(s))` : ''}; all after discarded
warm-up runs of ours and of the naive scan (the first of each, in a process that has not run it yet, is shown as the
cold row; an action diagnoses once per namespace, in a process that is warm from its resolves and watches).

- **ours**: a fresh \`createKube(kc)\` per run, then \`takeSnapshot(kube, ns)\` with its defaults (pool of
  ${CONCURRENCY}, pages of ${PAGE_SIZE}) and \`diagnose(snapshot)\`: aggregated discovery, metadata-only paginated LISTs, then
  the cluster reads the findings call for. It found ${shape.findings} finding(s)
  (${shape.findingIds.map(([id, n]) => `${id}${n > 1 ? ` ×${n}` : ''}`).join(', ')}), ${shape.readErrors} read error(s).
- **naive**: what a first version would write with @kubernetes/client-node: \`CoreApi.getAPIVersions\`,
  \`CoreV1Api.getAPIResources\`, \`ApisApi.getAPIVersions\`, then \`CustomObjectsApi.getAPIResources\` for each group,
  one after the other, then \`KubernetesObjectApi.list\` (full objects, no \`limit\`) of every namespaced listable type,
  one after the other (its discovery cache is seeded, so no group is discovered twice). It found
  ${big.naiveInfo.objects} objects in ${big.naiveInfo.types} types, ${big.naiveInfo.withFinalizers.length} with finalizers.
- **kubectl recipe**: \`${RECIPE}\` run by \`bash -c\` with ${big.kubectlPath ?? 'kubectl (not found)'} (${kubectl ? `${kubectl.kubectlProcesses} kubectl processes per run, exit code ${kubectl.exitCode}, ${kubectl.lines} output lines` : (big.kubectlSkipped ?? '')}),
  a temp kubeconfig and a fresh \`HOME\` per run (the discovery cache starts cold, as on a fresh CI runner).
${big.peers ? peerNotes(big.peers) : ''}

${table(['Approach', 'Wall time, median (min–max)', 'Requests', 'Bytes on the wire', 'Server busy', 'Client busy', 'Time vs ours'], rows)}

Requests and bytes are the fake server's own log (every attempt; response bodies as sent on the wire). Like
kube-apiserver, the fake gzips an answer over 128 KiB when the client accepts gzip: ours asks for it (as kubectl
does), and so does client-node's \`fetch\` in the naive scan.
"Server busy" / "client busy": event-loop active time of the server's worker thread and of the bench's main thread
(the client) during the run; they overlap in time on the ${r.machine.cores} cores.

**Compression.** ${gzipParagraph(big)}

**Requests of ours** (${f.oursRequests}, budget ${f.requestBudget}): ${shape.discovery} discovery (\`GET /api\`, \`GET /apis\`,
aggregated), ${shape.scan} metadata-only LIST pages for ${shape.scanTypes} types — one LIST per listable namespaced type,
plus ${shape.scan - shape.scanTypes} continuation page(s) (${spec.configMaps} ConfigMaps at ${PAGE_SIZE} per page = ${Math.ceil(spec.configMaps / PAGE_SIZE)} pages) —
and ${shape.clusterReadCount} cluster reads the rules asked for: ${clusterReads}. (The APIService list is always read, beside the scan;
the CRDs of the types whose objects hold finalizers, and the Deployments/StatefulSets/DaemonSets that could run a
finalizer's controller, because non-built-in finalizers were found.) The client's own count, \`snapshot.cost\`:
${shape.clientCost.requests} requests, ${bytes(shape.clientCost.bytes)}.

**Latency floor.** With a pool of c = ${CONCURRENCY} and per-request latency L:
\`floor = L × (1 + max(ceil((S + B) / c), P) + ceil(R / c))\` — 1 round of discovery (its 2 requests run in parallel), the
scan's S = ${shape.scan} LIST requests and the B = ${besideScan(shape)} read(s) beside it (the APIService list, which does not depend on
the scan) at c at a time but never shorter than the longest chain of pages of one type (P = ${shape.maxPages}, pages are
sequential), then the R = ${shape.clusterReadCount - besideScan(shape)} cluster reads that depend on what the scan found (no dependent chains here: every
APIService is Available, so no backing Service is read). Here: ${big.latencyMs} ms × (1 + ${Math.max(Math.ceil((shape.scan + besideScan(shape)) / CONCURRENCY), shape.maxPages)} + ${Math.ceil((shape.clusterReadCount - besideScan(shape)) / CONCURRENCY)})
= **${ms(f.floorMs)}**; measured ${ms(f.oursMs)} = **${times(f.floorRatio)}** the floor.

The same snapshot at other latencies (${Math.max(options.runs, 5)} runs each) shows what the round trips cost and what the CPU
costs:

${table(['Latency', 'Wall time', 'Floor', 'Wall / floor', 'Client busy', 'Server busy'], latencyRows)}

At 0 ms the wall time is pure CPU: the client parsing ${shape.scan + shape.discovery + shape.clusterReadCount} HTTPS responses and the fake serving
them (two threads, in parallel). When that exceeds the floor, the floor cannot be reached by fewer round trips alone.`;
}

function stuckSection(r: Results): string {
  const stuck = r.big.stuck;
  if (!stuck) return '';
  const targetedMs = median(col(stuck.targeted, (s) => s.wallMs));
  const rows = [
    sampleRow(SCAN_LABELS.targeted, stuck.targeted, targetedMs),
    sampleRow(SCAN_LABELS.full, stuck.full, targetedMs),
  ];
  if (stuck.kubectl.length)
    rows.push(sampleRow(`kubectl recipe (${stuck.kubectl.length} runs)`, stuck.kubectl, targetedMs, false));
  rows.push(...peerRows(stuck.peers, targetedMs));
  const t0 = stuck.targeted[0]!.shape;
  const f0 = stuck.full[0]!.shape;
  const reads = (s: OursShape): string =>
    s.clusterReads.map(([k, n]) => `\`${k}\`${n > 1 ? ` ×${n}` : ''}`).join(', ');
  return `## 1b. The big namespace after the namespace controller's pass

**Setup.** The same cluster and namespace as section 1, after one pass of the namespace controller (run once
through the fake's controller, which is otherwise paused): it deleted everything it could, and what the
finalizers hold is left, with its conditions in place — \`NamespaceContentRemaining\`: "${stuck.remaining}". The
diagnosis runs more than 5 s after the deletion (the controller's first pass upstream), so the action trusts the
conditions. Same runs as section 1, in turn, against the same server (the fake's unmodified lists).

${table(['Approach', 'Wall time, median (min–max)', 'Requests', 'Bytes on the wire', 'Server busy', 'Client busy', 'Time vs targeted'], rows)}

- **targeted** (\`${t0.scanChoice.mode}\`, ${t0.scanChoice.reason}: ${t0.scanChoice.detail}): ${t0.discovery} discovery request(s)
  (\`GET /apis\` only: no core type is named), ${t0.scan} metadata-only LIST(s) of ${t0.scanTypes} type(s), ${t0.clusterReadCount} cluster reads: ${reads(t0)}.
- **full** (${f0.scanChoice.reason}): ${f0.discovery} discovery, ${f0.scan} LISTs of ${f0.scanTypes} types, ${f0.clusterReadCount} cluster reads.
${stuck.peers ? `${peerNotes(stuck.peers)}\n` : ''}- Findings: ${stuck.sameFindings ? 'identical (a targeted and a full snapshot taken with the same clock)' : '**they differ**'} (${t0.findings}: ${t0.findingIds.map(([id, n]) => `${id}${n > 1 ? ` ×${n}` : ''}`).join(', ')}).`;
}

function manyRows(r: Results): string[][] {
  const { many, figures: f } = r;
  const row = (xs: readonly TeardownSample[], predicted?: number): string[] => {
    const x = xs[0]!;
    const req = median(col(xs, (s) => s.requests));
    return [
      x.label,
      `${x.n} (${x.stuck} stuck)`,
      spread(col(xs, (s) => s.wallMs)),
      count(req),
      (req / x.n).toFixed(2),
      predicted === undefined
        ? '—'
        : `${Math.round(predicted)} (${req >= predicted ? '+' : ''}${((req / predicted - 1) * 100).toFixed(1)} %)`,
      count(median(col(xs, (s) => s.snapshots))),
      count(median(col(xs, (s) => s.watches))),
      count(median(col(xs, (s) => s.status429))),
      bytes(median(col(xs, (s) => s.bytes))),
      x.outcomes.map(([o, n]) => `${n} ${o}`).join(', '),
    ];
  };
  return [
    row(many.singleRelease),
    row(many.singleStuck),
    row(many.linearity, f.predictedLinearity),
    row(many.all, f.predictedAll),
    row(many.throttled),
  ];
}

function manySection(r: Results): string {
  const { many, figures: f } = r;
  const s = many.sizes;
  const n = s.namespaces;
  const first = many.all[0]!;
  const stuckRuns = many.all.flatMap((x) => x.targets.filter((t) => t.kind === 'stuck'));
  const stuckAlone = many.singleStuck.flatMap((x) => x.targets);
  const lastRequested = median(many.all.map((x) => max(x.targets.map((t) => t.requestedAtMs ?? NaN))));
  const aloneRequested = median(stuckAlone.map((t) => t.requestedAtMs ?? NaN));
  const stuckRemoved = median(stuckRuns.map((t) => t.removedAtMs ?? NaN));
  const aloneRemoved = median(stuckAlone.map((t) => t.removedAtMs ?? NaN));
  const kinds = first.byKind
    .slice(0, 14)
    .map(([k, c]) => `\`${k}\` ×${c}`)
    .join(', ');
  const spacing = f.spacing;
  return `## 2. Many namespaces

**Design.** ${n} namespaces \`preview-01…${String(n).padStart(2, '0')}\`, each with a ConfigMap and a custom resource (Gadget) holding
a finalizer. For ${n - many.targets.filter((t) => t.kind === 'stuck').length} of them a simulated operator (in the server thread) removes the
finalizer ${s.releaseFromMs}–${s.releaseToMs} ms (spread evenly) after the namespace controller marked the Gadget deleted, so each
namespace goes at a controller-driven time. Every 10th (and the last) is **stuck**: nobody removes its finalizer,
so it ends only when the action forces it — the inputs allow exactly that finalizer and \`force-after\` is
${s.forceAfter}, after the last operator release. The namespace controller runs with scaled timings (queue delay
${CONTROLLER.queueDelayMs} ms, recheck ${CONTROLLER.finalizerRecheckMs} ms; the real ones are 5 s / 8 s) so that a run takes seconds. Each run gets a freshly built cluster and a fresh client (no open
connections); the bench process itself is warm by then (section 1 ran first). The engine is the
real one: \`runTeardown(settings, { kube: createKube(kc), clock: systemClock, logger }, context, targets)\`, the
targets from \`resolveTargets(settings, kube)\` as the engine reads them, with default poll and progress intervals, inputs \`${Object.entries(
    many.inputs,
  )
    .filter(([k]) => k !== 'namespaces')
    .map(([k, v]) => `${k}: ${v}`)
    .join(', ')}\` and the names in \`namespaces\`.

**Why the ratio means something.** Every stuck namespace, alone or among ${n}, is gone at the same controller- and
policy-driven moment — force-after after its DELETE, plus one diagnosis, one PATCH and the controller's next recheck —
so the slowest single one (the last stuck one, alone with the same inputs; the slowest self-releasing one alone is
measured too) is the time ${n} would take with zero overhead. ${n} at once can only be slower by what running them
together costs: ${n} resolves, DELETEs and watches at once (one HTTPS connection each), ${many.all[0]!.stuck} diagnoses and forced
writes at the same moment, and the detection of ${n} removals.

${table(['Run', 'Namespaces', 'Wall time', 'Requests', 'Req / ns', 'Linear prediction', 'Snapshots', 'Watches', '429s', 'Bytes', 'Outcomes'], manyRows(r))}

**Ratio:** ${n} at once ${ms(f.allMs)} vs the slowest single ${ms(f.slowestSingleMs)} (stuck alone ${ms(f.singleStuckMs)}, slowest
self-releasing alone ${ms(f.singleReleaseMs)}) = **${times(f.manyRatio)}**. Where the difference comes from (medians): the last DELETE
among ${n} was decided ${ms(lastRequested)} after the start (alone: ${ms(aloneRequested)}) — force-after counts from there — and the
stuck namespaces were removed by the server ${ms(stuckRemoved)} after the start (alone: ${ms(aloneRemoved)}).

**Linear requests.** The prediction is n × what one namespace of each kind costs alone
(${f.perRelease.toFixed(1)} requests for a self-releasing one: GET, DELETE, one watch, the final GET that confirms the name is free; ${f.perStuck.toFixed(1)}
for a stuck one: the same plus one diagnosis — discovery, the namespace's LISTs, the cluster reads — and the guarded
GET + PATCH of the finalizer and a read-back). Requests of the ${n}-run by kind (run 1): ${kinds}.

**429 Retry-After.** In the throttled run the fake answers the first ${many.throttleTimes} requests with 429 and
\`Retry-After: ${RETRY_AFTER_SECONDS}\` (\`cluster.throttle\`). ${f.seen429} 429s were served (${f.injected429} injected over ${many.throttled.length} run(s)); ${spacing.length}
were retried, ${f.unmatched429} never; the retry of the same method + URL arrived min ${ms(Math.min(...spacing))} / median
${ms(median(spacing))} / max ${ms(max(spacing))} after the 429 (request arrival times in the server's log; ≥ ${RETRY_AFTER_SECONDS * 1000} ms + the
injected latency means honoured). The throttled run made ${f.extraRequests >= 0 ? '+' : ''}${f.extraRequests} requests vs the unthrottled median — one retry
per 429, no storm — and took ${ms(median(col(many.throttled, (x) => x.wallMs)))}.`;
}

function detectionSection(r: Results): string {
  const { figures: f, many } = r;
  const row = (name: string, v: readonly number[]): string[] => [
    name,
    String(v.length),
    ms(median(v)),
    ms(percentile(v, 95)),
    ms(max(v)),
  ];
  return `## 3. Detection latency

**Method.** The server-side moment of removal is taken inside the fake: a listener on its store (the one the watch
hub and the controllers use) records \`Date.now()\` synchronously when the namespace is deleted from the store — the
same instant the DELETED watch event is produced. The action's moment is \`goneAt\` in its report (\`clock.now()\`
when the waiter saw the DELETED event or a 404). Both clocks are the same process's \`Date.now()\` (the server is a
worker thread), so the difference has 1 ms resolution and no clock skew. Watch events do not pass through the
injected per-request latency (only the watch request does), so this is the engine's own reaction time plus the
local socket. Measured over every namespace of the runs of section 2.

${table(
  ['Namespaces', 'n', 'Median', 'p95', 'Max'],
  [row(`${many.sizes.namespaces} at once`, f.detectionAll), row('one alone', f.detectionSingle)],
)}`;
}

function startupSection(r: Results): string {
  const { startup: s } = r;
  if (s.bytes === undefined) {
    return `## 4. Start-up

\`dist/index.js\` is missing: build it with \`npm run build\` (the bench never builds). Node alone (\`node -e 0\`):
${spread(s.nodeBaselineMs)}.`;
  }
  const rows = [
    ['`node -e 0` (Node itself, for reference)', spread(s.nodeBaselineMs)],
    [
      '`node dist/index.js`, `INPUT_NAMESPACES=Bad_Name`: load, parse inputs, fail, exit',
      spread(s.badInputMs),
    ],
    ["… minus Node itself (the bundle's own cost)", ms(median(s.badInputMs) - median(s.nodeBaselineMs))],
    [
      '`node dist/index.js`, valid inputs: spawn → first connection to the API server',
      spread(s.firstRequestMs),
    ],
  ];
  return `## 4. Start-up

Child processes of ${s.node} (the bench's own \`process.execPath\`), ${s.badInputMs.length} of each, timed from \`spawn\` to
\`exit\` (or to the first TCP connection on a local port named as the kubeconfig's server; the child is then
killed). The bad-input run exits 1 with the \`::error::Input "namespaces"\` line${s.badInputOk ? '' : ' — **it did not, check the bundle**'}.

${table(['Measurement', 'Median (min–max)'], rows)}

Bundle: \`dist/index.js\` ${bytes(s.bytes)} (${s.bytes.toLocaleString('en')} bytes; ${bytes(s.gzipBytes ?? NaN)} gzipped)${
    s.chunks.length
      ? `, plus ${s.chunks.length} chunk(s) it loads lazily (not on the bad-input path): ${s.chunks
          .map((c) => `\`${c.name}\` ${bytes(c.bytes)}`)
          .join(', ')} — ${bytes(s.bytes + s.chunks.reduce((a, c) => a + c.bytes, 0))} in all, ${bytes(
          (s.gzipBytes ?? 0) + s.chunks.reduce((a, c) => a + c.gzipBytes, 0),
        )} gzipped`
      : ''
  }${s.cliBytes !== undefined ? `; \`dist/cli/index.js\` ${bytes(s.cliBytes)}` : ''}.`;
}

function missesSection(r: Results): string {
  const { figures: f, big } = r;
  const missed = r.targets.filter((t) => t.pass === false);
  if (missed.length === 0) return '## Misses\n\nNone: every measured target is met.';
  const zero = big.oursAtLatency.find((a) => a.latencyMs === 0)?.samples ?? [];
  const cpuMs = median(col(zero, (s) => s.wallMs));
  const high = big.oursAtLatency.find((a) => a.latencyMs > big.latencyMs);
  const highRatio = high
    ? median(col(high.samples, (s) => s.wallMs)) / floorMs(high.samples[0]!.shape, high.latencyMs)
    : NaN;
  const ours: OursSample = big.ours[0]!;
  const perRequest = median(col(big.ours, (s) => s.clientBusyMs)) / ours.requests;
  const lines = missed.map((t) => {
    switch (t.id) {
      case 'floor':
        return `- **${t.name}**: ${t.measured}, over the 2× goal by ${ms(f.oursMs - 2 * f.floorMs)}. Why: at ${big.latencyMs} ms the
  snapshot is CPU-bound, not round-trip-bound — the same snapshot with no latency at all takes ${ms(cpuMs)}, already
  ${times(cpuMs / f.floorMs)} the ${big.latencyMs} ms floor. The client spends about ${perRequest.toFixed(2)} ms of event-loop time per request
  (${ms(median(col(big.ours, (s) => s.clientBusyMs)))} for ${ours.requests} requests, TLS set-up and \`diagnose()\` included), on one
  thread, so ${ours.requests} requests cost more than their
  ${Math.round(f.floorMs / big.latencyMs)} latency rounds; part of the rest is the fake's own CPU (${ms(median(col(big.ours, (s) => s.serverBusyMs)))} busy, single-threaded,
  where a real API server has many cores). At ${high?.latencyMs ?? '?'} ms latency the ratio is ${times(highRatio)}.
  The adapter already makes the connection pool (with one TLS context for all its connections) and the auth
  headers once (refreshed every minute), sends through the pool's own \`request()\` rather than WHATWG \`fetch\`,
  decodes gzip on zlib's thread pool and copies a list page only to parse it (src/kube/send.ts and src/kube/gzip.ts). What is left:
  the fake server is single-threaded and spends about ${ms(median(col(big.ours, (s) => s.serverBusyMs)) / ours.requests)} per request
  (rendering pages of metadata and TLS), and a request waits behind the other ${CONCURRENCY - 1} in flight on each of the two
  threads — a real API server serves them on many cores; on the client, \`JSON.parse\` of the pages and TLS.`;
      case 'kubectl':
      case 'naive':
        return `- **${t.name}**: ${t.measured}. Our snapshot costs ${ms(f.oursMs)} (see the floor discussion); the comparison is on the same server.`;
      case 'many':
        return `- **${t.name}**: ${t.measured}. See section 2 for where the extra time goes (the late DELETEs and the
  simultaneous diagnoses). What would close it: fewer simultaneous new TLS connections at start (one LIST of namespaces
  instead of one GET per name in \`resolveTargets\`, src/targets/resolve.ts; HTTP/2 multiplexing against real API servers).`;
      case 'detection':
        return `- **${t.name}**: ${t.measured}. The waiter records goneAt when it processes the DELETED event; a late value
  means the client's event loop was busy (diagnoses and TLS handshakes of other namespaces at the same moment).`;
      case 'startup':
        return `- **${t.name}**: ${t.measured}. Node itself takes ${ms(f.nodeMs)}; the rest is loading the ${bytes(r.startup.bytes ?? NaN)}
  bundle. What would close it: a smaller bundle (lazy-load the diagnosis/force code and @kubernetes/client-node's
  generated API models, which the adapter does not use), or a V8 compile cache.`;
      case 'real-targeted-kubectl':
        return `- **${t.name}**: ${t.measured}. The real plane is built at a fifth of section 1's size (30 CRD types, not 150),
  and the recipe's cost grows with the number of types (one kubectl process each) while the targeted scan's does not:
  at 150 types on the fake the same ratio is in the targets above. Our side is 20 requests on 1.20 (next line).`;
      case 'real-targeted-requests':
        return `- **${t.name}**: ${t.measured}. What remains over 15 is 1.20's legacy discovery: one request per named group
  besides \`/apis\` (the CRDs are already one metadata-only list, not one GET per type). What would close it there:
  listing each named type at its group's preferred version from \`GET /apis\` without its group-version document (the
  kind would then come from the CRD list); not needed with aggregated discovery, where the same scan is the 15 above.`;
      default:
        return `- **${t.name}**: ${t.measured}.`;
    }
  });
  return `## Misses: by how much, why, and what would close them\n\n${lines.join('\n')}`;
}

export function renderMarkdown(r: Results): string {
  const { machine: m, options: o } = r;
  const head = `# Benchmarks

Generated by \`npm run bench${o.quick ? ' -- --quick' : ''}\` (bench/run.ts) on ${m.date}; do not edit by hand.${o.quick ? ' **Quick mode: small sizes, one run — not the reference figures.**' : ''}

${table(
  ['', ''],
  [
    ['Machine', `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}`],
    ['Node', m.node],
    [
      'Latency',
      `${o.latencyMs} ms per request, injected by the fake API server before it handles each request (watch requests included; watch events are not delayed)`,
    ],
    [
      'Runs',
      `${o.runs} per measurement, the median is reported (min–max in brackets); kubectl recipe: ${r.big.kubectl.length}`,
    ],
    [
      'Server',
      'test/fake-apiserver (in-process HTTPS API server) on its own worker thread, so its CPU does not queue behind the client',
    ],
    ['Total bench time', ms(r.totalMs)],
  ],
)}

## Targets

${table(
  ['Target', 'Goal', 'Measured', 'Verdict'],
  r.targets.map((t) => [t.name, t.goal, t.measured, verdict(t)]),
)}`;

  const how = `## How the figures are measured

- **Wall time**: \`performance.now()\` around the call in the bench's main thread (for the kubectl recipe, around the
  \`bash -c\` child process).
- **Requests / bytes**: the fake's request log (\`cluster.requests\`, \`bytesOut\`) between two marks — every attempt
  the server saw, watches included, response bodies as written (uncompressed). Cross-checked with the adapter's
  \`cost()\` for ours.
- **Busy time**: \`performance.eventLoopUtilization()\` of the server's worker thread and of the main thread.
- **Medians** of ${o.runs} run(s); each run of section 2 uses a freshly built cluster.
- **Ratios** are of medians: kubectl or naive time / ours; ours / floor; ours bytes / naive bytes; ${r.many.sizes.namespaces}-run / slowest
  single run.

### What the bench changes in the fake, from outside (bench/server.ts; test/fake-apiserver is not edited)

- \`Registry.crdTypes()\` deep-copies every stored CRD on each type lookup — every request and every builder call — so
  with the full size's 150 CRDs each request cost the fake ≈ 5 ms of CPU (as much as the injected latency) and
  building the cluster took 18 s. The bench memoizes it,
  invalidated on every CRD change; responses are unchanged.
- \`Store.list()\` sorts and deep-copies all objects of a type on every call, so each page of a paginated list costs
  O(all objects) (10 pages of 5,000 ConfigMaps copy ≈ 200 MB), where a real API server reads one page. For the
  read-only big-namespace scenario only, the bench keeps a list result while the store is unchanged (any write drops
  it). The row "ours on the fake's unmodified lists" shows the time without it.
- The injected latency is changed at run time through the fake's private front state (the constructor is the only
  public way); the store listener of section 3 and the simulated operator of section 2 use the fake's private store
  subscription. A public \`FakeCluster.onChange(fn)\` and \`setLatency(ms)\` would make these unnecessary.`;

  return (
    [
      head,
      bigSection(r),
      stuckSection(r),
      manySection(r),
      detectionSection(r),
      startupSection(r),
      missesSection(r),
      how,
    ].join('\n\n') + '\n'
  );
}
