/**
 * The command line's flags: one per action input, named alike (a Record over the input names, so an input without
 * a flag does not compile), then the command line's own; the help text and the error words come from it. Pure.
 */
import { Inputs, type InputName } from '../settings/action-names.js';
import type { Naming } from '../settings/naming.js';

/** `value` takes one argument; `list` may be repeated or comma-separated; `switch` takes none. */
export type FlagKind = 'value' | 'list' | 'switch';

/** A flag: its name (`--name`), an optional one-letter alias, its argument's placeholder, one line of help. */
export interface Flag {
  kind: FlagKind;
  short?: string;
  arg?: string;
  help: string;
  /** The flag's name when it is not the input's (`--no-delete` for `delete`). */
  flag?: string;
}

/** An input given only through the environment: a flag would show a secret in `ps`. */
export interface EnvOnly {
  env: string;
  help: string;
}

/** How each action input is given on the command line. */
export const INPUT_FLAGS: Record<InputName, Flag | EnvOnly> = {
  [Inputs.namespaces]: {
    kind: 'list',
    short: 'n',
    arg: 'LIST',
    help: 'namespaces to delete, separated by commas (-n as in kubectl, but each one named is a target)',
  },
  [Inputs.selector]: {
    kind: 'value',
    short: 'l',
    arg: 'SELECTOR',
    help: 'label selector, e.g. team=web,pr=123',
  },
  [Inputs.scope]: {
    kind: 'value',
    arg: 'SCOPE',
    help: 'targets (default) | all-terminating: every namespace already Terminating, narrowed by --selector; deletes nothing',
  },
  [Inputs.kubeconfig]: {
    kind: 'value',
    arg: 'FILE',
    help: 'kubeconfig file (default: KUBECONFIG, ~/.kube/config, in-cluster)',
  },
  [Inputs.context]: {
    kind: 'value',
    arg: 'NAME',
    help: 'kubeconfig context (default: the current one); several, separated by commas, run side by side and print one merged answer',
  },
  [Inputs.clusterName]: {
    kind: 'value',
    arg: 'NAME',
    help: 'what the report calls the cluster (default: the context, else the server)',
  },
  [Inputs.delete]: { kind: 'switch', flag: 'no-delete', help: 'only watch namespaces someone else deleted' },
  [Inputs.dryRun]: {
    kind: 'switch',
    help: 'plan only: each write is sent with dryRun=All (RBAC, admission answer); nothing changes',
  },
  [Inputs.timeout]: { kind: 'value', arg: 'DURATION', help: 'how long to wait, e.g. 90s, 5m (default 5m)' },
  [Inputs.wait]: {
    kind: 'value',
    arg: 'MODE',
    help: 'settled (default): end once what is left is settled | timeout: wait until gone or the timeout',
  },
  [Inputs.teardownOrder]: {
    kind: 'value',
    arg: 'ORDER',
    help: 'custom-resources-first (default) | namespace',
  },
  [Inputs.customResourcesTimeout]: {
    kind: 'value',
    arg: 'DURATION',
    help: "the custom resources' share of the timeout (default half)",
  },
  [Inputs.protectedNamespaces]: { kind: 'list', arg: 'LIST', help: 'extra names or globs never touched' },
  [Inputs.targetLabel]: {
    kind: 'value',
    arg: 'KEY',
    help: "the label every target must carry to be deleted or forced; one without it is refused (default: --sweep-pr-label; 'none': no fence)",
  },
  [Inputs.failOn]: { kind: 'value', arg: 'MODE', help: 'leaked (default) | stuck | never' },
  [Inputs.force]: { kind: 'value', arg: 'MODE', help: 'off (default) | dry-run | on' },
  [Inputs.forceAfter]: {
    kind: 'value',
    arg: 'DURATION',
    help: 'how long Terminating before forcing (default 1m)',
  },
  [Inputs.forceFinalizers]: {
    kind: 'list',
    arg: 'GLOB',
    help: 'finalizer glob that may be removed; repeat the flag for more',
  },
  [Inputs.forceFinalizeNamespace]: {
    kind: 'switch',
    help: 'allow the last resort, a PUT to .../finalize',
  },
  [Inputs.forceDeletePods]: {
    kind: 'value',
    arg: 'MODE',
    help: 'off (default) | lost-nodes: delete the terminating pods of a lost node',
  },
  [Inputs.sweep]: {
    kind: 'value',
    arg: 'MODE',
    help: 'off (default) | plan | on: the targets are the namespaces of closed pull requests',
  },
  [Inputs.sweepPrLabel]: {
    kind: 'value',
    arg: 'KEY',
    help: 'namespace label whose value is the pull request number',
  },
  [Inputs.sweepClosedFor]: {
    kind: 'value',
    arg: 'DURATION',
    help: 'how long a pull request must have been closed (default 1h)',
  },
  [Inputs.sweepMaxAge]: {
    kind: 'value',
    arg: 'DURATION',
    help: 'unlabelled candidates go once older than this (default: never)',
  },
  [Inputs.sweepRepository]: {
    kind: 'value',
    arg: 'REPO',
    help: 'owner/name whose pull requests are asked about (default: GITHUB_REPOSITORY)',
  },
  [Inputs.keepLabel]: {
    kind: 'value',
    arg: 'LABEL',
    help: "a pull request with this label keeps its preview (default keep-preview; '' for none)",
  },
  [Inputs.maxAge]: {
    kind: 'value',
    arg: 'DURATION',
    help: 'the sweep removes previews older than this, e.g. 7d, even while their pull request is open',
  },
  [Inputs.commentCommand]: {
    kind: 'value',
    arg: 'WORD',
    help: 'on a comment event, the word that asks for the teardown (default /teardown)',
  },
  [Inputs.allowEvents]: {
    kind: 'list',
    arg: 'EVENTS',
    help: "in a workflow, events besides the lifecycle's (e.g. push) on which the targets are deleted as given",
  },
  [Inputs.gitopsOwners]: {
    kind: 'value',
    arg: 'POLICY',
    help: 'report (default) | suspend | delete | delete-or-suspend: a Flux or Argo CD owner of a target goes first',
  },
  [Inputs.prComment]: {
    kind: 'switch',
    help: 'comment on the pull request of the workflow event (GITHUB_EVENT_PATH)',
  },
  [Inputs.githubToken]: {
    env: 'GITHUB_TOKEN',
    help: 'for the sweep and --pr-comment; GITHUB_API_URL, GITHUB_GRAPHQL_URL for GHES',
  },
};

