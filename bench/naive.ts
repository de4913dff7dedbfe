/**
 * The naive scan a first version would write with @kubernetes/client-node directly: legacy discovery one group at a
 * time, then a full-object LIST of every namespaced listable type (no `limit`, no metadata-only), one after the
 * other, and pick the objects with finalizers out of the full bodies.
 */
import {
  ApisApi,
  CoreApi,
  CoreV1Api,
  CustomObjectsApi,
  KubernetesObjectApi,
  type KubeConfig,
  type KubernetesObject,
  type V1APIResourceList,
} from '@kubernetes/client-node';

/** KubernetesObjectApi with its discovery cache filled from our own discovery, so no group is discovered twice. */
class SeededObjectApi extends KubernetesObjectApi {
  seed(groupVersion: string, list: V1APIResourceList): void {
    this.apiVersionResourceCache[groupVersion] = list;
  }
}

export interface NaiveResult {
  types: number;
  objects: number;
  withFinalizers: { kind: string; name: string; finalizers: string[] }[];
}

export async function naiveScan(kc: KubeConfig, namespace: string): Promise<NaiveResult> {
  const objects = kc.makeApiClient(SeededObjectApi);
  const custom = kc.makeApiClient(CustomObjectsApi);
  await kc.makeApiClient(CoreApi).getAPIVersions();
  const gvs: { groupVersion: string; list: V1APIResourceList }[] = [
    { groupVersion: 'v1', list: await kc.makeApiClient(CoreV1Api).getAPIResources() },
  ];
  const groups = await kc.makeApiClient(ApisApi).getAPIVersions();
  for (const g of groups.groups) {
    const version = g.preferredVersion?.version ?? g.versions[0]?.version;
    if (!version) continue;
    gvs.push({
      groupVersion: `${g.name}/${version}`,
      list: await custom.getAPIResources({ group: g.name, version }),
    });
  }
  const result: NaiveResult = { types: 0, objects: 0, withFinalizers: [] };
  for (const { groupVersion, list } of gvs) {
    objects.seed(groupVersion, list);
    for (const r of list.resources) {
      if (!r.namespaced || r.name.includes('/') || !r.verbs.includes('list')) continue;
      result.types++;
      const items = await objects.list<KubernetesObject>(groupVersion, r.kind, namespace);
      for (const o of items.items) {
        result.objects++;
        const finalizers = o.metadata?.finalizers ?? [];
        if (finalizers.length)
          result.withFinalizers.push({ kind: r.kind, name: o.metadata?.name ?? '', finalizers });
      }
    }
  }
  return result;
}
