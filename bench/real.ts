/**
 * The big-namespace scan (ours, the naive client-node scan, the kubectl recipe) on a real kube-apiserver 1.20 + etcd,
 * beside the fake at the same size; then (5b, bench/real-stuck.ts) the same namespace on a plane with the
 * controller-manager, after the real namespace controller's pass. Runs when the control plane can be found
 * (`KUBE_ASSETS` or ../shared/realkube/install.sh), with `--quick` too (fewer runs), not with `--smoke`.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { diagnose, takeSnapshot } from '../src/diagnosis/index.js';
import { createKube } from '../src/kube/client.js';
import { mapPool } from '../src/shared/map-pool.js';
import { type StartedCluster, raw, waitFor } from '../test/fake-apiserver/index.js';
import { findAssets, startControlPlane, stopControlPlane } from '../test/real/control-plane.js';
import type { Options } from './args.js';
import { naiveScan } from './naive.js';
import { bigConfigMap, bigTypes, type BigSizes, type BigSpec } from './protocol.js';
import { measureStuck, type RealStuckResult } from './real-stuck.js';
import type { RemoteCluster } from './remote.js';
import { RECIPE_ONE } from './peers.js';
import { KUBECTL, timedRecipe } from './scan.js';
import { median } from './stats.js';

/** Scaled so that building and measuring it takes minutes on 2 shared cores (1.20 slows with every CRD). */
export const REAL_SIZES: BigSizes = {
  types: 30,
  groups: 10,
  configMaps: 1000,
  configMapBytes: 4096,
  customResources: 100,
  withFinalizers: 5,
};

/** Wall times (ms) of each run, and what ours asked for. */
export interface RealColumn {
  ours: number[];
  oursRequests: number;
  /** Response bytes as received: gzip-encoded where the server compressed them (the adapter asks for gzip). */
  oursBytes: number;
  /** The same snapshot with `createKube(kc, { gzip: false })`: wall times, bytes (all uncompressed). */
  oursNoGzip: number[];
  oursNoGzipBytes: number;
  findings: number;
  naive: number[];
  naiveObjects: number;
  kubectl: number[];
  kubectlLines: number;
  /** The one-process recipe an expert pastes (bench/peers.ts RECIPE_ONE). */
  kubectlOne: number[];
}

export interface RealResult {
  spec: BigSpec;
  fake?: RealColumn;
  real?: RealColumn;
  /** Why the real column is missing. */
  skipped?: string;
  /** Building the namespace on the real server (CRDs established, objects created), ms. */
  buildMs?: number;
  startMs?: number;
  /** Section 5b: the same namespace after the real namespace controller's pass. */
  stuck?: RealStuckResult;
  /** Why 5b is missing while section 5 was measured. */
  stuckSkipped?: string;
}

const FINALIZER = 'bench.example.com/hold';

async function measureColumn(
  kubeconfig: string,
  spec: BigSpec,
  runs: number,
  kubectlRuns: number,
): Promise<RealColumn> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const col: RealColumn = {
    ours: [],
    oursRequests: 0,
    oursBytes: 0,
    oursNoGzip: [],
    oursNoGzipBytes: 0,
    findings: 0,
    naive: [],
    naiveObjects: 0,
    kubectl: [],
    kubectlLines: 0,
    kubectlOne: [],
  };
  const setup = createKube(kc);
  const ns = await setup.getNamespace(spec.namespace);
  await setup.close();
  if (!ns?.deletionTimestamp) throw new Error(`bench: ${spec.namespace} is not Terminating`);
  // One discarded warm-up of each, as in scenario 1.
  for (let run = -1; run < runs; run++) {
    const kube = createKube(kc);
    let t = performance.now();
    const snapshot = await takeSnapshot(kube, ns);
    col.findings = diagnose(snapshot).length;
    const oursMs = performance.now() - t;
    const cost = kube.cost();
    await kube.close();
    const plain = createKube(kc, { gzip: false });
    t = performance.now();
    diagnose(await takeSnapshot(plain, ns));
    const plainMs = performance.now() - t;
    const plainCost = plain.cost();
    await plain.close();
    t = performance.now();
    const naive = await naiveScan(kc, spec.namespace);
    const naiveMs = performance.now() - t;
    if (run < 0) continue;
    col.ours.push(oursMs);
    col.oursNoGzip.push(plainMs);
    col.oursNoGzipBytes = plainCost.bytes;
    col.naive.push(naiveMs);
    col.oursRequests = cost.requests;
    col.oursBytes = cost.bytes;
    col.naiveObjects = naive.objects;
  }
  for (let run = 0; KUBECTL && run < kubectlRuns; run++) {
    const r = await timedRecipe(kubeconfig, spec.namespace, KUBECTL);
    col.kubectl.push(r.wallMs);
    col.kubectlLines = r.lines;
    col.kubectlOne.push((await timedRecipe(kubeconfig, spec.namespace, KUBECTL, RECIPE_ONE)).wallMs);
  }
  return col;
}

async function post(s: StartedCluster, path: string, body: unknown): Promise<void> {
  const r = await raw(s, 'POST', path, { body });
  if (r.status !== 201) throw new Error(`bench: POST ${path}: ${r.status} ${r.text.slice(0, 300)}`);
}

/**
 * The same namespace the fake builds (bench/server.ts), created through the real API; then DELETE, so it is
 * Terminating. Resolves the time (epoch ms) the DELETE was sent.
 */
