/**
 * Scenario 1b: the big namespace after one pass of the namespace controller — what its finalizers hold is left, and
 * its conditions name the remaining types and counts. The targeted scan vs the full scan vs the kubectl recipe.
 */
import type { KubeConfig } from '@kubernetes/client-node';
import { CONTROLLER_FIRST_PASS_MS } from '../src/diagnosis/scan-choice.js';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { createKube } from '../src/kube/client.js';
import type { NamespaceState } from '../src/model/cluster.js';
import type { Options } from './args.js';
import { KUBECTL, ours, runRecipe, type KubectlSample, type OursSample } from './big.js';
import { measure } from './measure.js';
import { runPeers, type PeerResult } from './peers.js';
import type { RemoteCluster } from './remote.js';

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

export async function runStuck(
  remote: RemoteCluster,
  kc: KubeConfig,
  kubeconfig: string,
  namespace: string,
  opts: Options,
  log: (line: string) => void,
): Promise<StuckResult> {
  await remote.controllerPass(namespace);
  const setup = createKube(kc);
  let ns = await setup.getNamespace(namespace);
  // The action trusts the conditions only once the controller's first pass is due (5 s after the deletion).
  const wait = Date.parse(ns?.deletionTimestamp ?? '') + CONTROLLER_FIRST_PASS_MS + 1000 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  ns = await setup.getNamespace(namespace);
  await setup.close();
  if (!ns) throw new Error(`bench: ${namespace} is gone after the controller's pass`);
  const remaining = ns.conditions.find((c) => c.type === 'NamespaceContentRemaining')?.message ?? '';
  log(`stuck namespace: after the controller's pass: ${remaining}`);
  const result: StuckResult = { targeted: [], full: [], kubectl: [], remaining, sameFindings: false };
  await ours(remote, kc, ns);
  await ours(remote, kc, ns, 'full');
  const kubectl = KUBECTL;
  const kubectlRuns = kubectl ? opts.kubectlRuns : 0;
  for (let run = 0; run < Math.max(opts.runs, kubectlRuns); run++) {
    if (run < opts.runs) {
      result.targeted.push(await ours(remote, kc, ns));
      result.full.push(await ours(remote, kc, ns, 'full'));
    }
    if (kubectl && run < kubectlRuns) {
      const m = await measure(remote, () => runRecipe(kubeconfig, namespace, kubectl));
      result.kubectl.push({
        ...m.sample,
        clientBusyMs: NaN,
        exitCode: m.value.code,
        lines: m.value.out.split('\n').filter((l) => l.trim() !== '').length,
        kubectlProcesses: m.log.filter((r) => r.path === '/version').length,
      });
    }
    log(
      `stuck namespace: run ${run + 1}: targeted ${Math.round(result.targeted[run]?.wallMs ?? NaN)} ms, full ` +
        `${Math.round(result.full[run]?.wallMs ?? NaN)} ms` +
        (result.kubectl[run] ? `, kubectl recipe ${Math.round(result.kubectl[run]!.wallMs)} ms` : ''),
    );
  }
  result.peers = await runPeers(remote, kc, kubeconfig, namespace, opts, log);
  result.sameFindings = await sameFindings(kc, ns);
  return result;
}

/** Both scans at one instant (findings state ages, so timed runs minutes apart differ in their text). */
async function sameFindings(kc: KubeConfig, ns: NamespaceState): Promise<boolean> {
  const kube = createKube(kc);
  try {
    const now = Date.now();
    const targeted = await takeSnapshot(kube, ns, { clock: () => now });
    const full = await takeSnapshot(kube, ns, { clock: () => now, scan: 'full' });
    return (
      targeted.scan.mode === 'targeted' &&
      JSON.stringify(diagnose(targeted)) === JSON.stringify(diagnose(full))
    );
  } finally {
    await kube.close();
  }
}
