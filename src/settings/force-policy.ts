/** The force inputs validated into one policy, with the warnings they deserve. Pure. */
import type { ForcePolicy } from '../model/force.js';
import { formatDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { globProblem } from '../shared/glob.js';
import { Inputs } from './action-names.js';

const MODES = ['off', 'dry-run', 'on'] as const;

const POD_MODES = ['off', 'lost-nodes'] as const;

function readPodMode(raw: string): ForcePolicy['deletePods'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = POD_MODES.find((m) => m === value);
  if (mode) return mode;
  throw new ConfigError(
    `Input "${Inputs.forceDeletePods}" is "${raw}"; allowed: ${POD_MODES.join(', ')}.`,
    Inputs.forceDeletePods,
  );
}

function readMode(raw: string): ForcePolicy['mode'] {
  const value = raw.trim() === '' ? 'off' : raw.trim();
  const mode = MODES.find((m) => m === value);
  if (mode) return mode;
  const hint = /^(true|yes)$/i.test(value)
    ? ' (use "on" to force, "dry-run" to only show what would be forced)'
    : '';
  throw new ConfigError(
    `Input "${Inputs.force}" is "${raw}"; allowed: ${MODES.join(', ')}${hint}.`,
    Inputs.force,
  );
}

function readPatterns(raw: readonly string[]): string[] {
  const patterns = [...new Set(raw.map((p) => p.trim()).filter((p) => p !== ''))];
  for (const pattern of patterns) {
    const problem = globProblem(pattern);
    if (problem) {
      throw new ConfigError(
        `Input "${Inputs.forceFinalizers}": "${pattern}" is not a valid finalizer name or glob: ${problem}.`,
        Inputs.forceFinalizers,
      );
    }
  }
  return patterns;
}

function checkAfter(mode: ForcePolicy['mode'], afterMs: number, timeoutMs: number): void {
  const name = Inputs.forceAfter;
  if (!Number.isFinite(afterMs) || afterMs < 0) {
    throw new ConfigError(
      `Input "${name}" is ${afterMs} ms; allowed: a duration of 0 or more, e.g. 10m.`,
      name,
    );
  }
  if (mode !== 'off' && afterMs > timeoutMs) {
    throw new ConfigError(
      `Input "${name}" is ${formatDuration(afterMs)}, longer than "${Inputs.timeout}" (${formatDuration(timeoutMs)}), ` +
        `so forcing could never start; allowed: ${name} at most ${Inputs.timeout}.`,
      name,
    );
  }
}

function warningsFor(policy: ForcePolicy): string[] {
  const { mode, finalizerPatterns: patterns, finalizeNamespace } = policy;
  const pods = policy.deletePods !== 'off';
  const warnings: string[] = [];
  if (mode !== 'off' && patterns.length === 0 && !finalizeNamespace && !pods) {
    warnings.push(
      `"${Inputs.force}" is ${mode} but "${Inputs.forceFinalizers}" is empty, ` +
        `"${Inputs.forceFinalizeNamespace}" is false and "${Inputs.forceDeletePods}" is off: nothing can be forced.`,
    );
  }
  if (mode === 'off' && (patterns.length > 0 || finalizeNamespace || pods)) {
    warnings.push(`Force inputs are set but "${Inputs.force}" is off: nothing will be forced.`);
  }
  if (mode !== 'off' && patterns.includes('*')) {
    warnings.push(
      `"${Inputs.forceFinalizers}" holds "*": any finalizer may be removed, except built-in ones that still ` +
        'wait or guard infrastructure, which must be named exactly.',
    );
  }
  return warnings;
}

/** Validate the parsed force inputs; throws ConfigError naming the input, the value and what is allowed. */
export function validateForcePolicy(raw: {
  force: string;
  forceAfter: number;
  forceFinalizers: string[];
  finalizeNamespace: boolean;
  forceDeletePods: string;
  timeoutMs: number;
}): { policy: ForcePolicy; warnings: string[] } {
  const mode = readMode(raw.force);
  const deletePods = readPodMode(raw.forceDeletePods);
  const finalizerPatterns = readPatterns(raw.forceFinalizers);
  checkAfter(mode, raw.forceAfter, raw.timeoutMs);
  const policy: ForcePolicy = {
    mode,
    afterMs: raw.forceAfter,
    finalizerPatterns,
    finalizeNamespace: raw.finalizeNamespace,
    deletePods,
  };
  return { policy: Object.freeze(policy), warnings: warningsFor(policy) };
}
