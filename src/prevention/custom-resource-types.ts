/**
 * Which namespaced types count as custom resources for the custom-resources phase: those served by a CRD or by an
 * aggregated API (an APIService backed by a Service), and among them only those that can be deleted.
 */
import type { ApiResource } from '../model/cluster.js';
import type { Discovery, KubeReader } from '../kube/port.js';
import { compareText } from '../shared/compare.js';
import { messageOf } from '../shared/errors.js';

/** The custom types of the cluster, read once per run. */
export interface Catalog {
  /** By `plural.group`. */
  types: Map<string, ApiResource>;
  /** Custom types left out, and why. */
  skipped: { type: string; why: string }[];
  /** Set when the catalog could not be read: the phase is skipped with this reason. */
  error?: string;
}

const typeName = (r: Pick<ApiResource, 'group' | 'resource'>): string =>
  r.group ? `${r.resource}.${r.group}` : r.resource;

/**
 * Pure: the deletable custom types among the discovered ones. `crds` holds CRD names (`plural.group`),
 * `aggregated` the group-versions an APIService with a Service serves. A type without the `delete` verb (e.g.
 * metrics.k8s.io's PodMetrics, which are computed, not stored) is skipped: there is nothing to delete.
 */
export function customTypes(
  discovery: Pick<Discovery, 'resources'>,
  crds: ReadonlySet<string>,
  aggregated: ReadonlySet<string>,
): Pick<Catalog, 'types' | 'skipped'> {
  const types = new Map<string, ApiResource>();
  const skipped = new Map<string, string>();
  for (const r of discovery.resources) {
    const name = typeName(r);
    if (!r.namespaced || r.resource.includes('/') || types.has(name) || skipped.has(name)) continue;
    const viaCrd = crds.has(name);
    if (!viaCrd && !aggregated.has(`${r.group}/${r.version}`)) continue;
    const missing = ['delete', 'list'].filter((v) => !r.verbs.includes(v));
    if (missing.length) {
      const by = viaCrd ? 'its CRD' : `the aggregated API ${r.group}/${r.version}`;
      skipped.set(name, `${by} does not serve ${missing.join(' or ')} for it: nothing to delete early`);
      continue;
    }
    types.set(name, r);
  }
  const list = [...skipped].map(([type, why]) => ({ type, why }));
  return { types, skipped: list.sort((a, b) => compareText(a.type, b.type)) };
}

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

/** Every CRD name (`plural.group`), metadata only, page by page. */
async function crdNames(reader: KubeReader, pageSize: number): Promise<Set<string>> {
  const names = new Set<string>();
  let cont: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await reader.listMetadata(CRDS, { limit: pageSize, continue: cont });
    for (const item of page.items) names.add(item.name);
    cont = page.continue;
    if (cont !== undefined && seen.has(cont)) throw new Error('the CRD list repeated a continue token');
    if (cont !== undefined) seen.add(cont);
  } while (cont !== undefined);
  return names;
}

/** Read discovery and the CRD names; `aggregated` comes from the APIServices a snapshot already read. */
export async function readCatalog(reader: KubeReader, aggregated: ReadonlySet<string>): Promise<Catalog> {
  try {
    const [discovery, crds] = await Promise.all([reader.discover(), crdNames(reader, 500)]);
    const found = customTypes(discovery, crds, aggregated);
    for (const f of discovery.failed) {
      found.skipped.push({
        type: f.groupVersion,
        why: `discovery failed (${f.error}): its objects cannot be listed`,
      });
    }
    return found;
  } catch (error) {
    return {
      types: new Map(),
      skipped: [],
      error: `the custom resource types could not be read: ${messageOf(error)}`,
    };
  }
}
