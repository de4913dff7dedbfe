/**
 * The strongest peers of our scan on the big namespace: the recipe an expert pastes (one kubectl process for every
 * type) and a finalizer plugin's metadata-only pool scan (bench/pool-scan.ts). Measured in section 1 (a full scan:
 * the controller has written no conditions yet) and 1b (after its pass: our scan is targeted).
 */
import { measure, type Sample } from './measure.js';
import { poolScan, POOL, type PoolScanResult } from './pool-scan.js';
import {
  floorMs,
  inTurn,
  NO_KUBECTL,
  KUBECTL,
  recipeOnFake,
  type KubectlSample,
  type OnFake,
  type OursSample,
} from './scan.js';
import { median, ratio, shortMs as t, type Target } from './stats.js';

export const RECIPE_ONE =
  'kubectl get $(kubectl api-resources --verbs=list --namespaced -o name | paste -sd, -) -n "$NS" --ignore-not-found --show-kind';

export const KUBECTL_GOAL = 10;
export const POOL_GOAL = 2;

export interface PeerResult {
  kubectlOne: KubectlSample[];
  kubectlSkipped?: string;
  pool: Sample[];
  poolInfo: PoolScanResult;
}

/** One run of each peer per run of the section, in turn. */
export async function runPeers(f: OnFake): Promise<PeerResult> {
  const { kc, namespace, log } = f;
  const result: PeerResult = {
    kubectlOne: [],
    kubectlSkipped: KUBECTL ? undefined : NO_KUBECTL,
    pool: [],
    poolInfo: { types: 0, objects: 0, withFinalizers: 0, discovery: 0, pages: 0 },
  };
  await poolScan(kc, namespace); // warm-up, as ours has
  await inTurn(
    f.opts,
    async () => {
      const m = await measure(f.remote, () => poolScan(kc, namespace));
      result.pool.push(m.sample);
      result.poolInfo = m.value;
    },
    async (kubectl) => void result.kubectlOne.push(await recipeOnFake(f, kubectl, RECIPE_ONE, 2)),
    (run) =>
      log(
        `peers (${namespace}): run ${run + 1}: pool scan ${Math.round(result.pool[run]?.wallMs ?? NaN)} ms` +
          (result.kubectlOne[run]
            ? `, one-process recipe ${Math.round(result.kubectlOne[run]!.wallMs)} ms`
            : ''),
      ),
  );
  return result;
}

const wall = (xs: readonly Sample[]): number => median(xs.map((s) => s.wallMs));
const reqs = (xs: readonly Sample[]): number => median(xs.map((s) => s.requests));

/** What bounds a ratio that misses its goal, from the figures of the run. */
function bound(ours: readonly OursSample[], peers: PeerResult, kubectl: boolean, floorMs: number): string {
  const shape = ours[0]!.shape;
  const cpu = median(ours.map((s) => s.clientBusyMs));
  const what = kubectl
    ? `kubectl sends ${reqs(peers.kubectlOne)} requests one after the other`
    : `the pool scan sends ${peers.poolInfo.discovery} discovery requests and ${peers.poolInfo.pages} LIST pages, 8 at a time`;
  return (
    `; bounded by the requests both must send: ours ${shape.discovery} discovery, ${shape.scan} LIST pages of ` +
    `${shape.scanTypes} types and ${shape.clusterReadCount} cluster reads for the diagnosis; ${what}. ` +
    `Our latency floor ${t(floorMs)}, our client busy ${t(cpu)} of ${t(wall(ours))}`
  );
}

