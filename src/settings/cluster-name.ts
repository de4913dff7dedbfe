/** Cluster names: the teardown's `cluster-name` and the merge's `clusters` list, checked before anything runs. Pure. */
import { ConfigError } from '../shared/errors.js';
import { ACTION_NAMING, type Naming } from './naming.js';

/** The longest cluster name: it heads tables, log lines and output keys. */
export const CLUSTER_NAME_MAX = 100;

/**
 * The characters a cluster name or kubeconfig context may hold: letters, digits and `. _ : / @ + -`, enough for
 * `kind-eu`, `gke_project_zone_name`, `arn:aws:eks:eu-west-1:123456789012:cluster/prod` or
 * `default/api-example-com:6443/kube:admin`, and none that a shell reads inside or outside quotes.
 */
const NAME_CHARS = /^[A-Za-z0-9._:/@+-]*$/;
/** What NAME_CHARS allows, in words. */
export const NAME_CHARS_WORDS = 'letters, digits and . _ : / @ + -';

/** The first character of `name` that NAME_CHARS does not allow, shown as JSON shows it, and where (from 1). */
function firstOutside(name: string): string | undefined {
  const at = [...name].findIndex((c) => !NAME_CHARS.test(c));
  return at < 0 ? undefined : `${JSON.stringify([...name][at])} at character ${at + 1}`;
}

/**
 * Why `name` cannot name a cluster (or be a context a report names), or undefined when it can. The words never
 * quote the name itself, only the first character that is not allowed: they may be shown where foreign text is not.
 */
export function clusterNameProblem(name: string, max = CLUSTER_NAME_MAX): string | undefined {
  if (name.length === 0) return 'it is empty';
  if (name.length > max) return `it is ${name.length} characters long; at most ${max} are allowed`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return 'it contains a control character or a line break';
  const outside = firstOutside(name);
  if (outside) return `it holds ${outside}; allowed: ${NAME_CHARS_WORDS}, starting with a letter or digit`;
  if (!/^[A-Za-z0-9]/.test(name))
    return `it starts with ${JSON.stringify(name[0])}; it must start with a letter or digit`;
  return undefined;
}

/** The `cluster-name` input: a name of its own, or undefined for the default (the context, else the server). */
export function readClusterName(raw: string, input: string, n: Naming = ACTION_NAMING): string | undefined {
  const name = raw.trim();
  if (name === '') return undefined;
  const problem = clusterNameProblem(name);
  if (problem)
    throw new ConfigError(`${n.input(input)} is "${name}", which cannot name a cluster: ${problem}.`, input);
  return name;
}

/** One entry of a JSON list: a name, or an object whose `name` is one (a matrix entry). */
function nameOfEntry(entry: unknown, i: number, input: string, n: Naming): string {
  const name =
    typeof entry === 'string'
      ? entry
      : typeof entry === 'object' && entry !== null && typeof (entry as { name?: unknown }).name === 'string'
        ? (entry as { name: string }).name
        : undefined;
  if (name === undefined)
    throw new ConfigError(
      `${n.input(input)}: entry ${i + 1} of the JSON list is ${JSON.stringify(entry)?.slice(0, 80)}; allowed: a name, or an object with a "name" (the matrix's own entries).`,
      input,
    );
  return name;
}

function parseJsonList(raw: string, input: string, n: Naming): unknown[] {
  let list: unknown;
  try {
    list = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError(
      `${n.input(input)} starts with "[" but is not JSON: ${(error as Error).message}.`,
      input,
    );
  }
  if (!Array.isArray(list)) throw new ConfigError(`${n.input(input)} is JSON but not a list.`, input);
  return list;
}

/**
 * The clusters a fleet expects: a JSON list (of names, or of matrix entries with a `name`, so the matrix's own list
 * can be passed as is), or names separated by newlines or commas. Each name once.
 */
export function readClusterList(raw: string, input: string, n: Naming = ACTION_NAMING): string[] {
  const text = raw.trim();
  if (text === '') return [];
  const names = text.startsWith('[')
    ? parseJsonList(text, input, n).map((e, i) => nameOfEntry(e, i, input, n).trim())
    : text
        .split(/[\n,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
  const seen = new Set<string>();
  for (const name of names) {
    const problem = clusterNameProblem(name);
    if (problem)
      throw new ConfigError(`${n.input(input)}: "${name}" cannot name a cluster: ${problem}.`, input);
    if (seen.has(name)) throw new ConfigError(`${n.input(input)} names cluster "${name}" twice.`, input);
    seen.add(name);
  }
  return names;
}
