/** The `target-label` input: the label a namespace must carry for a run to write to it, or the explicit opt-out. Pure. */
import { ConfigError } from '../shared/errors.js';
import { Inputs } from './action-names.js';
import { labelKeyProblem } from './name-syntax.js';
import type { Naming } from './naming.js';

/**
 * The one value that turns the fence off. A word, never the empty string: an empty variable or a deleted line must
 * not open the fence. A label key may be `none` too; a team whose previews carry that key has any other to choose.
 */
export const NO_TARGET_LABEL = 'none';

/** What the run may write, which decides whether it needs a label at all. */
export interface Writes {
  /** The run deletes its targets (`delete: true` with `scope: targets`). */
  deletes: boolean;
  /** The run may force (`force: on`). */
  forces: boolean;
  /** The sweep is on: it has checked `sweep-pr-label` already and reported it when it is not a label key. */
  sweeps: boolean;
}

function checked(key: string, input: string, n: Naming): string {
  const problem = labelKeyProblem(key);
  if (problem)
    throw new ConfigError(
      `${n.input(input)} is "${key}", which is not a label key: ${problem}; or ${n.setting(Inputs.targetLabel, NO_TARGET_LABEL)} to write to namespaces without one.`,
      input,
    );
  return key;
}

/**
 * The label that fences the run's targets: `target-label`, else `sweep-pr-label`; undefined for `target-label: none`
 * or a run that writes nothing (it needs none). A run that writes with neither set is bad input: nothing would tell a
 * preview namespace from a team's.
 */
export function readTargetLabel(
  read: (name: string) => string,
  writes: Writes,
  n: Naming,
): string | undefined {
  const raw = read(Inputs.targetLabel).trim();
  if (raw === NO_TARGET_LABEL) return undefined;
  if (raw.toLowerCase() === NO_TARGET_LABEL)
    throw new ConfigError(
      `${n.input(Inputs.targetLabel)} is "${raw}"; the fence is turned off only by "${NO_TARGET_LABEL}", in lower case.`,
      Inputs.targetLabel,
    );
  const needed = writes.deletes || writes.forces;
  if (raw !== '') {
    const key = checked(raw, Inputs.targetLabel, n);
    return needed ? key : undefined;
  }
  const sweepLabel = read(Inputs.sweepPrLabel).trim();
  if (!needed) return undefined;
  // The sweep's own check names a bad `sweep-pr-label` once; the settings fail with it.
  if (sweepLabel !== '' && writes.sweeps && labelKeyProblem(sweepLabel)) return undefined;
  if (sweepLabel !== '') return checked(sweepLabel, Inputs.sweepPrLabel, n);
  const what = writes.deletes ? 'deletes its targets' : `may force (${n.setting(Inputs.force, 'on')})`;
  throw new ConfigError(
    `${n.input(Inputs.targetLabel)} is empty, and so is ${n.ref(Inputs.sweepPrLabel)}: nothing tells a preview namespace ` +
      `from any other, and this run ${what}. Set ${n.ref(Inputs.targetLabel)} to the label every preview namespace ` +
      `carries, e.g. preview.example.com/pr: a target without it is refused, never touched. To write to namespaces ` +
      `that carry no such label, say so: ${n.setting(Inputs.targetLabel, NO_TARGET_LABEL)}.`,
    Inputs.targetLabel,
  );
}
