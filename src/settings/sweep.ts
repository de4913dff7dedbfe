/** The sweep's inputs → SweepSettings, validated before any cluster or GitHub call. Pure. */
import type { RepoRef } from '../model/pulls.js';
import { Inputs } from './action-names.js';
import { labelSelectorProblem } from './name-syntax.js';
import { parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { SWEEP_MODES, type SweepMode, type SweepSettings } from '../model/sweep.js';

type Read = (name: string) => string;

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

function readMode(read: Read): SweepMode {
  const raw = read(Inputs.sweep).trim() || 'off';
  if (!(SWEEP_MODES as readonly string[]).includes(raw))
    throw new ConfigError(`Input "sweep" is "${raw}"; allowed: ${SWEEP_MODES.join(', ')}.`, Inputs.sweep);
  return raw as SweepMode;
}

function readLabel(read: Read): string {
  const key = read(Inputs.sweepPrLabel).trim();
  if (key === '')
    throw new ConfigError(
      'Input "sweep-pr-label" is empty; the sweep needs the namespace label whose value is the pull request number, e.g. preview.example.com/pr.',
      Inputs.sweepPrLabel,
    );
  const problem = /^[^\s!=(),]+$/.test(key) ? labelSelectorProblem(key) : 'it must be one label key';
  if (problem)
    throw new ConfigError(
      `Input "sweep-pr-label" is "${key}", which is not a label key: ${problem}.`,
      Inputs.sweepPrLabel,
    );
  return key;
}

function readSweepDuration(read: Read, name: string, fallback: string): number | undefined {
  const raw = read(name).trim() || fallback;
  if (raw === '') return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined)
    throw new ConfigError(
      `Input "${name}" is "${raw}", which is not a duration; use a number with a unit, e.g. 30m, 1h, 72h.`,
      name,
    );
  return ms;
}

/** `owner/name` from the input, else from the fallback (the current repository). */
export function readRepository(raw: string, input: string): RepoRef {
  const value = raw.trim();
  if (!REPOSITORY.test(value))
    throw new ConfigError(`Input "${input}" is "${value}"; expected owner/name, e.g. acme/shop.`, input);
  const [owner, repo] = value.split('/') as [string, string];
  return { owner, repo };
}

/** Read the sweep inputs; undefined when `sweep` is off. */
export function readSweep(read: Read): SweepSettings | undefined {
  const mode = readMode(read);
  if (mode === 'off') return undefined;
  return {
    mode,
    prLabel: readLabel(read),
    closedForMs: readSweepDuration(read, Inputs.sweepClosedFor, '1h')!,
    maxAgeMs: readSweepDuration(read, Inputs.sweepMaxAge, ''),
    repository: readRepository(read(Inputs.sweepRepository), Inputs.sweepRepository),
  };
}

/** The label selector that lists the candidates: the user's selector, else every namespace with the label. */
export function candidateSelector(sweep: SweepSettings, selector: string | undefined): string {
  return selector ?? sweep.prLabel;
}
