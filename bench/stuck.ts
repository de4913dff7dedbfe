/**
 * Scenario 1b: the big namespace after one pass of the namespace controller — what its finalizers hold is left, and
 * its conditions name the remaining types and counts. The targeted scan vs the full scan vs the kubectl recipe.
 */
import { createKube } from '../src/kube/client.js';
import { runPeers, type PeerResult } from './peers.js';
import {
  firstPassDue,
  inTurn,
  ours,
  recipeOnFake,
  sameClock,
  type KubectlSample,
  type OnFake,
  type OursSample,
} from './scan.js';

/** The two scans' row labels, the same in section 1b (the fake) and 5b (the real server). */
export const SCAN_LABELS = {
  targeted: '**targeted**: `takeSnapshot(kube, ns)` (default `scan: auto`) + `diagnose()`',
  full: "full: `takeSnapshot(kube, ns, { scan: 'full' })` + `diagnose()`",
} as const;

export interface StuckResult {
  targeted: OursSample[];
  full: OursSample[];
  kubectl: KubectlSample[];
  /** The controller's NamespaceContentRemaining message. */
  remaining: string;
  /** Whether the targeted and the full scan, taken at the same instant, gave exactly the same findings. */
  sameFindings: boolean;
  /** The one-process kubectl recipe and the metadata-only pool scan. */
  peers?: PeerResult;
}

export async function runStuck(f: OnFake): Promise<StuckResult> {
  const { remote, kc, namespace, opts, log } = f;
  await remote.controllerPass(namespace);
  const setup = createKube(kc);
  await firstPassDue(await setup.getNamespace(namespace));
  const ns = await setup.getNamespace(namespace);
  await setup.close();
  if (!ns) throw new Error(`bench: ${namespace} is gone after the controller's pass`);
  const remaining = ns.conditions.find((c) => c.type === 'NamespaceContentRemaining')?.message ?? '';
  log(`stuck namespace: after the controller's pass: ${remaining}`);
  const result: StuckResult = { targeted: [], full: [], kubectl: [], remaining, sameFindings: false };
  await ours(f, ns);
  await ours(f, ns, 'full');
  await inTurn(
    opts,
    async () => {
      result.targeted.push(await ours(f, ns));
      result.full.push(await ours(f, ns, 'full'));
    },
    async (kubectl) => void result.kubectl.push(await recipeOnFake(f, kubectl)),
    (run) =>
      log(
        `stuck namespace: run ${run + 1}: targeted ${Math.round(result.targeted[run]?.wallMs ?? NaN)} ms, full ` +
          `${Math.round(result.full[run]?.wallMs ?? NaN)} ms` +
          (result.kubectl[run] ? `, kubectl recipe ${Math.round(result.kubectl[run]!.wallMs)} ms` : ''),
      ),
  );
  result.peers = await runPeers(f);
  // Both scans at one instant (findings state ages, so timed runs minutes apart differ in their text).
  const same = await sameClock(kc, ns);
  result.sameFindings = same.sameClockScan.mode === 'targeted' && same.sameFindings;
  return result;
}
