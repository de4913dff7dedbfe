/** Pure decision per candidate namespace: open PRs are always kept; unknown is kept; only the proven go. */
import type { PullState } from '../model/pulls.js';
import { formatDuration } from '../shared/duration.js';
import type { Decision } from '../model/sweep.js';

/** The pull request number in a label value, `invalid` when the value is not one, undefined when absent. */
export function prNumberOf(value: string | undefined): number | 'invalid' | undefined {
  if (value === undefined) return undefined;
  return /^[1-9]\d{0,9}$/.test(value) ? Number(value) : 'invalid';
}

/** What the decision looks at for one namespace. */
export interface DecideInput {
  label: string | undefined;
  createdAt: string | undefined;
  /** GitHub's answer for the namespace's pull request (absent when there was nothing to ask). */
  pull: PullState | undefined;
}

/** The rules: how long a PR must have been closed, and the optional age limit for unlabelled namespaces. */
export interface DecideRules {
  closedForMs: number;
  maxAgeMs: number | undefined;
  prLabel: string;
}

const ago = (ms: number): string => `${formatDuration(Math.max(0, ms))} ago`;

function ageOf(createdAt: string | undefined, now: number): number | undefined {
  const t = createdAt ? Date.parse(createdAt) : NaN;
  return Number.isNaN(t) ? undefined : now - t;
}

/** Decide whether one candidate namespace goes. */
export function decide(input: DecideInput, rules: DecideRules, now: number): Decision {
  const pr = prNumberOf(input.label);
  const age = ageOf(input.createdAt, now);
  const wait = formatDuration(rules.closedForMs);
  if (pr === undefined) {
    if (rules.maxAgeMs !== undefined && age !== undefined && age >= rules.maxAgeMs)
      return { decision: 'go', reason: `no ${rules.prLabel} label; created ${ago(age)}, over sweep-max-age` };
    return { decision: 'keep', reason: `no ${rules.prLabel} label` };
  }
  if (pr === 'invalid') {
    return {
      decision: 'keep',
      reason: `label value "${input.label}" is not a pull request number`,
      invalidLabel: true,
    };
  }
  const pull = input.pull;
  if (pull === undefined || pull.state === 'unknown')
    return { decision: 'keep', reason: `PR #${pr} state unknown (${pull?.error ?? 'not asked'})` };
  if (pull.state === 'open') return { decision: 'keep', reason: `PR #${pr} is open` };
  if (pull.state === 'missing') {
    if (age !== undefined && age >= rules.closedForMs)
      return { decision: 'go', reason: `PR #${pr} does not exist; namespace created ${ago(age)}` };
    return { decision: 'keep', reason: `PR #${pr} does not exist; namespace younger than ${wait}` };
  }
  const closedFor = now - Date.parse(pull.closedAt);
  if (Number.isNaN(closedFor))
    return { decision: 'keep', reason: `PR #${pr} ${pull.state} at an unreadable time` };
  if (closedFor >= rules.closedForMs)
    return { decision: 'go', reason: `PR #${pr} ${pull.state} ${ago(closedFor)}` };
  return { decision: 'keep', reason: `PR #${pr} ${pull.state} ${ago(closedFor)}; goes after ${wait}` };
}
