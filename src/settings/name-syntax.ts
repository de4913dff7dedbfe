/** Kubernetes name and label-selector syntax checks: pure, used before any cluster call. */

const LABEL_NAME = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** Why `name` is not a valid namespace name (a DNS-1123 label), or undefined when it is. */
export function namespaceNameProblem(name: string): string | undefined {
  if (name.length > 63) return `it is ${name.length} characters long; at most 63 are allowed`;
  if (/[A-Z]/.test(name))
    return 'it contains upper-case letters; only lower-case letters, digits and "-" are allowed';
  if (!DNS1123_LABEL.test(name)) {
    return 'a namespace name is a DNS-1123 label: lower-case letters, digits and "-", starting and ending with a letter or digit';
  }
  return undefined;
}

function keyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !DNS1123_SUBDOMAIN.test(prefix))) {
    return `label key "${key}" has an invalid prefix "${prefix}" (a DNS subdomain is expected)`;
  }
  if (name.length === 0 || name.length > 63 || !LABEL_NAME.test(name)) {
    return `label key "${key}" is invalid (name part: 1-63 letters, digits, "-", "_", "." starting and ending alphanumeric)`;
  }
  return undefined;
}

/** Why `key` is not one label key (a prefix and a name), or undefined when it is. */
export function labelKeyProblem(key: string): string | undefined {
  return /^[^\s!=(),]+$/.test(key) ? keyProblem(key) : 'it must be one label key';
}

function valueProblem(value: string): string | undefined {
  if (value === '') return undefined;
  if (value.length > 63 || !LABEL_NAME.test(value)) {
    return `label value "${value}" is invalid (up to 63 letters, digits, "-", "_", "." starting and ending alphanumeric)`;
  }
  return undefined;
}

/** Split a selector at top-level commas (commas inside `in (...)` sets stay). */
export function splitRequirements(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of selector) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  return parts;
}

/** `key in (a,b)` / `key notin (a,b)`: key, operator, the raw value list. */
export const SET_REQ = /^([^\s!=(),]+)\s+(in|notin)\s+\(([^()]*)\)$/;
/** `key=value`, `key==value`, `key!=value`. */
export const EQ_REQ = /^([^\s!=(),]+)\s*(==|=|!=)\s*([^\s!=(),]*)$/;
/** `key` / `!key`. */
export const EXISTS_REQ = /^(!?)\s*([^\s!=(),]+)$/;

function requirementProblem(req: string): string | undefined {
  if (req === '') return 'it has an empty requirement (a stray comma?)';
  const set = SET_REQ.exec(req);
  if (set) {
    const values = set[3]!.split(',').map((v) => v.trim());
    // The API server refuses an empty set; `notin ()` would otherwise match every namespace.
    if (set[3]!.trim() === '') return `"${req}" has an empty value set; "${set[2]}" needs at least one value`;
    return keyProblem(set[1]!) ?? values.map(valueProblem).find((p) => p !== undefined);
  }
  const eq = EQ_REQ.exec(req);
  if (eq) return keyProblem(eq[1]!) ?? valueProblem(eq[3]!);
  const exists = EXISTS_REQ.exec(req);
  if (exists) return keyProblem(exists[2]!);
  return `"${req}" is not a requirement (expected key, !key, key=value, key!=value, key in (a,b), key notin (a,b))`;
}

/** Why `selector` is not a valid label selector, or undefined when it is. */
export function labelSelectorProblem(selector: string): string | undefined {
  for (const req of splitRequirements(selector)) {
    const problem = requirementProblem(req);
    if (problem) return problem;
  }
  return undefined;
}