/** Both peers' targets in one state of the namespace (`stuck`: after the controller's pass). */
export function peerTargets(
  label: 'full' | 'stuck',
  ours: readonly OursSample[],
  latencyMs: number,
  peers?: PeerResult,
): Target[] {
  if (!peers) return [];
  const floor = floorMs(ours[0]!.shape, latencyMs);
  const o = wall(ours);
  const k = peers.kubectlOne.length ? wall(peers.kubectlOne) / o : NaN;
  const p = wall(peers.pool) / o;
  // Without the controller's pass both scans must send the same LIST page per type, so their ratio is bounded by
  // those pages: parity at fewer requests is the claim there; ≥ 2× belongs to the case targeting can win.
  const poolGoal = label === 'stuck' ? POOL_GOAL : 1;
  const fewer = label === 'stuck' || reqs(ours) < reqs(peers.pool);
  return [
    {
      id: `peer-kubectl-${label}`,
      name: `Big namespace${label === 'stuck' ? ' after the controller pass' : ''}: ours vs the one-process kubectl recipe`,
      goal: `≥ ${KUBECTL_GOAL}× faster`,
      pass: peers.kubectlOne.length ? k >= KUBECTL_GOAL : undefined,
      measured: peers.kubectlOne.length
        ? `${ratio(k)} (${t(wall(peers.kubectlOne))} vs ${t(o)})` +
          (k >= KUBECTL_GOAL ? '' : bound(ours, peers, true, floor))
        : `not measured: ${peers.kubectlSkipped ?? '--kubectl-runs 0'}`,
    },
    {
      id: `peer-pool-${label}`,
      name: `Big namespace${label === 'stuck' ? ' after the controller pass' : ''}: ours vs a metadata-only pool scan (no targeting, legacy discovery)`,
      goal:
        label === 'stuck'
          ? `≥ ${POOL_GOAL}× faster`
          : 'not slower (≥ 1×), with fewer requests: both must send one LIST page per type',
      pass: p >= poolGoal && fewer,
      measured:
        `${ratio(p)} (${t(wall(peers.pool))} vs ${t(o)}; ${reqs(peers.pool)} vs ${reqs(ours)} requests)` +
        (p >= POOL_GOAL ? '' : bound(ours, peers, false, floor)),
    },
  ];
}

/** The peers' bullets under a section's table. */
export function peerNotes(peers: PeerResult): string {
  const k = peers.kubectlOne[0];
  return `- **one-process kubectl recipe**: \`${RECIPE_ONE}\` by \`bash -c\` (two kubectl processes: \`api-resources\`
  discovers, \`get\` lists every type one after the other and asks the server for tables; cold discovery cache, as
  for the recipe above)${k ? `: exit code ${k.exitCode}, ${k.lines} output lines` : `: ${peers.kubectlSkipped ?? 'not run'}`}.
- **metadata-only pool scan** (bench/pool-scan.ts): a finalizer plugin's scan — legacy discovery (\`/api\`, \`/apis\`,
  then each group-version), then a metadata-only LIST (pages of 500) of all ${peers.poolInfo.types} listable namespaced types, ${POOL}
  at a time, over one keep-alive agent with gzip; no targeting, no diagnosis: ${peers.poolInfo.discovery} discovery requests and
  ${peers.poolInfo.pages} LIST pages. It found ${peers.poolInfo.objects} objects,
  ${peers.poolInfo.withFinalizers} with finalizers.`;
}

/** `--only big`: the peers' rows of sections 1 and 1b, with the rows they sit beside. */
export function renderPeers(big: {
  ours: readonly OursSample[];
  kubectl: readonly Sample[];
  peers?: PeerResult;
  stuck?: { targeted: readonly OursSample[]; kubectl: readonly Sample[]; peers?: PeerResult };
}): string {
  const row = (name: string, xs: readonly Sample[], oursMs: number): string =>
    `| ${name} | ${t(wall(xs))} | ${reqs(xs)} | ${(median(xs.map((s) => s.bytes)) / 1024).toFixed(1)} KiB (${(median(xs.map((s) => s.bodyBytes)) / 1024).toFixed(1)} KiB decoded) | ${ratio(wall(xs) / oursMs)} |`;
  const table = (
    title: string,
    ours: readonly OursSample[],
    peers: PeerResult | undefined,
    kubectl: readonly Sample[],
  ): string => {
    const o = wall(ours);
    const rows = [row('ours', ours, o)];
    if (peers?.kubectlOne.length) rows.push(row('one-process kubectl recipe', peers.kubectlOne, o));
    if (peers) rows.push(row('metadata-only pool scan', peers.pool, o));
    if (kubectl.length) rows.push(row('kubectl recipe, one process per type', kubectl, o));
    return `### ${title}\n\n| Approach | Wall time | Requests | Bytes on the wire | Time vs ours |\n| --- | --- | --- | --- | --- |\n${rows.join('\n')}${peers ? `\n\n${peerNotes(peers)}` : ''}`;
  };
  const parts = [table('1. Big namespace (full scan)', big.ours, big.peers, big.kubectl)];
  if (big.stuck)
    parts.push(
      table(
        '1b. After the controller pass (targeted scan)',
        big.stuck.targeted,
        big.stuck.peers,
        big.stuck.kubectl,
      ),
    );
  return parts.join('\n\n');
}
