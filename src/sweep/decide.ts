/**
 * Pure decision per candidate namespace: open PRs are kept unless expired; a keep label, an unknown PR or an
 * unreadable expiry always keeps; only the proven go.
 */
import type { PullState } from '../model/pulls.js';
import { formatDuration } from '../shared/duration.js';
import type { Decision } from '../model/sweep.js';
import { expiredWords, expiryOf, type Expiry } from './expiry.js';

/** The pull request number in a label value, `invalid` when the value is not one, undefined when absent. */
export function prNumberOf(value: string | undefined): number | 'invalid' | undefined {
  if (value === undefined) return undefined;
  return /^[1-9]\d{0,9}$/.test(value) ? Number(value) : 'invalid';
}

/** What the decision looks at for one namespace. */
export interface DecideInput {
  label: string | undefined;
  createdAt: string | undefined;
  /** The namespace's annotations: its own ttl or expiry. */
  annotations?: Record<string, string>;
  /** GitHub's answer for the namespace's pull request (absent when there was nothing to ask). */
  pull: PullState | undefined;
}

/** The rules: how long a PR must have been closed, the age limits, and the label that keeps a preview. */
export interface DecideRules {
  closedForMs: number;
  /** For namespaces without the PR label (`sweep-max-age`). */
  maxAgeMs: number | undefined;
  prLabel: string;
  /** For every candidate, even while its pull request is open (`max-age`). */
  lifeMs?: number;
  keepLabel?: string;
}

const ago = (ms: number): string => `${formatDuration(Math.max(0, ms))} ago`;

function ageOf(createdAt: string | undefined, now: number): number | undefined {
  const t = createdAt ? Date.parse(createdAt) : NaN;
  return Number.isNaN(t) ? undefined : now - t;
}

/** Whether `labels` holds `wanted`; GitHub's label names are unique regardless of case. */
export function hasLabel(labels: readonly string[], wanted: string): boolean {
  return labels.some((l) => l.toLowerCase() === wanted.toLowerCase());
}

/** A keep label on the pull request, or labels not read whole while one is configured: kept. */
function keptByPull(pr: number, pull: PullState, keepLabel: string | undefined): Decision | undefined {
  if (keepLabel === undefined || pull.state === 'missing' || pull.state === 'unknown') return undefined;
  if (pull.labels === undefined)
    return {
      decision: 'keep',
      reason: `PR #${pr}: its labels could not be read whole, so the keep label cannot be ruled out`,
    };
  if (hasLabel(pull.labels, keepLabel))
    return { decision: 'keep', reason: `kept by label ${keepLabel} on #${pr}`, keptBy: keepLabel };
  return undefined;
}

/** Decide a namespace without the PR label: its expiry, else `sweep-max-age`. */
function decideUnlabelled(
  age: number | undefined,
  expiry: Expiry | undefined,
  rules: DecideRules,
  now: number,
): Decision {
  if (expiry && 'at' in expiry && expiry.at <= now)
    return {
      decision: 'go',
      reason: `no ${rules.prLabel} label; ${expiredWords(expiry, now)}`,
      expired: true,
    };
  if (rules.maxAgeMs !== undefined && age !== undefined && age >= rules.maxAgeMs)
    return { decision: 'go', reason: `no ${rules.prLabel} label; created ${ago(age)}, over sweep-max-age` };
  return { decision: 'keep', reason: `no ${rules.prLabel} label` };
}

/** Decide whether one candidate namespace goes. */
export function decide(input: DecideInput, rules: DecideRules, now: number): Decision {
  const pr = prNumberOf(input.label);
  const age = ageOf(input.createdAt, now);
  const expiry = expiryOf(input.annotations, now - (age ?? NaN), rules.lifeMs);
  if (expiry && 'problem' in expiry)
    return { decision: 'keep', reason: expiry.problem, invalidAnnotation: true };
  if (pr === undefined) return decideUnlabelled(age, expiry, rules, now);
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
  const kept = keptByPull(pr, pull, rules.keepLabel);
  if (kept) return kept;
  const closed = decideByPull(pr, pull, age, rules, now);
  if (closed.decision === 'keep' && expiry && expiry.at <= now)
    return {
      decision: 'go',
      reason: `PR #${pr} ${stateWords(pull)}; ${expiredWords(expiry, now)}`,
      expired: true,
    };
  return closed;
}

const stateWords = (pull: PullState): string =>
  pull.state === 'missing' ? 'does not exist' : pull.state === 'unknown' ? 'unknown' : `is ${pull.state}`;

/** The decision by the pull request's state alone: closed (merged) for long enough, or missing and old. */
function decideByPull(
  pr: number,
  pull: Exclude<PullState, { state: 'unknown' }>,
  age: number | undefined,
  rules: DecideRules,
  now: number,
): Decision {
  const wait = formatDuration(rules.closedForMs);
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
