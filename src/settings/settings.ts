/** Inputs → one frozen, typed Settings, validated before any cluster call. Pure. */
import { type ForcePolicy } from '../model/force.js';
import { formatDuration } from '../shared/duration.js';
export { MAX_DURATION_MS, readDuration, splitList, type InputReader } from './read-input.js';
import { ConfigError } from '../shared/errors.js';
import { compileGlob, globProblem } from '../shared/glob.js';
import { readSweep } from './sweep-inputs.js';
import { readBoolean, readChoice, readDuration, splitList, type InputReader } from './read-input.js';
import { crossChecks } from './checks.js';
import { readForce, OFF } from './force-policy.js';
export { DEFAULT_FORCE_AFTER_MS } from './force-policy.js';
import type { SweepSettings } from '../model/sweep.js';
import type { LifecycleSettings } from '../model/lifecycle.js';
import { NO_LIFECYCLE, readLifecycle } from './lifecycle-inputs.js';
import { Inputs } from './action-names.js';
import { labelSelectorProblem, namespaceNameProblem } from './name-syntax.js';
import { ACTION_NAMING, Problems, type Naming } from './naming.js';
import { readScope, type Scope } from './scope.js';
import { readClusterName } from './cluster-name.js';
import { readTargetLabel } from './target-label.js';

/** Namespaces that are never deleted or forced, whatever the inputs say. */
export const BUILT_IN_PROTECTED = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export const FAIL_ON = ['leaked', 'stuck', 'never'] as const;

export type FailOn = (typeof FAIL_ON)[number];

/**
 * What ends the wait before the timeout: `settled` also ends it once every target still there is settled (stuck on
 * what nothing in the cluster will change, and unchanged for a while); `timeout` waits for the targets to be gone or
 * the timeout, as kubectl wait does.
 */
export const WAIT_MODES = ['settled', 'timeout'] as const;
export type WaitMode = (typeof WAIT_MODES)[number];

/** `custom-resources-first` deletes a target's custom resources and lets their controllers finish first. */
export const TEARDOWN_ORDERS = ['custom-resources-first', 'namespace'] as const;
export type TeardownOrder = (typeof TEARDOWN_ORDERS)[number];

/** Everything the engine needs to know from the user. */
export interface Settings {
  readonly namespaces: readonly string[];
  readonly selector: string | undefined;
  /** `all-terminating`: the targets are the namespaces already Terminating (narrowed by `selector`); nothing is deleted. */
  readonly scope: Scope;
  readonly kubeconfig: string | undefined;
  readonly context: string | undefined;
  /** What the run calls its cluster (in the report, for `merge`); undefined = the context, else the server's host. */
  readonly clusterName: string | undefined;
  readonly delete: boolean;
  /** Plan mode: every write is sent as a dry run (`dryRun=All`), nothing is waited for or forced. */
  readonly dryRun: boolean;
  readonly timeoutMs: number;
  /** Whether the wait ends early once what is left is settled, or only when the targets are gone or at the timeout. */
  readonly wait: WaitMode;
  /** What goes first: the custom resources (their controllers still running), or the namespace at once. */
  readonly teardownOrder: TeardownOrder;
  /** The longest wait for custom resources before the namespace DELETE: its share of `timeoutMs`. */
  readonly customResourcesTimeoutMs: number;
  /** Built-in names plus the user's names and globs. */
  readonly protectedPatterns: readonly string[];
  /**
   * The label a target must carry for the run to write to it (`target-label`, else `sweep-pr-label`): one without it
   * is refused before any write. Undefined for `target-label: none`, or a run that writes nothing.
   */
  readonly targetLabel: string | undefined;
  readonly failOn: FailOn;
  readonly force: ForcePolicy;
  /** Not errors, but worth a line in the log (e.g. force on with nothing allowed). */
  readonly warnings: readonly string[];
  /** Choose the targets by asking GitHub which pull requests are closed; undefined = `sweep: off`. */
  readonly sweep: SweepSettings | undefined;
  /** The keep label, max age, the comment command and what is done with GitOps owners. */
  readonly lifecycle: LifecycleSettings;
  /** Create or update one comment on the pull request of the triggering event. */
  readonly prComment: boolean;
  /** For the sweep and the PR comment; never printed. */
  readonly githubToken: string | undefined;
}

/** Each name that is not a valid namespace name is its own problem (and still a name given, for the other checks). */
function readNamespaces(read: InputReader, n: Naming, p: Problems): string[] {
  const names = [...new Set(splitList(read(Inputs.namespaces)))];
  for (const name of names) {
    const problem = namespaceNameProblem(name);
    if (problem)
      p.errors.push(
        new ConfigError(
          `${n.input(Inputs.namespaces)}: "${name}" is not a valid namespace name: ${problem}.`,
          Inputs.namespaces,
        ),
      );
  }
  return names;
}

