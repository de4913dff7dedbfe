/** Discovery: legacy documents, aggregated v2, /version, and the GroupVersions of down APIServices. */
import { createHash } from 'node:crypto';
import { asRecord } from './meta.js';
import { type Registry, type ResourceType, APISERVICE_GR, apiVersionOf, BUILTIN_GROUPS } from './registry.js';
import type { Store } from './store.js';
import type { JsonMap, KObj, KubeVersion } from './types.js';

/** One served group-version, from an APIService. */
export interface ServedGV {
  group: string;
  version: string;
  local: boolean;
  available: boolean;
}

const GIT: Record<KubeVersion, string> = { '1.29': 'v1.29.15', '1.33': 'v1.33.5', '1.34': 'v1.34.1' };

export function versionInfo(v: KubeVersion): JsonMap {
  const [major, minor] = v.split('.');
  return {
    major,
    minor,
    gitVersion: GIT[v],
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-09-09T00:00:00Z',
    goVersion: 'go1.24.6',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

/** Whether an APIService's Available condition is True. */
export function apiServiceAvailable(svc: KObj): boolean {
  const conds = asRecord(svc.status).conditions;
  return (
    Array.isArray(conds) &&
    conds.some((c) => asRecord(c).type === 'Available' && asRecord(c).status === 'True')
  );
}

export class Discovery {
  constructor(
    private readonly store: Store,
    private readonly registry: Registry,
    private readonly version: KubeVersion,
  ) {}

  /** Every APIService group-version except the core one, built-in groups first, preferred version first. */
  servedGVs(): ServedGV[] {
    const out = this.store
      .list(APISERVICE_GR)
      .map((s) => {
        const spec = asRecord(s.spec);
        return {
          group: String(spec.group ?? ''),
          version: String(spec.version ?? ''),
          local: !spec.service,
          available: apiServiceAvailable(s),
          prio: Number(spec.versionPriority ?? 0),
        };
      })
      .filter((g) => g.group !== '');
    const rank = (g: string): number => (BUILTIN_GROUPS.includes(g) ? BUILTIN_GROUPS.indexOf(g) : 100);
    out.sort((a, b) => rank(a.group) - rank(b.group) || a.group.localeCompare(b.group) || b.prio - a.prio);
    return out.map(({ group, version, local, available }) => ({ group, version, local, available }));
  }

  gv(group: string, version: string): ServedGV | undefined {
    return this.servedGVs().find((g) => g.group === group && g.version === version);
  }

  /** Resource types a group-version serves (none for an unavailable aggregated API). */
  typesOf(gv: ServedGV): ResourceType[] {
    if (!gv.local) return gv.available ? this.registry.aggregatedTypes(gv.group, gv.version) : [];
    return this.registry.all().filter((t) => t.group === gv.group && t.version === gv.version);
  }

  /** Preferred namespaced resources, plus `stale GroupVersion discovery` errors (what the controller sees). */
  preferredNamespaced(): { types: ResourceType[]; failed: { gv: string; err: string }[] } {
    const core = this.registry.all().filter((t) => t.group === '' && t.namespaced);
    const seen = new Set<string>();
    const types: ResourceType[] = [...core];
    const failed: { gv: string; err: string }[] = [];
    for (const gv of this.servedGVs()) {
      const name = `${gv.group}/${gv.version}`;
      if (!gv.local && !gv.available) {
        failed.push({ gv: name, err: `stale GroupVersion discovery: ${name}` });
        continue;
      }
      if (seen.has(gv.group)) continue;
      seen.add(gv.group);
      types.push(...this.typesOf(gv).filter((t) => t.namespaced));
    }
    return { types, failed };
  }

  apiVersions(serverAddress: string): JsonMap {
    return {
      kind: 'APIVersions',
      versions: ['v1'],
      serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
    };
  }

  private groupEntry(group: string, gvs: ServedGV[]): JsonMap {
    const versions = gvs.map((g) => ({ groupVersion: `${group}/${g.version}`, version: g.version }));
    return { name: group, versions, preferredVersion: versions[0] };
  }

  apiGroupList(): JsonMap {
    const groups = this.groups().map(([g, gvs]) => this.groupEntry(g, gvs));
    return { kind: 'APIGroupList', apiVersion: 'v1', groups };
  }

  apiGroup(group: string): JsonMap | undefined {
    const gvs = this.servedGVs().filter((g) => g.group === group);
    if (!gvs.length) return undefined;
    return { kind: 'APIGroup', apiVersion: 'v1', ...this.groupEntry(group, gvs) };
  }

  private groups(): [string, ServedGV[]][] {
    const m = new Map<string, ServedGV[]>();
    for (const gv of this.servedGVs()) m.set(gv.group, [...(m.get(gv.group) ?? []), gv]);
    return [...m.entries()];
  }

  /** Legacy APIResourceList (`/api/v1` has no apiVersion field, `/apis/g/v` has "v1"). */
  resourceList(group: string, version: string, types: ResourceType[]): JsonMap {
    const resources: JsonMap[] = [];
    for (const t of [...types].sort((a, b) => a.resource.localeCompare(b.resource))) {
      const r: JsonMap = {
        name: t.resource,
        singularName: t.singular,
        namespaced: t.namespaced,
        kind: t.kind,
        verbs: t.verbs,
      };
      if (t.shortNames?.length) r.shortNames = t.shortNames;
      if (t.categories?.length) r.categories = t.categories;
      if (t.source !== 'aggregated') r.storageVersionHash = storageVersionHash(t);
      resources.push(r);
      for (const s of t.subresources) {
        const sub: JsonMap = { name: `${t.resource}/${s.name}`, singularName: '', namespaced: t.namespaced };
        if (s.name === 'scale') Object.assign(sub, { group: 'autoscaling', version: 'v1', kind: 'Scale' });
        else sub.kind = t.kind;
        sub.verbs = s.verbs;
        resources.push(sub);
      }
    }
    const gv = apiVersionOf({ group, version });
    return group === ''
      ? { kind: 'APIResourceList', groupVersion: gv, resources }
      : { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources };
  }

  private discoveryResource(t: ResourceType): JsonMap {
    const r: JsonMap = {
      resource: t.resource,
      responseKind: { group: t.group, version: t.version, kind: t.kind },
      scope: t.namespaced ? 'Namespaced' : 'Cluster',
      singularResource: t.singular,
      verbs: t.verbs,
    };
    if (t.shortNames?.length) r.shortNames = t.shortNames;
    if (t.categories?.length) r.categories = t.categories;
    if (t.subresources.length) {
      r.subresources = t.subresources.map((s) => ({
        subresource: s.name,
        responseKind:
          s.name === 'scale'
            ? { group: 'autoscaling', version: 'v1', kind: 'Scale' }
            : { group: t.group, version: t.version, kind: t.kind },
        verbs: s.verbs,
      }));
    }
    return r;
  }

  private itemMeta(name: string): JsonMap {
    const m: JsonMap = name ? { name } : {};
    if (this.version !== '1.34') m.creationTimestamp = null;
    return m;
  }

  /** apidiscovery.k8s.io/v2 APIGroupDiscoveryList for `/api` (core) or `/apis` (everything else). */
  aggregated(core: boolean): JsonMap {
    let items: JsonMap[];
    if (core) {
      const types = this.registry.all().filter((t) => t.group === '');
      items = [
        {
          metadata: this.itemMeta(''),
          versions: [
            { version: 'v1', resources: types.map((t) => this.discoveryResource(t)), freshness: 'Current' },
          ],
        },
      ];
    } else {
      items = this.groups().map(([group, gvs]) => ({
        metadata: this.itemMeta(group),
        versions: gvs.map((gv) => {
          const stale = !gv.local && !gv.available;
          const v: JsonMap = { version: gv.version };
          const resources = this.typesOf(gv).map((t) => this.discoveryResource(t));
          if (!stale && resources.length) v.resources = resources;
          v.freshness = stale ? 'Stale' : 'Current';
          return v;
        }),
      }));
    }
    return { kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2', metadata: {}, items };
  }
}

/** What upstream's discovery computes: base64 of the first 8 bytes of sha256("group/version/kind"). */
export function storageVersionHash(t: { group: string; version: string; kind: string }): string {
  return createHash('sha256')
    .update(`${t.group}/${t.version}/${t.kind}`)
    .digest()
    .subarray(0, 8)
    .toString('base64');
}
