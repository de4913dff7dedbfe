/** From kubeconfig text (or the usual places) to the Kube adapter, for both entry points. */
import type { KubeClient, KubeClientOptions } from '../kube/client.js';
import type { ClusterIdentity } from '../model/run.js';
import { readFileSync } from 'node:fs';
import { ConfigError } from '../shared/errors.js';

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
    kube: createKube(loaded.kc, { ...options, secrets: loaded.secrets }),
    cluster: clusterIdentity(loaded.kc),
    secrets: loaded.secrets,
  };
}

/**
 * Close the adapter, waiting at most `ms`: its plugins are stopped at once (synchronously), and a connection that
 * does not close in time must not hold back the result.
 */
export async function closeWithin(kube: KubeClient | undefined, ms: number): Promise<void> {
  if (!kube) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  try {
    await Promise.race([kube.close().catch(() => undefined), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The kubeconfig file `--kubeconfig` names, read; a ConfigError naming the flag and the file when it cannot be. */
export function readKubeconfigFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--kubeconfig is "${file}", which cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}.`,
      'kubeconfig',
    );
  }
}
