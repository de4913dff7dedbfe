/**
 * Section 5b: the big namespace on a real control plane WITH kube-controller-manager, after the real namespace
 * controller's pass — the targeted scan vs the full scan vs the kubectl recipe (the real-server counterpart of 1b).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { parseConditions } from '../src/diagnosis/conditions.js';
import type { ScanChoice } from '../src/model/findings.js';
import { createKube } from '../src/kube/client.js';
import type { NamespaceState } from '../src/model/cluster.js';
import { type StartedCluster, raw, sleep } from '../test/fake-apiserver/index.js';
import { countingReader } from '../test/helpers/counting.js';
import { bigTypes, type BigSpec } from './protocol.js';
import { firstPassDue, KUBECTL, sameClock, timedRecipe, type RecipeSample } from './scan.js';
import { median } from './stats.js';

/** One run of ours: what the adapter counted (`kube.cost()`), split by phase. */
export interface RealScanSample {
  wallMs: number;
  requests: number;
  bytes: number;
  /** Requests made by discovery, and the metadata LIST pages of the namespace scan. */
  discoveryRequests: number;
  listRequests: number;
  listedTypes: number;
  findings: number;
  scan: ScanChoice;
}

export interface RealStuckResult {
  targeted: RealScanSample[];
  full: RealScanSample[];
  kubectl: RecipeSample[];
  /** The controller's condition messages, verbatim. */
  contentRemaining: string;
  finalizersRemaining: string;
  /** DELETE → the conditions first seen (polled every 250 ms), and their lastTransitionTime − deletionTimestamp. */
  firstPassSeenMs: number;
  firstPassStampS: number;
  /** Whether a targeted and a full snapshot taken with the same clock gave exactly the same `diagnose()` JSON. */
  sameFindings: boolean;
  /** The scan the same-clock targeted snapshot chose. */
  sameClockScan: ScanChoice;
  findingIds: [string, number][];
  startMs: number;
  buildMs: number;
}

/** `plural.group` → instances the finalizer holds (the custom resources j < withFinalizers, round robin over the types). */
function heldTypes(spec: BigSpec): Map<string, number> {
  const types = bigTypes(spec);
  const held = new Map<string, number>();
  for (let j = 0; j < Math.min(spec.withFinalizers, spec.customResources); j++) {
    const t = types[j % types.length]!;
    const name = `${t.plural}.${t.group}`;
    held.set(name, (held.get(name) ?? 0) + 1);
  }
  return held;
}

async function items(s: StartedCluster, path: string): Promise<{ metadata: { finalizers?: string[] } }[]> {
  const r = await raw(s, 'GET', path);
  if (r.status !== 200) throw new Error(`bench: GET ${path}: ${r.status}`);
  return r.json.items;
}

/**
 * Whether the namespace controller's pass is done as expected: its conditions name exactly the finalizer-held types
 * (with their counts) and the finalizer; no ConfigMap is left; only the finalizer-held custom resources are.
 */
async function passDone(s: StartedCluster, spec: BigSpec, ns: NamespaceState): Promise<boolean> {
  const parsed = parseConditions(ns.conditions);
  const held = heldTypes(spec);
  const named = new Map(
    (parsed.contentRemaining?.counts ?? []).map((c) => [`${c.resource}.${c.group}`, c.count]),
  );
  if (named.size !== held.size || [...held].some(([n, c]) => named.get(n) !== c)) return false;
  if (!parsed.finalizersRemaining?.counts.length) return false;
  if ((await items(s, `/api/v1/namespaces/${spec.namespace}/configmaps`)).length) return false;
  let left = 0;
  for (const t of bigTypes(spec)) {
    const crs = await items(s, `/apis/${t.group}/v1/namespaces/${spec.namespace}/${t.plural}`);
    if (crs.some((cr) => !cr.metadata.finalizers?.length)) return false;
    left += crs.length;
  }
  return left === [...held.values()].reduce((a, b) => a + b, 0);
}

async function ours(kc: KubeConfig, ns: NamespaceState, scan: 'auto' | 'full'): Promise<RealScanSample> {
  const kube = createKube(kc);
  try {
    const { reader, listed, discovery } = countingReader(kube, ns.name);
    const t = performance.now();
    const snapshot = await takeSnapshot(reader, ns, { scan });
    const findings = diagnose(snapshot);
    const wallMs = performance.now() - t;
    const cost = kube.cost();
    const [discoveryRequests, listRequests] = [discovery(), listed.length];
    return {
      wallMs,
      requests: cost.requests,
      bytes: cost.bytes,
      discoveryRequests,
      listRequests,
      listedTypes: snapshot.discovery.listedTypes,
      findings: findings.length,
      scan: snapshot.scan,
    };
  } finally {
    await kube.close();
  }
}

