/** The sweep's inputs → SweepSettings, validated before any cluster or GitHub call. Pure. */
import type { RepoRef } from '../model/pulls.js';
import { Inputs } from './action-names.js';
import { readChoice } from './read-input.js';
import { ACTION_NAMING, Problems, type Naming } from './naming.js';
import { labelKeyProblem } from './name-syntax.js';
import { parseDuration } from '../shared/duration.js';
import { ConfigError } from '../shared/errors.js';
import { SWEEP_MODES, type SweepSettings } from '../model/sweep.js';

type Read = (name: string) => string;

const REPOSITORY = /^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/;

function readLabel(read: Read, n: Naming): string {
  const key = read(Inputs.sweepPrLabel).trim();
  if (key === '')
    throw new ConfigError(
      `${n.input(Inputs.sweepPrLabel)} is empty; the sweep needs the namespace label whose value is the pull request number, e.g. preview.example.com/pr.`,
      Inputs.sweepPrLabel,
    );
  const problem = labelKeyProblem(key);
  if (problem)
    throw new ConfigError(
      `${n.input(Inputs.sweepPrLabel)} is "${key}", which is not a label key: ${problem}.`,
      Inputs.sweepPrLabel,
    );
  return key;
}

function readSweepDuration(read: Read, name: string, fallback: string, n: Naming): number | undefined {
  const raw = read(name).trim() || fallback;
  if (raw === '') return undefined;
  const ms = parseDuration(raw);
  if (ms === undefined)
    throw new ConfigError(
      `${n.input(name)} is "${raw}", which is not a duration; use a number with a unit, e.g. 30m, 1h, 72h.`,
      name,
    );
  return ms;
}

/** `owner/name` from the input, else from the fallback (the current repository). */
export function readRepository(raw: string, input: string, n: Naming = ACTION_NAMING): RepoRef {
  const value = raw.trim();
  if (!REPOSITORY.test(value))
    throw new ConfigError(`${n.input(input)} is "${value}"; expected owner/name, e.g. acme/shop.`, input);
  const [owner, repo] = value.split('/') as [string, string];
  return { owner, repo };
}

/** Read the sweep inputs; undefined when `sweep` is off. */
export function readSweep(read: Read, n: Naming = ACTION_NAMING, into?: Problems): SweepSettings | undefined {
  const mode = readChoice(read, Inputs.sweep, SWEEP_MODES, n);
  if (mode === 'off') return undefined;
  // With `into`, its problems join the caller's and the sweep is still returned, for the checks across inputs.
  const p = into ?? new Problems();
  const sweep: SweepSettings = {
    mode,
    prLabel: p.take(() => readLabel(read, n), ''),
    closedForMs: p.take(() => readSweepDuration(read, Inputs.sweepClosedFor, '1h', n)!, 0),
    maxAgeMs: p.take(() => readSweepDuration(read, Inputs.sweepMaxAge, '', n), undefined),
    repository: p.take(() => readRepository(read(Inputs.sweepRepository), Inputs.sweepRepository, n), {
      owner: '',
      repo: '',
    }),
  };
  if (!into) p.throwAny();
  return sweep;
}

/** The label selector that lists the candidates: the user's selector, else every namespace with the label. */
export function candidateSelector(sweep: SweepSettings, selector: string | undefined): string {
  return selector ?? sweep.prLabel;
}
