/** A role as the YAML a reviewer reads and `kubectl apply` takes: each rule under a comment naming its step. Pure. */
import type { Role, Rule } from './rule.js';

/** The widest line printed (the repository's formatter keeps it as it is). */
const WIDTH = 110;

/** `text` as comment lines of at most WIDTH columns, indented. */
export function comment(text: string, indent = ''): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent.length + 2 + line.length + 1 + word.length > WIDTH) {
      lines.push(`${indent}# ${line}`);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(`${indent}# ${line}`);
  return lines;
}

const scalar = (s: string): string => (s === '' ? "''" : s);

/** A list as `key: [a, b]` when it fits on the line, else one item a line. */
function list(key: string, items: readonly string[], indent: string): string[] {
  const flow = `${indent}${key}: [${items.map(scalar).join(', ')}]`;
  if (flow.length <= WIDTH) return [flow];
  return [`${indent}${key}:`, ...items.map((i) => `${indent}  - ${scalar(i)}`)];
}

/** One rule, under its comment. */
export function renderRule(rule: Rule): string[] {
  return [
    ...comment(rule.why, '  '),
    ...list('- apiGroups', rule.apiGroups, '  '),
    ...list('resources', rule.resources, '    '),
    ...list('verbs', rule.verbs, '    '),
  ];
}

/** What this cluster's custom resource types add, when they were read (`namespace-teardown rbac`). */
export interface ClusterTypes {
  rules: readonly Rule[];
}

/** The comment that stands for the custom-resource rules in the shipped file, or heads those of this cluster. */
function customPart(role: Role, cluster: ClusterTypes | undefined): string[] {
  const need = role.customResources;
  if (!need) return [];
  const verbs = need.verbs.join(', ');
  if (!cluster) {
    return comment(
      `${need.why} Those are rules on custom resource types (${verbs}), and RBAC cannot say "served by a CRD": ` +
        `\`namespace-teardown rbac --mode ${role.mode}\` prints this role with one rule per API group of the ` +
        `cluster's CRDs; apply it, and again whenever CRDs are added or removed.`,
      '  ',
    );
  }
  const head = comment(
    `${need.why} Rules on custom resource types (${verbs}): the namespaced types this cluster's CRDs serve, read by ` +
      `\`namespace-teardown rbac\`; run it again whenever CRDs are added or removed.`,
    '  ',
  );
  if (cluster.rules.length === 0)
    return [...head, ...comment('(none: no CRD serves a namespaced type)', '  ')];
  return [...head, ...cluster.rules.flatMap(renderRule)];
}

/** One ClusterRole, its comment first; `cluster` adds the rules for the cluster's custom resource types. */
export function renderRole(role: Role, cluster?: ClusterTypes): string {
  const bound = role.boundIn
    ? comment(
        `Bind it with a RoleBinding in each namespace where those owners live (${role.boundIn.join(', ')}), ` +
          'never with a ClusterRoleBinding: its writes then hold only there.',
      )
    : [];
  return [
    ...comment(`${role.name}: ${role.serves}.`),
    ...bound,
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRole',
    'metadata:',
    `  name: ${role.name}`,
    'rules:',
    ...role.rules.flatMap(renderRule),
    ...customPart(role, cluster),
  ].join('\n');
}