/**
 * After the namespace was built and DELETEd (at `deletedAt`, epoch ms) on a control plane whose controller-manager
 * runs: wait for the namespace controller's pass and until the deletion is older than its first pass, then measure.
 */
export async function measureStuck(
  plane: { admin: StartedCluster },
  spec: BigSpec,
  deletedAt: number,
  runs: number,
  kubectlRuns: number,
  log: (line: string) => void,
): Promise<Omit<RealStuckResult, 'startMs' | 'buildMs'>> {
  const kc = new KubeConfig();
  kc.loadFromString(plane.admin.kubeconfig);
  const setup = createKube(kc);
  let seen: NamespaceState | undefined;
  let firstPassSeenMs = NaN;
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      const ns = await setup.getNamespace(spec.namespace);
      if (!ns) throw new Error(`bench: ${spec.namespace} is gone; the finalizers should hold it`);
      const remaining = ns.conditions.some((c) => c.type === 'NamespaceContentRemaining');
      if (remaining && Number.isNaN(firstPassSeenMs)) firstPassSeenMs = Date.now() - deletedAt;
      seen = ns;
      if (remaining && (await passDone(plane.admin, spec, ns))) break;
      if (Date.now() > deadline) {
        throw new Error(
          `bench: the namespace controller's pass did not leave the expected state: ${JSON.stringify(ns.conditions)}`,
        );
      }
      await sleep(250);
    }
    await firstPassDue(seen);
    seen = (await setup.getNamespace(spec.namespace)) ?? seen;
  } finally {
    await setup.close();
  }
  const ns = seen;
  const message = (type: string): string => ns.conditions.find((c) => c.type === type)?.message ?? '';
  const transition = ns.conditions.find((c) => c.type === 'NamespaceContentRemaining')?.lastTransitionTime;
  const result: Omit<RealStuckResult, 'startMs' | 'buildMs'> = {
    targeted: [],
    full: [],
    kubectl: [],
    contentRemaining: message('NamespaceContentRemaining'),
    finalizersRemaining: message('NamespaceFinalizersRemaining'),
    firstPassSeenMs,
    firstPassStampS: (Date.parse(transition ?? '') - Date.parse(ns.deletionTimestamp ?? '')) / 1000,
    sameFindings: false,
    sameClockScan: { mode: 'full', reason: 'requested', detail: 'not measured' },
    findingIds: [],
  };
  log(
    `real server, after the controller's pass (seen ${Math.round(firstPassSeenMs)} ms after the DELETE): ${result.contentRemaining}`,
  );
  // One discarded warm-up of each, then the runs, in turn.
  const kubeconfig = plane.admin.kubeconfig;
  for (let run = -1; run < Math.max(runs, kubectlRuns); run++) {
    const targeted = run < runs ? await ours(kc, ns, 'auto') : undefined;
    const full = run < runs ? await ours(kc, ns, 'full') : undefined;
    const kubectl =
      KUBECTL && kubectlRuns > 0 && run < kubectlRuns
        ? await timedRecipe(kubeconfig, spec.namespace, KUBECTL)
        : undefined;
    if (run < 0) continue;
    if (targeted) result.targeted.push(targeted);
    if (full) result.full.push(full);
    if (kubectl) result.kubectl.push(kubectl);
    log(
      `real server, after the controller's pass: run ${run + 1}: targeted (${targeted?.scan.mode ?? '-'}) ` +
        `${Math.round(targeted?.wallMs ?? NaN)} ms, full ${Math.round(full?.wallMs ?? NaN)} ms` +
        (kubectl ? `, kubectl recipe ${Math.round(kubectl.wallMs)} ms` : ''),
    );
  }
  Object.assign(result, await sameClock(kc, ns));
  log(
    `real server, after the controller's pass: targeted ${Math.round(median(result.targeted.map((s) => s.wallMs)))} ms ` +
      `(${result.targeted[0]?.requests} requests), full ${Math.round(median(result.full.map((s) => s.wallMs)))} ms, ` +
      `findings ${result.sameFindings ? 'identical' : 'DIFFER'} (medians)`,
  );
  return result;
}
