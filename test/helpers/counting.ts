/** A view of the adapter for a snapshot that tells discovery's requests from the scan's LIST pages. */
import type { KubeClient } from '../../src/kube/client.js';

export interface CountingReader {
  reader: KubeClient;
  /** `resource.group` of each LIST page of `namespace`, in order. */
  listed: string[];
  /** Requests discovery made since the view was taken. */
  discovery(): number;
}

/**
 * Every call but discovery is one request, so discovery is what is left of the adapter's count (the APIService
 * list runs beside discovery: a cost delta around discover() would count it too).
 */
export function countingReader(kube: KubeClient, namespace: string): CountingReader {
  let others = 0;
  const listed: string[] = [];
  const start = kube.cost().requests;
  const reader: KubeClient = {
    ...kube,
    listMetadata: (res, o) => {
      others++;
      if (o.namespace === namespace) listed.push(`${res.resource}.${res.group}`);
      return kube.listMetadata(res, o);
    },
    listRaw: (path, o) => {
      others++;
      return kube.listRaw(path, o);
    },
    getRaw: (path) => {
      others++;
      return kube.getRaw(path);
    },
  };
  return { reader, listed, discovery: () => kube.cost().requests - start - others };
}
