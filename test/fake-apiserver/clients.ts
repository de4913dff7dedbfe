/** client-node clients for the fake server's own tests (kept apart so the test kit loads without client-node). */
import { CoreV1Api, CustomObjectsApi, KubeConfig } from '@kubernetes/client-node';
import type { StartedCluster } from './cluster.js';

/** client-node clients for a started fake. */
export function clients(s: StartedCluster): { kc: KubeConfig; core: CoreV1Api; custom: CustomObjectsApi } {
  const kc = new KubeConfig();
  kc.loadFromString(s.kubeconfig);
  return { kc, core: kc.makeApiClient(CoreV1Api), custom: kc.makeApiClient(CustomObjectsApi) };
}
