/** Kubeconfig text to a KubeConfig without ever echoing the content (a kubeconfig holds credentials). */
import fs from 'node:fs';
import path from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { ConfigError } from '../shared/errors.js';

/** A kubeconfig stored base64-encoded (a common way to keep it in a secret): decode it. */
export function decodeIfBase64(content: string, secrets: Set<string>): string {
  if (!/^[A-Za-z0-9+/=\s]+$/.test(content) || content.length < 40) return content;
  const decoded = Buffer.from(content.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (/(^|\n)\s*"?(clusters|apiVersion|kind|contexts|users)"?\s*:/.test(decoded)) {
    for (const line of content.split(/\s+/)) secrets.add(line);
    return decoded;
  }
  return content;
}

/** The text of a kubeconfig file; a failure names the file and the error code, never content. */
export function readFile(file: string, input: string | undefined): string {
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
export function parseKubeConfig(
  text: string,
  where: string,
  input: string | undefined,
  file?: string,
): KubeConfig {
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
export function merge(into: KubeConfig, from: KubeConfig): void {
  if (!into.currentContext && from.currentContext) into.currentContext = from.currentContext;
  for (const c of from.clusters) if (!into.clusters.some((x) => x.name === c.name)) into.clusters.push(c);
  for (const u of from.users) if (!into.users.some((x) => x.name === u.name)) into.users.push(u);
  for (const c of from.contexts) if (!into.contexts.some((x) => x.name === c.name)) into.contexts.push(c);
}