/** The command line's own flags, after the inputs' in the help. */
export const CLI_FLAGS = {
  report: { kind: 'value', arg: 'FILE', help: 'write the JSON report there' },
  'show-labels': {
    kind: 'switch',
    help: "a LABELS column, last and whole: each namespace's labels, as kubectl's --show-labels",
  },
  output: {
    kind: 'value',
    short: 'o',
    arg: 'FORMAT',
    help: 'text (default) | json | markdown (the job summary)',
  },
  help: { kind: 'switch', short: 'h', help: 'this text' },
  version: { kind: 'switch', help: 'print the version and exit' },
} as const satisfies Record<string, Flag>;

/** A flag's name on the command line. */
export function flagName(input: string, spec: Flag): string {
  return spec.flag ?? input;
}

/** Every flag by its name on the command line, the inputs' first. */
export function allFlags(): [string, Flag][] {
  const inputs = Object.entries(INPUT_FLAGS).flatMap(([input, spec]): [string, Flag][] =>
    'env' in spec ? [] : [[flagName(input, spec), spec]],
  );
  return [...inputs, ...Object.entries(CLI_FLAGS)];
}

/** The command line's words for inputs in error messages: `--timeout`, `GITHUB_TOKEN`, `--sweep plan`. */
export const CLI_NAMING: Naming = {
  input: (name) => cliName(name),
  ref: (name) => cliName(name),
  setting: (name, value) => {
    const spec = INPUT_FLAGS[name as InputName];
    if (spec && !('env' in spec) && spec.kind === 'switch') return `--${flagName(name, spec)}`;
    return `${cliName(name)} ${value}`;
  },
};

function cliName(name: string): string {
  const spec = INPUT_FLAGS[name as InputName];
  if (!spec) return `--${name}`;
  return 'env' in spec ? spec.env : `--${flagName(name, spec)}`;
}
