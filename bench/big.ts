/** Scenario 1: diagnosing one big Terminating namespace — ours vs the kubectl recipe vs a naive client-node scan. */
import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../src/kube/client.js';
import type { Options } from './args.js';
import { measure, type Sample } from './measure.js';
import { naiveScan, type NaiveResult } from './naive.js';
import { runPeers, type PeerResult } from './peers.js';
import type { BigSpec } from './protocol.js';
import type { RemoteCluster } from './remote.js';
import {
  KUBECTL,
  NO_KUBECTL,
  PAGE_SIZE,
  inTurn,
  ours,
  recipeOnFake,
  type KubectlSample,
  type OnFake,
  type OursSample,
} from './scan.js';
import { runStuck, type StuckResult } from './stuck.js';

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
  const f: OnFake = { remote, kc, kubeconfig: started.kubeconfig, namespace: spec.namespace, opts, log };

  // Warm-up: the first run of each in this process is reported as "cold"; ours gets a second, discarded one so that
  // the measured runs start from the same state (and not right after the naive scan's 20 MB of garbage).
  const naiveCold = (await measure(remote, () => naiveScan(kc, spec.namespace))).sample;
  const oursCold = await ours(f, ns);
  await ours(f, ns);
  await ours(f, ns, 'auto', { gzip: false });
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
    result.ours.push(await ours(f, ns));
    result.oursPlain.push(await ours(f, ns, 'auto', { gzip: false }));
  }
  if (!KUBECTL) result.kubectlSkipped = NO_KUBECTL;
  else if (opts.kubectlRuns === 0) result.kubectlSkipped = '--kubectl-runs 0';
  await inTurn(
    opts,
    async () => {
      const naive = await measure(remote, () => naiveScan(kc, spec.namespace));
      result.naive.push(naive.sample);
      result.naiveInfo = naive.value;
    },
    async (kubectl) => void result.kubectl.push(await recipeOnFake(f, kubectl)),
    (run) => {
      const k = result.kubectl[run];
      log(
        `big namespace: run ${run + 1}: ours ${fmt(result.ours[run]?.wallMs)}, naive ${fmt(result.naive[run]?.wallMs)}` +
          (k ? `, kubectl recipe ${fmt(k.wallMs)}` : ''),
      );
    },
  );

  result.peers = await runPeers(f);

  // How much of our time is the client's CPU, and how much the fake's O(all)-per-page lists would add.
  // Ours alone is cheap: these take at least 5 runs, for a steadier median on a noisy machine.
  const extraRuns = Math.max(opts.runs, 5);
  for (const latencyMs of [...new Set([0, opts.latencyMs * 4 || 20])].filter((l) => l !== opts.latencyMs)) {
    await remote.latency(latencyMs);
    const samples: OursSample[] = [];
    for (let run = 0; run < extraRuns; run++) samples.push(await ours(f, ns));
    result.oursAtLatency.push({ latencyMs, samples });
  }
  await remote.latency(opts.latencyMs);
  await remote.fastLists(false);
  for (let run = 0; run < extraRuns; run++) result.oursUnmodifiedFake.push(await ours(f, ns));
  await remote.fastLists(true);

  const first = result.ours[0]!.shape;
  result.expectedScan = first.listedTypes + Math.max(0, Math.ceil(spec.configMaps / PAGE_SIZE) - 1);
  await remote.fastLists(false);
  result.stuck = await runStuck(f);
  await remote.stop();
  return result;
}

function fmt(v: number | undefined): string {
  return v === undefined ? '-' : `${Math.round(v)} ms`;
}
