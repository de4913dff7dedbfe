/** Scenario 1: diagnosing one big Terminating namespace — ours vs the kubectl recipe vs a naive client-node scan. */
import { KubeConfig } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { createKube, type KubeClientOptions } from '../src/kube/client.js';
import type { ScanChoice } from '../src/model/findings.js';
import type { NamespaceState } from '../src/model/cluster.js';
import type { Options } from './args.js';
import { measure, tally, type Sample } from './measure.js';
import { naiveScan, type NaiveResult } from './naive.js';
import { runPeers, type PeerResult } from './peers.js';
import type { BigSpec, LoggedRequest } from './protocol.js';
import type { RemoteCluster } from './remote.js';
import { runStuck, type StuckResult } from './stuck.js';

/** takeSnapshot's defaults (src/diagnosis/snapshot.ts). */
export const CONCURRENCY = 8;
export const PAGE_SIZE = 500;

export const RECIPE =
  'kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n "$NS"';

export const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));

/** Our requests, split the way the floor formula needs them. */
export interface OursShape {
  discovery: number;
  scan: number;
  /** Distinct types listed, and the longest chain of pages of one type. */
  scanTypes: number;
  maxPages: number;
  clusterReads: [string, number][];
  clusterReadCount: number;
  /** Bytes on the wire of the largest LIST page. */
  largestPage: number;
  /** Reported by the snapshot itself. */
  listedTypes: number;
  findings: number;
  findingIds: [string, number][];
  readErrors: number;
  clientCost: { requests: number; bytes: number };
  /** Which scan ran, and the findings as JSON (to compare scans). */
  scanChoice: ScanChoice;
  findingsJson: string;
}

export interface OursSample extends Sample {
  shape: OursShape;
}

export interface KubectlSample extends Sample {
  exitCode: number;
  lines: number;
  kubectlProcesses: number;
}

export interface BigResult {
  spec: BigSpec;
  latencyMs: number;
  ours: OursSample[];
  /** The same with `gzip: false`: the bytes on the wire without compression. */
  oursPlain: OursSample[];
  oursCold: OursSample;
  /** The same, with the fake's O(all objects)-per-page list left as it is. */
  oursUnmodifiedFake: OursSample[];
  oursAtLatency: { latencyMs: number; samples: OursSample[] }[];
  naive: Sample[];
  naiveCold: Sample;
  naiveInfo: NaiveResult;
  kubectl: KubectlSample[];
  kubectlSkipped?: string;
  kubectlPath?: string;
  /** 2 discovery + one paged LIST per listable namespaced type, as the spec predicts it. */
  expectedScan: number;
  /** The same namespace after the controller's pass: targeted vs full scan vs the recipe. */
  stuck?: StuckResult;
  /** The one-process kubectl recipe and the metadata-only pool scan. */
  peers?: PeerResult;
}

function shapeOf(
  log: LoggedRequest[],
  namespace: string,
): Omit<
  OursShape,
  'listedTypes' | 'findings' | 'findingIds' | 'readErrors' | 'clientCost' | 'scanChoice' | 'findingsJson'
> {
  const inNs = `/namespaces/${namespace}/`;
  const discovery = log.filter((r) => r.path === '/api' || r.path === '/apis');
  // The scan's lists ask for metadata only; other reads in the namespace (its RoleBindings) are cluster reads.
  const scan = log.filter(
    (r) => r.path.includes(inNs) && (r.accept ?? '').includes('PartialObjectMetadataList'),
  );
  const cluster = log.filter((r) => !discovery.includes(r) && !scan.includes(r));
  const pages = tally(scan.map((r) => r.path));
  return {
    discovery: discovery.length,
    scan: scan.length,
    scanTypes: pages.length,
    maxPages: pages[0]?.[1] ?? 0,
    clusterReads: tally(
      cluster.map((r) =>
        `${r.method} ${r.path}${r.query ? `?${r.query.replace(/(^|&)limit=\d+/, '').replace(/^&/, '')}` : ''}`.replace(
          /\?$/,
          '',
        ),
      ),
    ),
    clusterReadCount: cluster.length,
    largestPage: Math.max(0, ...scan.map((r) => r.bytesOut)),
  };
}

/**
 * Cluster reads that do not depend on the scan and run beside it: the APIService list, and — when the controller's
 * conditions already name a custom finalizer — what finds its controller (workloads, RBAC, Leases).
 */