async function build(s: StartedCluster, spec: BigSpec): Promise<number> {
  const types = bigTypes(spec);
  await mapPool(types, 4, (t) =>
    post(s, '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      metadata: { name: `${t.plural}.${t.group}` },
      spec: {
        group: t.group,
        scope: 'Namespaced',
        names: { kind: t.kind, plural: t.plural, singular: t.kind.toLowerCase(), listKind: `${t.kind}List` },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    }),
  );
  for (const t of types)
    await waitFor(async () => (await raw(s, 'GET', `/apis/${t.group}/v1`)).status === 200, 120_000, 200);
  await post(s, '/api/v1/namespaces', {
    metadata: { name: spec.namespace, labels: { 'app.kubernetes.io/part-of': 'preview' } },
  });
  await mapPool([...Array(spec.configMaps).keys()], 8, (i) => {
    const { name, labels, body } = bigConfigMap(spec, i);
    return post(s, `/api/v1/namespaces/${spec.namespace}/configmaps`, {
      metadata: { name, labels },
      data: { 'application.properties': body },
    });
  });
  await mapPool([...Array(spec.customResources).keys()], 8, (j) => {
    const t = types[j % types.length]!;
    return post(s, `/apis/${t.group}/v1/namespaces/${spec.namespace}/${t.plural}`, {
      apiVersion: `${t.group}/v1`,
      kind: t.kind,
      metadata: {
        name: `${t.kind.toLowerCase()}-${j}`,
        finalizers: j < spec.withFinalizers ? [FINALIZER] : undefined,
      },
      spec: { replicas: 1, size: 'small', owner: 'team-shop' },
    });
  });
  const deletedAt = Date.now();
  const r = await raw(s, 'DELETE', `/api/v1/namespaces/${spec.namespace}`);
  if (r.status !== 200) throw new Error(`bench: DELETE namespace: ${r.status}`);
  return deletedAt;
}

/** Measure the fake (in its worker) and, when available, the real control plane at REAL_SIZES. */
export async function runReal(
  remote: RemoteCluster,
  opts: Options,
  root: string,
  log: (line: string) => void,
): Promise<RealResult> {
  const spec: BigSpec = { kind: 'big', namespace: 'preview-big', ...REAL_SIZES };
  // Every bench measures the real server where it can be started; only the smoke run of the tests does not.
  if (opts.smoke) return { spec, skipped: '--smoke' };
  const assets = findAssets(root);
  if (!assets)
    return { spec, skipped: 'no control plane (set KUBE_ASSETS, or provide ../shared/realkube/install.sh)' };
  const runs = opts.quick ? opts.runs : Math.max(opts.runs, 3);
  const kubectlRuns = Math.min(opts.kubectlRuns, runs);
  log(
    `real server: the fake at the same size (${spec.types} CRD types, ${spec.configMaps} ConfigMaps, ${spec.customResources} custom resources)`,
  );
  const started = await remote.start({ spec, latencyMs: 0 });
  await remote.fastLists(true);
  const fake = await measureColumn(started.kubeconfig, spec, runs, kubectlRuns);
  await remote.stop();
  // No controller-manager: like the fake's paused controller, nothing removes the Terminating namespace's content.
  let t = performance.now();
  const plane = await startControlPlane(assets, { controllerManager: false });
  const startMs = performance.now() - t;
  let result: RealResult;
  try {
    log(`real server: kube-apiserver ready in ${Math.round(startMs)} ms; building the namespace`);
    t = performance.now();
    await build(plane.admin, spec);
    const buildMs = performance.now() - t;
    log(`real server: built in ${Math.round(buildMs)} ms; measuring`);
    const real = await measureColumn(plane.admin.kubeconfig, spec, runs, kubectlRuns);
    log(
      `real server: ours ${Math.round(median(real.ours))} ms, naive ${Math.round(median(real.naive))} ms, kubectl recipe ${real.kubectl.length ? Math.round(median(real.kubectl)) : '-'} ms (medians)`,
    );
    result = { spec, fake, real, buildMs, startMs };
  } finally {
    await stopControlPlane(plane);
  }
  try {
    result.stuck = await runStuckReal(assets, spec, runs, kubectlRuns, log);
  } catch (e) {
    result.stuckSkipped = `failed: ${(e as Error).message}`;
    log(`real server, after the controller's pass: ${result.stuckSkipped}`);
  }
  return result;
}

/**
 * 5b: a second control plane, this time with kube-controller-manager, built the same way; the DELETE lets the real
 * namespace controller do its pass before the measurements. (Section 5's plane has no controller-manager, so that
 * its namespace keeps all its content; a fresh plane measures the controller's first pass after a fresh DELETE.)
 */
async function runStuckReal(
  assets: string,
  spec: BigSpec,
  runs: number,
  kubectlRuns: number,
  log: (line: string) => void,
): Promise<RealStuckResult> {
  let t = performance.now();
  const plane = await startControlPlane(assets, { controllerManager: true });
  const startMs = performance.now() - t;
  try {
    log(
      `real server with the controller-manager: ready in ${Math.round(startMs)} ms; building the namespace`,
    );
    t = performance.now();
    const deletedAt = await build(plane.admin, spec);
    const buildMs = performance.now() - t;
    log(
      `real server with the controller-manager: built and deleted in ${Math.round(buildMs)} ms; waiting for the controller's pass`,
    );
    return { ...(await measureStuck(plane, spec, deletedAt, runs, kubectlRuns, log)), startMs, buildMs };
  } finally {
    await stopControlPlane(plane);
  }
}