function readSelector(read: InputReader, n: Naming): string | undefined {
  const selector = read(Inputs.selector).trim();
  if (selector === '') return undefined;
  const problem = labelSelectorProblem(selector);
  if (problem)
    throw new ConfigError(
      `${n.input(Inputs.selector)} is "${selector}", which does not parse: ${problem}.`,
      Inputs.selector,
    );
  return selector;
}

function readProtected(read: InputReader, n: Naming): string[] {
  const extra = splitList(read(Inputs.protectedNamespaces));
  for (const pattern of extra) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(
        `${n.input(Inputs.protectedNamespaces)}: "${pattern}" is not a valid name or glob: ${problem}.`,
        Inputs.protectedNamespaces,
      );
    }
  }
  return [...BUILT_IN_PROTECTED, ...extra];
}

/** The custom resources' share of the timeout: as given (at most `timeout`), else half of it. */
function readCustomResourcesTimeout(read: InputReader, timeoutMs: number, n: Naming): number {
  const name = Inputs.customResourcesTimeout;
  if (!read(name).trim()) return Math.floor(timeoutMs / 2);
  const ms = readDuration(read, name, '0s', true, n);
  if (ms > timeoutMs) {
    throw new ConfigError(
      `${n.input(name)} is "${read(name).trim()}"; at most ${n.ref(Inputs.timeout)} (${formatDuration(timeoutMs)}) is allowed: it is a share of it.`,
      name,
    );
  }
  return ms;
}

/** The `fail-on` input (the teardown's and the merge's). */
export function readFailOn(read: InputReader, n: Naming = ACTION_NAMING): FailOn {
  return readChoice(read, Inputs.failOn, FAIL_ON, n);
}

/** Whether `name` matches one of the protected patterns. */
export function isProtected(settings: Pick<Settings, 'protectedPatterns'>, name: string): boolean {
  return settings.protectedPatterns.some((p) => compileGlob(p).test(name));
}

/** Read and validate every input; throws one ConfigError naming every input that is wrong, its value and what is allowed. */
export function readSettings(read: InputReader, n: Naming = ACTION_NAMING): Settings {
  const p = new Problems();
  const namespaces = readNamespaces(read, n, p);
  const selector = p.take(() => readSelector(read, n), undefined);
  const sweep = p.take(() => readSweep(read, n, p), undefined);
  const githubToken = read(Inputs.githubToken).trim() || undefined;
  // A scope that is wrong is reported as such, not also as "No targets".
  const scope = p.take(
    () => readScope(read, { namespaces, sweep: sweep !== undefined }, n),
    'all-terminating',
  );
  const timeoutMs = p.take(() => readDuration(read, Inputs.timeout, '5m', false, n), 300_000);
  const forced = p.take(() => readForce(read, timeoutMs, n), undefined);
  // Already Terminating: there is nothing to delete, and nothing new may be.
  const deletes = scope === 'targets' && p.take(() => readBoolean(read, Inputs.delete, true, n), true);
  const writes = { deletes, forces: forced?.policy.mode === 'on', sweeps: sweep !== undefined };
  const settings: Settings = {
    namespaces,
    selector,
    scope,
    kubeconfig: read(Inputs.kubeconfig).trim() || undefined,
    context: read(Inputs.context).trim() || undefined,
    clusterName: p.take(() => readClusterName(read(Inputs.clusterName), Inputs.clusterName, n), undefined),
    delete: deletes,
    dryRun: p.take(() => readBoolean(read, Inputs.dryRun, false, n), false),
    timeoutMs,
    wait: p.take(() => readChoice(read, Inputs.wait, WAIT_MODES, n), 'settled'),
    teardownOrder: p.take(() => readChoice(read, Inputs.teardownOrder, TEARDOWN_ORDERS, n), 'namespace'),
    customResourcesTimeoutMs: p.take(() => readCustomResourcesTimeout(read, timeoutMs, n), 0),
    protectedPatterns: p.take(() => readProtected(read, n), [...BUILT_IN_PROTECTED]),
    targetLabel: p.take(() => readTargetLabel(read, writes, n), undefined),
    failOn: p.take(() => readFailOn(read, n), 'leaked'),
    force: forced?.policy ?? OFF,
    warnings: forced?.warnings ?? [],
    sweep,
    lifecycle: p.take(() => readLifecycle(read, sweep !== undefined, n), NO_LIFECYCLE),
    prComment: p.take(() => readBoolean(read, Inputs.prComment, false, n), false),
    githubToken,
  };
  for (const check of crossChecks(settings, n)) p.take(check, undefined);
  p.throwAny();
  return Object.freeze(settings);
}
