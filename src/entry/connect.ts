/** From kubeconfig text (or the usual places) to the Kube adapter, for both entry points. */
import type { KubeClient, KubeClientOptions } from '../kube/client.js';
import type { ClusterIdentity } from '../teardown/outcome.js';

/** The adapter for `context` of the kubeconfig, the cluster it names, and the credentials the log must mask. */
export async function connect(
  kubeconfig: string | undefined,
  context: string | undefined,
  options: KubeClientOptions = {},
): Promise<{ kube: KubeClient; cluster: ClusterIdentity; secrets: string[] }> {
  // client-node is most of the bundle's load time: load it only once the inputs are known to be good.
  const [{ loadKubeConfig, clusterIdentity }, { createKube }] = await Promise.all([
    import('../kube/config.js'),
    import('../kube/client.js'),
  ]);
  const loaded = loadKubeConfig({ kubeconfig, context, env: process.env });
  return {
    kube: createKube(loaded.kc, options),
    cluster: clusterIdentity(loaded.kc),
    secrets: loaded.secrets,
  };
}
