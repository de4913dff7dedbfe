/**
 * Discovery: aggregated (apidiscovery.k8s.io/v2, two requests) when the server offers it, else legacy (one request
 * per group-version, in parallel). A broken group-version is reported in `failed`, never thrown.
 */
import { messageOf } from '../shared/errors.js';
import { KubeError, type Discovery } from './port.js';
import { type ApiResource } from '../model/cluster.js';
import { UNAVAILABLE } from './http-errors.js';
import { arr, rec, str, strs } from './map.js';
import { AGGREGATED_DISCOVERY_TYPE, JSON_TYPE } from './request.js';
import type { Transport } from './transport.js';
import { mapPool } from '../shared/map-pool.js';

type GroupVersion = { group: string; version: string };
type Fetched = GroupVersion & { gv: string; doc?: unknown; error?: string };

/**
 * Discover the resources of the cluster; `concurrency` bounds the parallel requests of legacy discovery. Without
 * `core`, the core group (`/api`, `/api/v1`) is not asked for; with `only`, legacy discovery reads only the
 * group-versions of those API groups (and the result says so in `onlyGroups`).
 */
export async function discover(
  t: Transport,
  concurrency: number,
  core = true,
  only?: readonly string[],
): Promise<Discovery> {
  const accept = `${AGGREGATED_DISCOVERY_TYPE},${JSON_TYPE}`;
  const [coreDoc, groups] = await Promise.all([
    core ? t.requestJson({ method: 'GET', path: '/api', accept, verb: 'get', discovery: true }) : undefined,
    t.requestJson({ method: 'GET', path: '/apis', accept, verb: 'get', discovery: true }),
  ]);
  const isAggregated = (doc: unknown): boolean => rec(doc).kind === 'APIGroupDiscoveryList';
  if ((!core || isAggregated(coreDoc)) && isAggregated(groups)) {
    return fromAggregated([...arr(rec(coreDoc).items), ...arr(rec(groups).items)]);
  }
  const list = rec(groups).kind === 'APIGroupList' ? groups : undefined;
  const legacy = await legacyDiscovery(t, concurrency, list, core, only && new Set(only));
  return only ? { ...legacy, onlyGroups: [...only] } : legacy;
}

async function legacyDiscovery(
  t: Transport,
  concurrency: number,
  groupList: unknown,
  core: boolean,
  only: ReadonlySet<string> | undefined,
): Promise<Discovery> {
  const groups =
    groupList ?? (await t.requestJson({ method: 'GET', path: '/apis', verb: 'get', discovery: true }));
  const wanted = groupVersions(groups).filter((gv) =>
    gv.group === '' ? core : only === undefined || only.has(gv.group),
  );
  const results = await mapPool(wanted, concurrency, async ({ group, version }) => {
    const gv = group ? `${group}/${version}` : version;
    try {
      const doc = await t.requestJson({
        method: 'GET',
        path: group ? `/apis/${group}/${version}` : `/api/${version}`,
        verb: 'get',
        discovery: true,
      });
      return { gv, group, version, doc };
    } catch (err) {
      const error = err instanceof KubeError && err.code === 503 ? UNAVAILABLE : messageOf(err);
      return { gv, group, version, error };
    }
  });
  return fromLegacy(results);
}

/** The resources of an aggregated discovery document's items; stale group-versions are failures. */
function fromAggregated(items: unknown[]): Discovery {
  const acc = new ResourceAccumulator();
  const failed: Discovery['failed'] = [];
  for (const item of items) {
    const group = str(rec(rec(item).metadata).name) ?? '';
    for (const v of arr(rec(item).versions)) {
      const version = str(rec(v).version) ?? '';
      const gv = group ? `${group}/${version}` : version;
      if (rec(v).freshness === 'Stale') {
        failed.push({ groupVersion: gv, error: `stale GroupVersion discovery: ${gv}` });
        continue;
      }
      for (const r of arr(rec(v).resources)) {
        const resource = str(rec(r).resource) ?? '';
        if (!resource || resource.includes('/')) continue;
        acc.add({
          group,
          version,
          resource,
          kind: str(rec(rec(r).responseKind).kind) ?? '',
          namespaced: rec(r).scope === 'Namespaced',
          verbs: strs(rec(r).verbs),
        });
      }
    }
  }
  return { resources: acc.list, failed, mode: 'aggregated' };
}

/** Group-versions in preference order: core, then each group's preferred version first. */
function groupVersions(groups: unknown): GroupVersion[] {
  const gvs: GroupVersion[] = [{ group: '', version: 'v1' }];
  for (const g of arr(rec(groups).groups)) {
    const group = str(rec(g).name) ?? '';
    const preferred = str(rec(rec(g).preferredVersion).version);
    const versions = arr(rec(g).versions)
      .map((v) => str(rec(v).version) ?? '')
      .filter((v) => v !== '');
    const ordered = preferred ? [preferred, ...versions.filter((v) => v !== preferred)] : versions;
    for (const version of ordered) gvs.push({ group, version });
  }
  return gvs;
}

/** The resources of the fetched legacy group-version documents; fetch errors are failures. */
function fromLegacy(results: Fetched[]): Discovery {
  const acc = new ResourceAccumulator();
  const failed: Discovery['failed'] = [];
  for (const r of results) {
    if (r.error !== undefined) {
      failed.push({ groupVersion: r.gv, error: r.error });
      continue;
    }
    for (const item of arr(rec(r.doc).resources)) {
      const resource = str(rec(item).name) ?? '';
      if (!resource || resource.includes('/')) continue;
      acc.add({
        group: r.group,
        version: r.version,
        resource,
        kind: str(rec(item).kind) ?? '',
        namespaced: rec(item).namespaced === true,
        verbs: strs(rec(item).verbs),
      });
    }
  }
  return { resources: acc.list, failed, mode: 'legacy' };
}

/** Collects discovered resources; the first version seen for a group+resource wins (preference order). */
class ResourceAccumulator {
  readonly list: ApiResource[] = [];
  private readonly seen = new Set<string>();
  add(r: ApiResource): void {
    const key = `${r.group}/${r.resource}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.list.push(r);
  }
}
