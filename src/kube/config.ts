/**
 * Loading a kubeconfig: from the action's `kubeconfig` input (content), else the `KUBECONFIG` path list, else
 * `~/.kube/config`, else the in-cluster service account. Every failure is a `ConfigError` that names the input
 * and never echoes file content (a kubeconfig holds credentials).
 */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig, type Cluster, type Context, type User } from '@kubernetes/client-node';
import { ConfigError } from '../errors.js';

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
  let kc: KubeConfig;
  let source: string;
  let input: string | undefined;

  const content = opts.kubeconfig?.trim() ?? '';
  if (content !== '') {
    input = 'kubeconfig';
    source = 'the kubeconfig input';
    const text = decodeIfBase64(content, secrets);
    kc = parseKubeConfig(text, source, input);
    if (opts.kubeconfigDir) kc.makePathsAbsolute(opts.kubeconfigDir);
  } else if ((opts.env.KUBECONFIG ?? '').trim() !== '') {
    const files = (opts.env.KUBECONFIG ?? '').split(path.delimiter).filter((f) => f.trim() !== '');
    const existing = files.filter((f) => fs.existsSync(f));
    source = `KUBECONFIG (${existing.join(path.delimiter) || files.join(path.delimiter)})`;
    if (existing.length === 0) {
      throw new ConfigError(
        `KUBECONFIG names ${files.length === 1 ? 'a file that does' : 'files that do'} not exist: ${files.join(', ')}`,
      );
    }
    kc = new KubeConfig();
    for (const file of existing)
      merge(kc, parseKubeConfig(readFile(file, input), `file ${file}`, input, file));
  } else {
    const home = opts.env.HOME || opts.env.USERPROFILE;
    const file = home ? path.join(home, '.kube', 'config') : undefined;
    const saDir = opts.serviceAccountDir ?? SERVICE_ACCOUNT;
    if (file && fs.existsSync(file)) {
      source = `file ${file}`;
      kc = parseKubeConfig(readFile(file, input), source, input, file);
    } else if (opts.env.KUBERNETES_SERVICE_HOST && fs.existsSync(path.join(saDir, 'token'))) {
      source = 'the in-cluster service account';
      kc = inCluster(opts.env, saDir);
      try {
        secrets.add(fs.readFileSync(path.join(saDir, 'token'), 'utf8').trim());
      } catch {
        // unreadable now; the request will fail with a clear error later
      }
    } else {
      throw new ConfigError(
        'no Kubernetes configuration found: the kubeconfig input is empty, KUBECONFIG is not set, ' +
          `${file ?? '~/.kube/config'} does not exist and this is not a pod with a service account`,
        'kubeconfig',
      );
    }
  }

  for (const user of kc.getUsers()) collectSecrets(user, secrets);
  validate(kc, opts.context?.trim() || undefined, source, input);
  return { kc, secrets: [...secrets].filter((s) => s !== ''), source };
}

/** A kubeconfig stored base64-encoded (a common way to keep it in a secret): decode it. */
function decodeIfBase64(content: string, secrets: Set<string>): string {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(content) || content.length < 40) return content;
  const decoded = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/(^|\n)\s*"?(clusters|apiVersion|kind|contexts|users)"?\s*:/.test(decoded)) {
    for (const line of content.split(/\s+/)) secrets.add(line);
    return decoded;
  }
  return content;
}

function readFile(file: string, input: string | undefined): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(
      `cannot read kubeconfig file ${file}: ${(err as NodeJS.ErrnoException).code ?? err}`,
      input,
    );
  }
}

/** Parse without ever putting the content (or js-yaml's snippet of it) into an error message. */
function parseKubeConfig(text: string, where: string, input: string | undefined, file?: string): KubeConfig {
  const kc = new KubeConfig();
  try {
    kc.loadFromString(text);
  } catch (err) {
    const e = err as {
      name?: string;
      reason?: string;
      mark?: { line: number; column: number };
      message?: string;
    };
    if (e.name === 'YAMLException') {
      const at = e.mark ? ` at line ${e.mark.line + 1}, column ${e.mark.column + 1}` : '';
      throw new ConfigError(`${where} is not valid YAML or JSON: ${e.reason ?? 'parse error'}${at}`, input);
    }
    if (err instanceof TypeError) {
      // js-yaml returned a scalar or null (e.g. a path was given where content was expected).
      throw new ConfigError(`${where} is not a kubeconfig document${hintForScalar(text)}`, input);
    }
    // client-node's own validation: "clusters[0].cluster.server is missing" and the like; no content.
    throw new ConfigError(`${where} is not a valid kubeconfig: ${e.message ?? String(err)}`, input);
  }
  const looksLikeMapping = /^\s*\{|^\s*["']?[\w.-]+["']?\s*:/m.test(text);
  if (!looksLikeMapping && !kc.clusters.length && !kc.contexts.length && !kc.users.length) {
    throw new ConfigError(`${where} is not a kubeconfig document${hintForScalar(text)}`, input);
  }
  if (file) kc.makePathsAbsolute(path.dirname(file));
  return kc;
}

function hintForScalar(text: string): string {
  const t = text.trim();
  if (
    !t.includes('\n') &&
    (t.startsWith('/') || t.startsWith('~') || t.startsWith('.') || /\.ya?ml$/.test(t))
  ) {
    return ' (it looks like a file path: the kubeconfig input takes the file content, or set KUBECONFIG to the path)';
  }
  return ' (expected a mapping with clusters, contexts and users)';
}

/** Merge like client-go: the first file that defines a name wins; the first current-context wins. */
function merge(into: KubeConfig, from: KubeConfig): void {
  if (!into.currentContext && from.currentContext) into.currentContext = from.currentContext;
  for (const c of from.clusters) if (!into.clusters.some((x) => x.name === c.name)) into.clusters.push(c);
  for (const u of from.users) if (!into.users.some((x) => x.name === u.name)) into.users.push(u);
  for (const c of from.contexts) if (!into.contexts.some((x) => x.name === c.name)) into.contexts.push(c);
}

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
        name: 'inClusterContext',
        cluster: 'inCluster',
        user: 'inClusterUser',
        namespace: fs.existsSync(namespaceFile) ? fs.readFileSync(namespaceFile, 'utf8').trim() : undefined,
      },
    ],
    currentContext: 'inClusterContext',
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

function validate(
  kc: KubeConfig,
  context: string | undefined,
  source: string,
  input: string | undefined,
): void {
  const names = kc.getContexts().map((c) => c.name);
  const available = names.length ? `available contexts: ${names.join(', ')}` : 'it defines no contexts';
  if (kc.getClusters().length === 0) throw new ConfigError(`${source} defines no clusters`, input);
  let ctx: Context | null;
  if (context) {
    ctx = kc.getContextObject(context);
    if (!ctx) throw new ConfigError(`context "${context}" is not in ${source}; ${available}`, 'context');
    kc.setCurrentContext(context);
  } else {
    const current = kc.getCurrentContext();
    if (!current) {
      throw new ConfigError(`${source} has no current-context; set the context input (${available})`, input);
    }
    ctx = kc.getContextObject(current);
    if (!ctx) throw new ConfigError(`current-context "${current}" is not in ${source}; ${available}`, input);
  }
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `cluster "${cluster.name}" in ${source} has an unsupported server URL scheme`,
      input,
    );
  }
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
