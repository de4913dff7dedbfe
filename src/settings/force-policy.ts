/** The force inputs validated into one policy, with the warnings they deserve. Pure. */
import type { ForcePolicy } from '../model/force.js';
import { formatDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { globProblem } from '../shared/glob.js';
import { Inputs } from './action-names.js';
import { ACTION_NAMING, Problems, type Naming } from './naming.js';
import { readBoolean, readDuration, type InputReader } from './read-input.js';

/** force-after when unset: one minute, or half the timeout when that is shorter (so forcing can be verified). */
export const DEFAULT_FORCE_AFTER_MS = 60_000;

/** The policy when nothing may be forced. */
export const OFF: ForcePolicy = Object.freeze({
  mode: 'off',
  afterMs: DEFAULT_FORCE_AFTER_MS,
  finalizerPatterns: [],
  finalizeNamespace: false,
  deletePods: 'off',
});

const MODES = ['off', 'dry-run', 'on'] as const;

const POD_MODES = ['off', 'lost-nodes'] as const;

function readPodMode(raw: string, n: Naming): ForcePolicy['deletePods'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = POD_MODES.find((m) => m === value);
  if (mode) return mode;
  throw new ConfigError(
    `${n.input(Inputs.forceDeletePods)} is "${raw}"; allowed: ${POD_MODES.join(', ')}.`,
    Inputs.forceDeletePods,
  );
}

function readMode(raw: string, n: Naming): ForcePolicy['mode'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = MODES.find((m) => m === value);
  if (mode) return mode;
  const hint = /^(true|yes)$/i.test(value)
    ? ' (use "on" to force, "dry-run" to only show what would be forced)'
    : '';
  throw new ConfigError(
    `${n.input(Inputs.force)} is "${raw}"; allowed: ${MODES.join(', ')}${hint}.`,
    Inputs.force,
  );
}

function readPatterns(raw: readonly string[], n: Naming): string[] {
  const patterns = [...new Set(raw.map((p) => p.trim()).filter((p) => p !== ''))];
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(
        `${n.input(Inputs.forceFinalizers)}: "${pattern}" is not a valid finalizer name or glob: ${problem}.`,
        Inputs.forceFinalizers,
      );
    }
  }
  return patterns;
}

function checkAfter(mode: ForcePolicy['mode'], afterMs: number, timeoutMs: number, n: Naming): void {
  const name = Inputs.forceAfter;
  if (!Number.isFinite(afterMs) || afterMs < 0) {
    throw new ConfigError(
      `${n.input(name)} is ${afterMs} ms; allowed: a duration of 0 or more, e.g. 10m.`,
      name,
    );
  }
  if (mode !== 'off' && afterMs > timeoutMs) {
    throw new ConfigError(
      `${n.input(name)} is ${formatDuration(afterMs)}, longer than ${n.ref(Inputs.timeout)} (${formatDuration(timeoutMs)}), ` +
        `so forcing could never start; allowed: ${n.ref(name)} at most ${n.ref(Inputs.timeout)}.`,
      name,
    );
  }
}

function warningsFor(policy: ForcePolicy, n: Naming): string[] {
  const { mode, finalizerPatterns: patterns, finalizeNamespace } = policy;
  const pods = policy.deletePods !== 'off';
  const warnings: string[] = [];
  if (mode !== 'off' && patterns.length === 0 && !finalizeNamespace && !pods) {
    warnings.push(
      `${n.ref(Inputs.force)} is ${mode} but ${n.ref(Inputs.forceFinalizers)} is empty, ` +
        `${n.ref(Inputs.forceFinalizeNamespace)} is false and ${n.ref(Inputs.forceDeletePods)} is off: nothing can be forced.`,
    );
  }
  if (mode === 'off' && (patterns.length > 0 || finalizeNamespace || pods)) {
    warnings.push(`Force inputs are set but ${n.ref(Inputs.force)} is off: nothing will be forced.`);
  }
  if (mode !== 'off' && patterns.includes('*')) {
    warnings.push(
      `${n.ref(Inputs.forceFinalizers)} holds "*": any finalizer may be removed, except built-in ones that still ` +
        'wait or guard infrastructure, which must be named exactly.',
    );
  }
  return warnings;
}

/**
 * Validate the parsed force inputs; throws one ConfigError naming every input that is wrong, the value and what is
 * allowed.
 */
export function validateForcePolicy(
  raw: {
    force: string;
    forceAfter: number;
    forceFinalizers: string[];
    finalizeNamespace: boolean;
    forceDeletePods: string;
    timeoutMs: number;
  },
  n: Naming = ACTION_NAMING,
): { policy: ForcePolicy; warnings: string[] } {
  const p = new Problems();
  const mode = p.take(() => readMode(raw.force, n), 'off');
  const deletePods = p.take(() => readPodMode(raw.forceDeletePods, n), 'off');
  const finalizerPatterns = p.take(() => readPatterns(raw.forceFinalizers, n), []);
  p.take(() => checkAfter(mode, raw.forceAfter, raw.timeoutMs, n), undefined);
  p.throwAny();
  const policy: ForcePolicy = {
    mode,
    afterMs: raw.forceAfter,
    finalizerPatterns,
    finalizeNamespace: raw.finalizeNamespace,
    deletePods,
  };
  return { policy: Object.freeze(policy), warnings: warningsFor(policy, n) };
}

/** The force inputs read and validated; `timeoutMs` bounds `force-after`. */
export function readForce(
  read: InputReader,
  timeoutMs: number,
  n: Naming,
): { policy: ForcePolicy; warnings: string[] } {
  const p = new Problems();
  const forceAfter = p.take(
    () =>
      read(Inputs.forceAfter).trim()
        ? readDuration(read, Inputs.forceAfter, '1m', true, n)
        : Math.min(DEFAULT_FORCE_AFTER_MS, timeoutMs / 2),
    0,
  );
  const finalizeNamespace = p.take(() => readBoolean(read, Inputs.forceFinalizeNamespace, false, n), false);
  const policy = p.take(
    () =>
      validateForcePolicy(
        {
          force: read(Inputs.force),
          forceAfter,
          forceFinalizers: read(Inputs.forceFinalizers).split('\n'),
          finalizeNamespace,
          forceDeletePods: read(Inputs.forceDeletePods),
          timeoutMs,
        },
        n,
      ),
    undefined,
  );
  p.throwAny();
  return policy!;
}
