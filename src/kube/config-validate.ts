/** Checks that the chosen context of a loaded kubeconfig is usable before any request is made. */
import fs from 'node:fs';
import type { Cluster, Context, KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../shared/errors.js';

/** Select `context` (else keep current-context) and check its cluster, user, server URL and files. */
export function validateKubeConfig(
  kc: KubeConfig,
  context: string | undefined,
  source: string,
  input: string | undefined,
): void {
  const names = kc.getContexts().map((c) => c.name);
  const available = names.length ? `available contexts: ${names.join(', ')}` : 'it defines no contexts';
  if (kc.getClusters().length === 0) throw new ConfigError(`${source} defines no clusters`, input);
  const ctx = selectContext(kc, context, available, source, input);
  const cluster: Cluster | null = kc.getCluster(ctx.cluster);
  if (!cluster) {
    throw new ConfigError(
      `context "${ctx.name}" refers to cluster "${ctx.cluster}", which ${source} does not define`,
      input,
    );
  }
  if (ctx.user && !kc.getUser(ctx.user)) {
    throw new ConfigError(
      `context "${ctx.name}" refers to user "${ctx.user}", which ${source} does not define`,
      input,
    );
  }
  checkServer(cluster, source, input);
  checkFiles(kc, ctx, cluster, source, input);
}

function selectContext(
  kc: KubeConfig,
  context: string | undefined,
  available: string,
  source: string,
  input: string | undefined,
): Context {
  if (context) {
    const ctx = kc.getContextObject(context);
    if (!ctx) throw new ConfigError(`context "${context}" is not in ${source}; ${available}`, 'context');
    kc.setCurrentContext(context);
    return ctx;
  }
  const current = kc.getCurrentContext();
  if (!current) {
    throw new ConfigError(`${source} has no current-context; set the context input (${available})`, input);
  }
  const ctx = kc.getContextObject(current);
  if (!ctx) throw new ConfigError(`current-context "${current}" is not in ${source}; ${available}`, input);
  return ctx;
}

function checkServer(cluster: Cluster, source: string, input: string | undefined): void {
  let url: URL;
  try {
    url = new URL(cluster.server);
  } catch {
    throw new ConfigError(`cluster "${cluster.name}" in ${source} has an invalid server URL`, input);
  }
  if (url.protocol === 'http:' && !cluster.skipTLSVerify) {
    throw new ConfigError(
      `cluster "${cluster.name}" in ${source} uses http:// (${cluster.server}); ` +
        'use https:// or set insecure-skip-tls-verify: true',
      input,
    );
  }
  // kubectl refuses this pair too: the CA would be silently ignored, and nothing would check the server.
  if (cluster.skipTLSVerify && (cluster.caData || cluster.caFile)) {
    throw new ConfigError(
      `cluster "${cluster.name}" in ${source} sets insecure-skip-tls-verify together with a certificate ` +
        'authority; remove one of them (kubectl refuses this combination too)',
      input,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `cluster "${cluster.name}" in ${source} has an unsupported server URL scheme`,
      input,
    );
  }
}

/** The CA, client certificate and client key files the context names must exist. */
function checkFiles(
  kc: KubeConfig,
  ctx: Context,
  cluster: Cluster,
  source: string,
  input: string | undefined,
): void {
  const files: [string, string | undefined][] = [
    [`certificate-authority of cluster "${cluster.name}"`, cluster.caFile],
  ];
  const user = ctx.user ? kc.getUser(ctx.user) : null;
  if (user) {
    files.push([`client-certificate of user "${user.name}"`, user.certFile ?? undefined]);
    files.push([`client-key of user "${user.name}"`, user.keyFile ?? undefined]);
  }
  for (const [what, file] of files) {
    if (file && !fs.existsSync(file))
      throw new ConfigError(`${what} in ${source}: file ${file} does not exist`, input);
  }
}