export function besideScan(s: OursShape): number {
  const beside = (k: string): boolean =>
    k.endsWith('/apiservices') ||
    (s.scanChoice.mode === 'targeted' &&
      /\/(deployments|statefulsets|daemonsets|leases|clusterroles|clusterrolebindings|rolebindings)$/.test(
        k,
      ));
  return s.clusterReads.filter(([k]) => beside(k)).reduce((a, [, n]) => a + n, 0);
}

/**
 * The latency floor of one snapshot with a pool of `c`: discovery (2 requests in parallel) = 1 round; the scan and
 * the reads beside it = max(ceil(requests / c), longest page chain) rounds; the cluster reads that depend on the
 * scan = ceil(reads / c) rounds.
 */
export function floorMs(s: OursShape, latencyMs: number, c = CONCURRENCY): number {
  const beside = besideScan(s);
  const rounds =
    (s.discovery > 0 ? 1 : 0) +
    Math.max(Math.ceil((s.scan + beside) / c), s.maxPages) +
    Math.ceil((s.clusterReadCount - beside) / c);
  return rounds * latencyMs;
}

export async function ours(
  remote: RemoteCluster,
  kc: KubeConfig,
  ns: NamespaceState,
  scan: 'auto' | 'full' = 'auto',
  client: KubeClientOptions = {},
): Promise<OursSample> {
  const kube = createKube(kc, client);
  try {
    const m = await measure(remote, async () => {
      const snapshot = await takeSnapshot(kube, ns, { scan });
      return { snapshot, findings: diagnose(snapshot) };
    });
    const { snapshot, findings } = m.value;
    return {
      ...m.sample,
      shape: {
        ...shapeOf(m.log, ns.name),
        listedTypes: snapshot.discovery.listedTypes,
        findings: findings.length,
        findingIds: tally(findings.map((f) => f.id)),
        readErrors: snapshot.readErrors.length,
        clientCost: snapshot.cost,
        scanChoice: snapshot.scan,
        findingsJson: JSON.stringify(findings),
      },
    };
  } finally {
    await kube.close();
  }
}

/** Run the kubectl recipe once, with a cold discovery cache. */
export function runRecipe(
  kubeconfig: string,
  namespace: string,
  kubectl: string,
  recipe = RECIPE,
): Promise<{ code: number; out: string; err: string }> {
  const home = mkdtempSync(join(tmpdir(), 'nt-bench-kubectl-'));
  const config = join(home, 'kubeconfig');
  writeFileSync(config, kubeconfig);
  // A fresh HOME per run: the discovery cache (~/.kube/cache) starts cold, as on a fresh CI runner; the recipe's
  // first kubectl fills it and the rest reuse it.
  const env = { PATH: `${dirname(kubectl)}:/usr/bin:/bin`, HOME: home, KUBECONFIG: config, NS: namespace };
  return new Promise((resolve) => {
    execFile('bash', ['-c', recipe], { env, maxBuffer: 1 << 30, timeout: 600_000 }, (error, out, err) => {
      rmSync(home, { recursive: true, force: true });
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) || 1 : 0, out, err });
    });
  });
}

