/**
 * Loading a kubeconfig: from the action's `kubeconfig` input (content), else the `KUBECONFIG` path list, else
 * `~/.kube/config`, else the in-cluster service account. Every failure is a `ConfigError` that names the input
 * and never echoes file content (a kubeconfig holds credentials).
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig, type User } from '@kubernetes/client-node';
import { ConfigError } from '../errors.js';
import { decodeIfBase64, merge, parseKubeConfig, readFile } from './config-parse.js';
import { validateKubeConfig } from './config-validate.js';

const SERVICE_ACCOUNT = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface LoadedKubeConfig {
  kc: KubeConfig;
  /** Values to mask in logs: tokens, passwords, client keys, auth-provider secrets. Never the whole file. */
  secrets: string[];
  /** Where the configuration came from, for log lines and error messages. */
  source: string;
}

export interface LoadKubeConfigOptions {
  /** Kubeconfig content (YAML or JSON; base64 of either is accepted too). Empty = not given. */
  kubeconfig?: string;
  /** Context to use instead of `current-context`. Empty = not given. */
  context?: string;
  env: NodeJS.ProcessEnv;
  /** Directory that relative file paths inside `kubeconfig` content resolve against (the CLI's --kubeconfig dir). */
  kubeconfigDir?: string;
  /** Service-account directory, for tests. */
  serviceAccountDir?: string;
}

/** Load and validate a kubeconfig; throws `ConfigError` with a message that names the input. */
export function loadKubeConfig(opts: LoadKubeConfigOptions): LoadedKubeConfig {
  const secrets = new Set<string>();
  const { kc, source, input } = findKubeConfig(opts, secrets);
  for (const user of kc.getUsers()) collectSecrets(user, secrets);
  validateKubeConfig(kc, opts.context?.trim() || undefined, source, input);
  return { kc, secrets: [...secrets].filter((s) => s !== ''), source };
}

/** A parsed configuration, where it came from, and the action input to name in errors (if any). */
interface Found {
  kc: KubeConfig;
  source: string;
  input?: string;
}

/** The first source that is set: the kubeconfig input, KUBECONFIG, then the default locations. */
function findKubeConfig(opts: LoadKubeConfigOptions, secrets: Set<string>): Found {
  const content = opts.kubeconfig?.trim() ?? '';
  if (content !== '') return fromContent(content, opts.kubeconfigDir, secrets);
  if ((opts.env.KUBECONFIG ?? '').trim() !== '') return fromKubeconfigEnv(opts.env.KUBECONFIG ?? '');
  return fromDefaultLocations(opts, secrets);
}

function fromContent(content: string, dir: string | undefined, secrets: Set<string>): Found {
  const input = 'kubeconfig';
  const source = 'the kubeconfig input';
  const text = decodeIfBase64(content, secrets);
  const kc = parseKubeConfig(text, source, input);
  if (dir) kc.makePathsAbsolute(dir);
  return { kc, source, input };
}

/** Every existing file of the KUBECONFIG path list, merged. */
function fromKubeconfigEnv(value: string): Found {
  const files = value.split(path.delimiter).filter((f) => f.trim() !== '');
  const existing = files.filter((f) => fs.existsSync(f));
  const source = `KUBECONFIG (${existing.join(path.delimiter) || files.join(path.delimiter)})`;
  if (existing.length === 0) {
    throw new ConfigError(
      `KUBECONFIG names ${files.length === 1 ? 'a file that does' : 'files that do'} not exist: ${files.join(', ')}`,
    );
  }
  const kc = new KubeConfig();
  for (const file of existing)
    merge(kc, parseKubeConfig(readFile(file, undefined), `file ${file}`, undefined, file));
  return { kc, source };
}

/** `~/.kube/config`, else the in-cluster service account. */
function fromDefaultLocations(opts: LoadKubeConfigOptions, secrets: Set<string>): Found {
  const home = opts.env.HOME || opts.env.USERPROFILE;
  const file = home ? path.join(home, '.kube', 'config') : undefined;
  const saDir = opts.serviceAccountDir ?? SERVICE_ACCOUNT;
  if (file && fs.existsSync(file)) {
    const source = `file ${file}`;
    return { kc: parseKubeConfig(readFile(file, undefined), source, undefined, file), source };
  }
  if (opts.env.KUBERNETES_SERVICE_HOST && fs.existsSync(path.join(saDir, 'token'))) {
    const kc = inCluster(opts.env, saDir);
    try {
      secrets.add(fs.readFileSync(path.join(saDir, 'token'), 'utf8').trim());
    } catch {
      // unreadable now; the request will fail with a clear error later
    }
    return { kc, source: 'the in-cluster service account' };
  }
  throw new ConfigError(
    'no Kubernetes configuration found: the kubeconfig input is empty, KUBECONFIG is not set, ' +
      `${file ?? '~/.kube/config'} does not exist and this is not a pod with a service account`,
    'kubeconfig',
  );
}

/**
 * The context to name in pasted commands (none for the in-cluster service account, which has no context a
 * person could use) and the API server's host: `URL.host` never carries a user name or password.
 */
export function clusterIdentity(kc: KubeConfig): { context?: string; server?: string } {
  const name = kc.getCurrentContext();
  const context = name && name !== IN_CLUSTER_CONTEXT ? name : undefined;
  let server: string | undefined;
  try {
    server = new URL(kc.getCurrentCluster()?.server ?? '').host || undefined;
  } catch {
    server = undefined;
  }
  return { context, server };
}

const IN_CLUSTER_CONTEXT = 'inClusterContext';

/** client-node's `loadFromCluster`, but reading the injected environment. */
function inCluster(env: NodeJS.ProcessEnv, saDir: string): KubeConfig {
  const host = env.KUBERNETES_SERVICE_HOST ?? '';
  const port = env.KUBERNETES_SERVICE_PORT || '443';
  const server = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const kc = new KubeConfig();
  const namespaceFile = path.join(saDir, 'namespace');
  kc.loadFromOptions({
    clusters: [{ name: 'inCluster', server, caFile: path.join(saDir, 'ca.crt'), skipTLSVerify: false }],
    users: [
      {
        name: 'inClusterUser',
        authProvider: { name: 'tokenFile', config: { tokenFile: path.join(saDir, 'token') } },
      },
    ],
    contexts: [
      {
        name: IN_CLUSTER_CONTEXT,
        cluster: 'inCluster',
        user: 'inClusterUser',
        namespace: fs.existsSync(namespaceFile) ? fs.readFileSync(namespaceFile, 'utf8').trim() : undefined,
      },
    ],
    currentContext: IN_CLUSTER_CONTEXT,
  });
  return kc;
}

function collectSecrets(user: User, out: Set<string>): void {
  const add = (v: unknown): void => {
    if (typeof v === 'string' && v.trim() !== '') out.add(v.trim());
  };
  add(user.token);
  add(user.password);
  add(user.keyData);
  const provider = user.authProvider as { config?: Record<string, unknown> } | null | undefined;
  const cfg = provider?.config;
  if (cfg) {
    for (const key of ['access-token', 'id-token', 'refresh-token', 'client-secret', 'token']) add(cfg[key]);
  }
}
