/**
 * What sections 1, 1b, 5 and 5b share: our snapshot measured against the fake and split the way the floor formula
 * needs it, the kubectl recipe run with a cold discovery cache, and the wait for the namespace controller's first pass.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { CONTROLLER_FIRST_PASS_MS } from '../src/diagnosis/snapshot/scan-choice.js';
import { createKube, type KubeClientOptions } from '../src/kube/client.js';
import type { NamespaceState } from '../src/model/cluster.js';
import type { ScanChoice } from '../src/model/findings.js';
import { sleep } from '../test/fake-apiserver/index.js';
import type { Options } from './args.js';
import { measure, tally, type Sample } from './measure.js';
import type { LoggedRequest } from './protocol.js';
import type { RemoteCluster } from './remote.js';

/** takeSnapshot's defaults (src/diagnosis/snapshot/take.ts). */
export const CONCURRENCY = 8;
export const PAGE_SIZE = 500;

export const RECIPE =
  'kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n "$NS"';

export const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
export const NO_KUBECTL = 'kubectl not found in /usr/bin or /usr/local/bin';

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

/** One namespace on the fake in the bench's worker, and what every measurement of it needs. */
export interface OnFake {
  remote: RemoteCluster;
  kc: KubeConfig;
  kubeconfig: string;
  namespace: string;
  opts: Options;
  log: (line: string) => void;
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

/** One measured snapshot + diagnosis of `ns` on a fresh adapter. */
export async function ours(
  f: OnFake,
  ns: NamespaceState,
  scan: 'auto' | 'full' = 'auto',
  client: KubeClientOptions = {},
): Promise<OursSample> {
  const kube = createKube(f.kc, client);
  try {
    const m = await measure(f.remote, async () => {
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

const nonEmptyLines = (out: string): number => out.split('\n').filter((l) => l.trim() !== '').length;

/**
 * One run of a recipe against the fake, measured like ours; its kubectl processes are counted by their
 * `GET /version` unless given.
 */
export async function recipeOnFake(
  f: OnFake,
  kubectl: string,
  recipe = RECIPE,
  processes?: number,
): Promise<KubectlSample> {
  const m = await measure(f.remote, () => runRecipe(f.kubeconfig, f.namespace, kubectl, recipe));
  const { code, out, err } = m.value;
  if (code !== 0)
    f.log(`${f.namespace}: a kubectl recipe exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`);
  return {
    ...m.sample,
    clientBusyMs: NaN,
    exitCode: code,
    lines: nonEmptyLines(out),
    kubectlProcesses: processes ?? m.log.filter((r) => r.path === '/version').length,
  };
}

export interface RecipeSample {
  wallMs: number;
  exitCode: number;
  lines: number;
}

/** One run of the recipe against any server, timed from outside. */
export async function timedRecipe(
  kubeconfig: string,
  namespace: string,
  kubectl: string,
  recipe = RECIPE,
): Promise<RecipeSample> {
  const t = performance.now();
  const r = await runRecipe(kubeconfig, namespace, kubectl, recipe);
  return { wallMs: performance.now() - t, exitCode: r.code, lines: nonEmptyLines(r.out) };
}

/**
 * `runs` runs of `each` and `kubectlRuns` runs of `recipe` (none without kubectl), in turn — run 1 of both, then
 * run 2, … — with `after(run)` after each.
 */
export async function inTurn(
  opts: Options,
  each: () => Promise<void>,
  recipe: (kubectl: string) => Promise<void>,
  after: (run: number) => void,
): Promise<void> {
  const kubectlRuns = KUBECTL ? opts.kubectlRuns : 0;
  for (let run = 0; run < Math.max(opts.runs, kubectlRuns); run++) {
    if (run < opts.runs) await each();
    if (KUBECTL && run < kubectlRuns) await recipe(KUBECTL);
    after(run);
  }
}

/** The action trusts the conditions only once the controller's first pass is due (5 s after the deletion). */
export async function firstPassDue(ns: NamespaceState | undefined): Promise<void> {
  const wait = Date.parse(ns?.deletionTimestamp ?? '') + CONTROLLER_FIRST_PASS_MS + 1000 - Date.now();
  if (wait > 0) await sleep(wait);
}

/**
 * A targeted and a full snapshot taken with one clock (findings state ages, so timed runs apart differ in their
 * text): whether `diagnose()` gave exactly the same JSON, the scan the targeted one chose, and its findings.
 */
export async function sameClock(
  kc: KubeConfig,
  ns: NamespaceState,
): Promise<{ sameFindings: boolean; sameClockScan: ScanChoice; findingIds: [string, number][] }> {
  const kube = createKube(kc);
  try {
    const now = Date.now();
    const targeted = await takeSnapshot(kube, ns, { clock: () => now });
    const full = await takeSnapshot(kube, ns, { clock: () => now, scan: 'full' });
    const findings = diagnose(targeted);
    return {
      sameFindings: JSON.stringify(findings) === JSON.stringify(diagnose(full)),
      sameClockScan: targeted.scan,
      findingIds: tally(findings.map((f) => f.id)),
    };
  } finally {
    await kube.close();
  }
}