export async function runBig(
  remote: RemoteCluster,
  opts: Options,
  log: (line: string) => void,
): Promise<BigResult> {
  const s = opts.sizes;
  const spec: BigSpec = {
    kind: 'big',
    namespace: 'preview-big',
    types: s.types,
    groups: s.groups,
    configMaps: s.configMaps,
    configMapBytes: s.configMapBytes,
    customResources: s.customResources,
    withFinalizers: s.withFinalizers,
  };
  log(
    `big namespace: building ${s.types} CRD types in ${s.groups} groups, ${s.configMaps} ConfigMaps, ${s.customResources} custom resources`,
  );
  const started = await remote.start({ spec, latencyMs: opts.latencyMs });
  await remote.fastLists(true);
  const kc = new KubeConfig();
  kc.loadFromString(started.kubeconfig);
  const setup = createKube(kc);
  const ns = await setup.getNamespace(spec.namespace);
  await setup.close();
  if (!ns?.deletionTimestamp) throw new Error(`bench: ${spec.namespace} is not Terminating`);

  // Warm-up: the first run of each in this process is reported as "cold"; ours gets a second, discarded one so that
  // the measured runs start from the same state (and not right after the naive scan's 20 MB of garbage).
  const naiveCold = (await measure(remote, () => naiveScan(kc, spec.namespace))).sample;
  const oursCold = await ours(remote, kc, ns);
  await ours(remote, kc, ns);
  await ours(remote, kc, ns, 'auto', { gzip: false });
  const result: BigResult = {
    spec,
    latencyMs: opts.latencyMs,
    ours: [],
    oursPlain: [],
    oursCold,
    oursUnmodifiedFake: [],
    oursAtLatency: [],
    naive: [],
    naiveCold,
    naiveInfo: { types: 0, objects: 0, withFinalizers: [] },
    kubectl: [],
    kubectlPath: KUBECTL,
    expectedScan: 0,
  };
  log(
    `big namespace: warm-up done (ours ${Math.round(oursCold.wallMs)} ms, naive ${Math.round(naiveCold.wallMs)} ms cold)`,
  );

  // Ours first, back to back (with and without gzip in turn): not right after the naive scan's 20 MB of garbage or a
  // kubectl run's CPU. Ours is cheap, so at least 5 runs, for a steadier median on a noisy machine.
  for (let run = 0; run < Math.max(opts.runs, 5); run++) {
    result.ours.push(await ours(remote, kc, ns));
    result.oursPlain.push(await ours(remote, kc, ns, 'auto', { gzip: false }));
  }
  const kubectlRuns = KUBECTL ? opts.kubectlRuns : 0;
  if (!KUBECTL) result.kubectlSkipped = 'kubectl not found in /usr/bin or /usr/local/bin';
  else if (opts.kubectlRuns === 0) result.kubectlSkipped = '--kubectl-runs 0';
  for (let run = 0; run < Math.max(opts.runs, kubectlRuns); run++) {
    if (run < opts.runs) {
      const naive = await measure(remote, () => naiveScan(kc, spec.namespace));
      result.naive.push(naive.sample);
      result.naiveInfo = naive.value;
    }
    if (KUBECTL && run < kubectlRuns) {
      const m = await measure(remote, () => runRecipe(started.kubeconfig, spec.namespace, KUBECTL));
      const { code, out, err } = m.value;
      if (code !== 0)
        log(
          `big namespace: the kubectl recipe exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`,
        );
      result.kubectl.push({
        ...m.sample,
        clientBusyMs: NaN,
        exitCode: code,
        lines: out.split('\n').filter((l) => l.trim() !== '').length,
        kubectlProcesses: m.log.filter((r) => r.path === '/version').length,
      });
    }
    const k = result.kubectl[run];
    log(
      `big namespace: run ${run + 1}: ours ${fmt(result.ours[run]?.wallMs)}, naive ${fmt(result.naive[run]?.wallMs)}` +
        (k ? `, kubectl recipe ${fmt(k.wallMs)}` : ''),
    );
  }

  result.peers = await runPeers(remote, kc, started.kubeconfig, spec.namespace, opts, log);

  // How much of our time is the client's CPU, and how much the fake's O(all)-per-page lists would add.
  // Ours alone is cheap: these take at least 5 runs, for a steadier median on a noisy machine.
  const extraRuns = Math.max(opts.runs, 5);
  for (const latencyMs of [...new Set([0, opts.latencyMs * 4 || 20])].filter((l) => l !== opts.latencyMs)) {
    await remote.latency(latencyMs);
    const samples: OursSample[] = [];
    for (let run = 0; run < extraRuns; run++) samples.push(await ours(remote, kc, ns));
    result.oursAtLatency.push({ latencyMs, samples });
  }
  await remote.latency(opts.latencyMs);
  await remote.fastLists(false);
  for (let run = 0; run < extraRuns; run++) result.oursUnmodifiedFake.push(await ours(remote, kc, ns));
  await remote.fastLists(true);

  const first = result.ours[0]!.shape;
  result.expectedScan = first.listedTypes + Math.max(0, Math.ceil(spec.configMaps / PAGE_SIZE) - 1);
  await remote.fastLists(false);
  result.stuck = await runStuck(remote, kc, started.kubeconfig, spec.namespace, opts, log);
  await remote.stop();
  return result;
}

function fmt(v: number | undefined): string {
  return v === undefined ? '-' : `${Math.round(v)} ms`;
}
