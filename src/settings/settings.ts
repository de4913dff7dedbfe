/** Inputs → one frozen, typed Settings, validated before any cluster call. Pure. */
import { validateForcePolicy } from './force-policy.js';
import { type ForcePolicy } from '../model/force.js';
import { formatDuration, parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { compileGlob, globProblem } from '../shared/glob.js';
import { readSweep } from './sweep.js';
import type { SweepSettings } from '../model/sweep.js';
import type { LifecycleSettings } from '../model/lifecycle.js';
import { readLifecycle } from './lifecycle.js';
import { Inputs } from './action-names.js';
import { labelSelectorProblem, namespaceNameProblem } from './name-syntax.js';
import { readScope, type Scope } from './scope.js';

/** Namespaces that are never deleted or forced, whatever the inputs say. */
export const BUILT_IN_PROTECTED = ['default', 'kube-system', 'kube-public', 'kube-node-lease'] as const;

export const FAIL_ON = ['leaked', 'stuck', 'never'] as const;

/** force-after when unset: one minute, or half the timeout when that is shorter (so forcing can be verified). */
export const DEFAULT_FORCE_AFTER_MS = 60_000;
export type FailOn = (typeof FAIL_ON)[number];

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
  readonly delete: boolean;
  readonly timeoutMs: number;
  /** What goes first: the custom resources (their controllers still running), or the namespace at once. */
  readonly teardownOrder: TeardownOrder;
  /** The longest wait for custom resources before the namespace DELETE: its share of `timeoutMs`. */
  readonly customResourcesTimeoutMs: number;
  /** Built-in names plus the user's names and globs. */
  readonly protectedPatterns: readonly string[];
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

/** Reads one input by name; empty string when unset (like core.getInput). */
export type InputReader = (name: string) => string;

/** Split a list input on newlines, commas and spaces, dropping empties. */
export function splitList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

function readBoolean(read: InputReader, name: string, fallback: boolean): boolean {
  const raw = read(name).trim();
  if (raw === '') return fallback;
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  throw new ConfigError(`Input "${name}" is "${raw}"; allowed: true or false.`, name);
}

/** The longest duration an input may give: longer than any job runs, far below what timers can hold. */
export const MAX_DURATION_MS = 24 * 3_600_000;

/** Parse a duration input, naming the input in the error. */
export function readDuration(read: InputReader, name: string, fallback: string, allowZero = false): number {
  const raw = read(name).trim() || fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || (ms === 0 && !allowZero)) {
    throw new ConfigError(
      `Input "${name}" is "${raw}", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.`,
      name,
    );
  }
  if (ms > MAX_DURATION_MS) {
    throw new ConfigError(`Input "${name}" is "${raw}"; at most 24h is allowed.`, name);
  }
  return ms;
}

function readNamespaces(read: InputReader): string[] {
  const names = [...new Set(splitList(read(Inputs.namespaces)))];
  for (const name of names) {
    const problem = namespaceNameProblem(name);
    if (problem)
      throw new ConfigError(
        `Input "namespaces": "${name}" is not a valid namespace name: ${problem}.`,
        Inputs.namespaces,
      );
  }
  return names;
}

function readSelector(read: InputReader): string | undefined {
  const selector = read(Inputs.selector).trim();
  if (selector === '') return undefined;
  const problem = labelSelectorProblem(selector);
  if (problem)
    throw new ConfigError(
      `Input "selector" is "${selector}", which does not parse: ${problem}.`,
      Inputs.selector,
    );
  return selector;
}

function readProtected(read: InputReader): string[] {
  const extra = splitList(read(Inputs.protectedNamespaces));
  for (const pattern of extra) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(
        `Input "protected-namespaces": "${pattern}" is not a valid name or glob: ${problem}.`,
        Inputs.protectedNamespaces,
      );
    }
  }
  return [...BUILT_IN_PROTECTED, ...extra];
}

function readTeardownOrder(read: InputReader): TeardownOrder {
  const raw = read(Inputs.teardownOrder).trim() || 'custom-resources-first';
  if (!(TEARDOWN_ORDERS as readonly string[]).includes(raw)) {
    throw new ConfigError(
      `Input "teardown-order" is "${raw}"; allowed: ${TEARDOWN_ORDERS.join(', ')}.`,
      Inputs.teardownOrder,
    );
  }
  return raw as TeardownOrder;
}

