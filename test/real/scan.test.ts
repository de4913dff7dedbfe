/**
 * The targeted scan on the real namespace controller: once its first pass has named the remaining types in
 * NamespaceContentRemaining, `takeSnapshot` lists only those and diagnoses exactly what the full scan diagnoses.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { diagnose, takeSnapshot } from '../../src/diagnosis/index.js';
import { CONTROLLER_FIRST_PASS_MS } from '../../src/diagnosis/snapshot/scan-choice.js';
import { createKube, type KubeClient } from '../../src/kube/client.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { countingReader } from '../helpers/counting.js';
import {
  admin,
  apply,
  clearFinalizers,
  condition,
  createCRD,
  get,
  namespace,
  raw,
  sleep,
  uniqueName,
  waitFor,
  waitGone,
} from './kit.js';

const FINALIZER = 'example.com/hold';
const HELD = ['g0', 'g1', 'g2'];
const FREE = ['g3', 'g4'];

function connect(): KubeClient {
  const kc = new KubeConfig();
  kc.loadFromString(admin().kubeconfig);
  return createKube(kc);
}

/** A snapshot through a fresh adapter: its cost, discovery's share of it, and the types listed in the namespace. */
async function snapshot(ns: NamespaceState, o: { now?: number; scan?: 'auto' | 'full' } = {}) {
  const kube = connect();
  const { reader, listed, discovery } = countingReader(kube, ns.name);
  try {
    const snap = await takeSnapshot(reader, ns, {
      scan: o.scan,
      clock: o.now === undefined ? undefined : () => o.now!,
    });
    return { snap, cost: kube.cost(), discovery: discovery(), listed };
  } finally {
    await kube.close();
  }
}

describe('the targeted scan on the real namespace controller', () => {
  const id = uniqueName('scan');
  const group = `${id}.example.com`;
  const ns = id;
  const gadgets = `/apis/${group}/v1/namespaces/${ns}/gadgets`;

  beforeAll(() => createCRD(group, 'Gadget', 'gadgets'));

  afterAll(async () => {
    for (const name of HELD) await clearFinalizers(`${gadgets}/${name}`);
    await waitGone(ns, 60_000);
    await raw(admin(), 'DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.${group}`);
  }, 90_000);

  test('after the first pass: targeted (only the named type), same findings as the full scan', async () => {
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      ...HELD.map((name) => ({
        apiVersion: `${group}/v1`,
        kind: 'Gadget',
        metadata: { namespace: ns, name, finalizers: [FINALIZER] },
      })),
      ...FREE.map((name) => ({
        apiVersion: `${group}/v1`,
        kind: 'Gadget',
        metadata: { namespace: ns, name },
      })),
      ...['app-config', 'feature-flags', 'routes'].map((name) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ns, name },
        data: { key: 'value' },
      })),
    );
    const deletedAt = Date.now();
    expect((await raw(admin(), 'DELETE', `/api/v1/namespaces/${ns}`)).status).toBe(200);

    // Right after the DELETE, before the controller's first pass (it waits 5 s): 1.20 has written no condition at
    // all yet — not even the False ones — so the scan falls back as `conditions-absent`, not `conditions-stale`
    // (staleness is only judged once some condition names the remaining types).
    const kube = connect();
    const fresh = (await kube.getNamespace(ns))!;
    await kube.close();
    expect(fresh.deletionTimestamp).toBeDefined();
    expect(fresh.conditions).toEqual([]);
    const early = await snapshot(fresh);
    expect(early.snap.scan).toEqual({
      mode: 'full',
      reason: 'conditions-absent',
      detail: 'no NamespaceContentRemaining condition names remaining types',
    });

    // The first pass: the free gadgets and the ConfigMaps go, the held gadgets stay and are named, in 1.20's words.
    const remaining = await waitFor(
      async () => {
        const c = condition(await namespace(ns), 'NamespaceContentRemaining');
        return c?.status === 'True' ? c : undefined;
      },
      60_000,
      100,
    );
    const seenMs = Date.now() - deletedAt;
    expect(remaining.message).toBe(`Some resources are remaining: gadgets.${group} has 3 resource instances`);
    const state = await namespace(ns);
    expect(condition(state, 'NamespaceFinalizersRemaining').message).toBe(
      `Some content in the namespace has finalizers remaining: ${FINALIZER} in 3 resource instances`,
    );
    // The controller waits 5 s after the deletion before its first pass: what CONTROLLER_FIRST_PASS_MS assumes.
    expect(seenMs).toBeGreaterThanOrEqual(CONTROLLER_FIRST_PASS_MS);
    expect((await get(`/api/v1/namespaces/${ns}/configmaps`)).items).toEqual([]);
    expect((await get(gadgets)).items.map((g: { metadata: { name: string } }) => g.metadata.name)).toEqual(
      HELD,
    );

    // Past the first pass, so the conditions may be trusted (they already are: they come 5 s after the DELETE).
    const wait = Date.parse(state.metadata.deletionTimestamp) + CONTROLLER_FIRST_PASS_MS + 1000 - Date.now();
    if (wait > 0) await sleep(wait);
    const reader = connect();
    const current = (await reader.getNamespace(ns))!;
    await reader.close();

    const now = Date.now();
    const targeted = await snapshot(current, { now });
    const full = await snapshot(current, { now, scan: 'full' });
    expect(targeted.snap.scan).toEqual({
      mode: 'targeted',
      reason: 'conditions-name-types',
      detail: `listed gadgets.${group} (3)`,
    });
    expect(targeted.listed).toEqual([`gadgets.${group}`]);
    expect(targeted.snap.discovery.listedTypes).toBe(1);
    expect(full.snap.scan.mode).toBe('full');
    expect(full.listed).toContain('configmaps.');
    expect(full.listed.length).toBeGreaterThan(20);

    // One LIST instead of one per listable namespaced type. 1.20 has no aggregated discovery: the full scan reads
    // every group-version's discovery document, the targeted one /apis and the named group's one version only.
    expect(targeted.discovery).toBe(2);
    expect(full.discovery).toBeGreaterThan(20);
    // The cluster reads the rules need are the same for both.
    const reads = (x: typeof full): number => x.cost.requests - x.discovery - x.listed.length;
    expect(reads(targeted)).toBe(reads(full));
    expect(targeted.cost.requests).toBe(2 + 1 + reads(full));

    // Same findings, same objects: the snapshots share one clock, so the findings compare whole.
    const findings = diagnose(targeted.snap);
    expect(findings).toEqual(diagnose(full.snap));
    expect(findings.map((f) => f.id)).toContain('object-finalizers');
    const held = findings
      .filter((f) => f.id === 'object-finalizers')
      .flatMap((f) => f.targets ?? [])
      .flatMap((t) => (t.kind === 'object-finalizers' ? [`${t.resource.resource}/${t.name}`] : []))
      .sort();
    expect(held).toEqual(HELD.map((name) => `gadgets/${name}`));
  }, 110_000);
});
