/** `namespace-teardown rbac`: the ClusterRoles of deploy/rbac.yaml with the rules this cluster's CRDs call for. */
import { parseArgs } from 'node:util';
import type { KubeReader } from '../kube/port.js';
import { crdTypes, customRules, type CustomType } from '../permissions/custom-types.js';
import { comment, renderRole } from '../permissions/render.js';
import { roleOf } from '../permissions/roles.js';
import { MODES, type Mode } from '../permissions/rule.js';
import { ConfigError, messageOf } from '../shared/errors.js';
import { closeWithin, connect, readKubeconfigFile } from './connect.js';

/** `rbac --help`: what it prints, how to apply it, the exit statuses (80 columns). */
export const RBAC_HELP = `namespace-teardown rbac: the ClusterRoles for this cluster, to review and apply.

Usage: namespace-teardown rbac [--mode LIST] [--kubeconfig FILE] [--context CTX]

  --mode LIST        the modes, separated by commas (default: every one):
                     ${MODES.join(', ')}
  --kubeconfig FILE  the kubeconfig (default: KUBECONFIG, then ~/.kube/config)
  --context CTX      its context (default: the current one)
  --help             this text

Prints the roles of deploy/rbac.yaml for those modes, each rule under the step
that uses it, and one rule per API group of the namespaced types this cluster's
CRDs serve where a mode needs them (diagnose: list; custom-resources: delete,
list, watch; force: get, patch). It reads discovery and the CRDs' names, and
writes nothing. Apply what it prints, and again whenever CRDs change:

  namespace-teardown rbac --mode diagnose,custom-resources,force \\
    | kubectl apply -f -

Exit status: 0 printed, 1 the cluster could not be read, 2 on bad input.`;

function parse(argv: string[]): ReturnType<typeof parseArgs> {
  try {
    return parseArgs({
      args: argv,
      strict: true,
      options: {
        mode: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new ConfigError(`${messageOf(error)}. See rbac --help.`);
  }
}

/** The modes `--mode` names (every one when absent); an unknown one is a ConfigError naming the flag. */
function readModes(value: string | undefined): Mode[] {
  if (value === undefined) return [...MODES];
  const given = value.split(',').map((m) => m.trim());
  const wrong = given.filter((m) => !(MODES as readonly string[]).includes(m));
  if (wrong.length > 0 || given.length === 0) {
    throw new ConfigError(
      `--mode is "${value}": ${wrong.map((w) => `"${w}"`).join(', ') || 'nothing'} is not a mode; allowed: ${MODES.join(', ')}, separated by commas.`,
      'mode',
    );
  }
  return MODES.filter((m) => given.includes(m));
}

const CRDS = { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' };

/** The namespaced types the cluster's CRDs serve, and the group-versions discovery could not read. */
export async function readCustomTypes(kube: KubeReader): Promise<{ types: CustomType[]; failed: string[] }> {
  const names = new Set<string>();
  const seen = new Set<string>();
  let cont: string | undefined;
  do {
    const page = await kube.listMetadata(CRDS, { limit: 500, continue: cont });
    for (const item of page.items) names.add(item.name);
    cont = page.continue;
    if (cont !== undefined && seen.has(cont)) throw new Error('the CRD list repeated a continue token');
    if (cont !== undefined) seen.add(cont);
  } while (cont !== undefined);
  const discovery = await kube.discover({ core: false });
  return { types: crdTypes(discovery.resources, names), failed: discovery.failed.map((f) => f.groupVersion) };
}

/** The text printed: a header, then each role with this cluster's rules. */
export function rbacText(modes: readonly Mode[], read?: { types: CustomType[]; failed: string[] }): string {
  const groups = new Set(read?.types.map((t) => t.group));
  const head = read
    ? comment(
        `namespace-teardown rbac --mode ${modes.join(',')}: ${read.types.length} namespaced type(s) in ` +
          `${groups.size} API group(s) served by CRDs.` +
          (read.failed.length
            ? ` Discovery failed for ${read.failed.join(', ')}: a type of those is not in the rules.`
            : ''),
      )
    : comment(`namespace-teardown rbac --mode ${modes.join(',')}`);
  const roles = modes.map((m) => {
    const role = roleOf(m);
    return renderRole(
      role,
      read && role.customResources ? { rules: customRules(role, read.types) } : undefined,
    );
  });
  return `${head.join('\n')}\n${roles.join('\n---\n')}\n`;
}

/** Run `rbac`; returns the exit status (bad input is thrown as a ConfigError, as for the teardown). */
export async function rbacCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv);
  if (values.help) {
    process.stdout.write(`${RBAC_HELP}\n`);
    return 0;
  }
  const modes = readModes(values.mode as string | undefined);
  const file = values.kubeconfig as string | undefined;
  const kubeconfig = file === undefined ? undefined : readKubeconfigFile(file);
  if (!modes.some((m) => roleOf(m).customResources)) {
    process.stdout.write(rbacText(modes));
    return 0;
  }
  const { kube } = await connect(kubeconfig, values.context as string | undefined);
  try {
    process.stdout.write(rbacText(modes, await readCustomTypes(kube)));
    return 0;
  } finally {
    await closeWithin(kube, 2_000);
  }
}