/** The custom resources' share of the timeout: as given (at most `timeout`), else half of it. */
function readCustomResourcesTimeout(read: InputReader, timeoutMs: number): number {
  if (!read(Inputs.customResourcesTimeout).trim()) return Math.floor(timeoutMs / 2);
  const ms = readDuration(read, Inputs.customResourcesTimeout, '0s', true);
  if (ms > timeoutMs) {
    throw new ConfigError(
      `Input "custom-resources-timeout" is "${read(Inputs.customResourcesTimeout).trim()}"; at most "timeout" (${formatDuration(timeoutMs)}) is allowed: it is a share of it.`,
      Inputs.customResourcesTimeout,
    );
  }
  return ms;
}

function readFailOn(read: InputReader): FailOn {
  const raw = read(Inputs.failOn).trim() || 'leaked';
  if (!(FAIL_ON as readonly string[]).includes(raw)) {
    throw new ConfigError(`Input "fail-on" is "${raw}"; allowed: ${FAIL_ON.join(', ')}.`, Inputs.failOn);
  }
  return raw as FailOn;
}

/** Whether `name` matches one of the protected patterns. */
export function isProtected(settings: Pick<Settings, 'protectedPatterns'>, name: string): boolean {
  return settings.protectedPatterns.some((p) => compileGlob(p).test(name));
}

/** Read and validate every input; throws ConfigError naming the input, the value and what is allowed. */
export function readSettings(read: InputReader): Settings {
  const namespaces = readNamespaces(read);
  const selector = readSelector(read);
  const sweep = readSweep(read);
  const githubToken = read(Inputs.githubToken).trim() || undefined;
  if (sweep && namespaces.length > 0)
    throw new ConfigError(
      `Inputs "namespaces" and "sweep: ${sweep.mode}" cannot be used together: the sweep chooses the targets (narrow it with "selector").`,
      Inputs.namespaces,
    );
  if (sweep && githubToken === undefined)
    throw new ConfigError(
      'Input "github-token" is empty; the sweep needs a token that can read pull requests.',
      Inputs.githubToken,
    );
  const scope = readScope(read, { namespaces, sweep: sweep !== undefined });
  if (!sweep && scope === 'targets' && namespaces.length === 0 && selector === undefined) {
    throw new ConfigError(
      'No targets: set "namespaces" (names separated by newlines, commas or spaces) or "selector", turn on "sweep", or use "scope: all-terminating".',
      Inputs.namespaces,
    );
  }
  const timeoutMs = readDuration(read, Inputs.timeout, '5m');
  const forced = validateForcePolicy({
    force: read(Inputs.force),
    forceAfter: read(Inputs.forceAfter).trim()
      ? readDuration(read, Inputs.forceAfter, '1m', true)
      : Math.min(DEFAULT_FORCE_AFTER_MS, timeoutMs / 2),
    forceFinalizers: read(Inputs.forceFinalizers).split('\n'),
    finalizeNamespace: readBoolean(read, Inputs.forceFinalizeNamespace, false),
    forceDeletePods: read(Inputs.forceDeletePods),
    timeoutMs,
  });
  const settings: Settings = {
    namespaces,
    selector,
    scope,
    kubeconfig: read(Inputs.kubeconfig).trim() || undefined,
    context: read(Inputs.context).trim() || undefined,
    // Already Terminating: there is nothing to delete, and nothing new may be.
    delete: scope === 'targets' && readBoolean(read, Inputs.delete, true),
    timeoutMs,
    teardownOrder: readTeardownOrder(read),
    customResourcesTimeoutMs: readCustomResourcesTimeout(read, timeoutMs),
    protectedPatterns: readProtected(read),
    failOn: readFailOn(read),
    force: forced.policy,
    warnings: forced.warnings,
    sweep,
    lifecycle: readLifecycle(read, sweep !== undefined),
    prComment: readBoolean(read, Inputs.prComment, false),
    githubToken,
  };
  if (settings.prComment && githubToken === undefined)
    throw new ConfigError(
      'Input "github-token" is empty; "pr-comment: true" needs a token that can write pull-request comments.',
      Inputs.githubToken,
    );
  const refused = namespaces.filter((n) => isProtected(settings, n));
  if (refused.length > 0) {
    throw new ConfigError(
      `Input "namespaces" names protected namespace(s) ${refused.map((n) => `"${n}"`).join(', ')}; ` +
        `protected: ${settings.protectedPatterns.join(', ')}. Remove them from the targets.`,
      Inputs.namespaces,
    );
  }
  return Object.freeze(settings);
}
