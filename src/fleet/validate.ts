/**
 * A file's text → a cluster's run report, or what is wrong with it in one line: not JSON, another version, a merged
 * report, a field missing or of the wrong kind, a name that cannot be passed on (report-names.ts). Only what the
 * merged view reads is checked, so a report with fields added later still merges. The words quote a value of the
 * report only when it is a short plain word: a report is another job's text. Pure.
 */
import { FINDING_SEVERITIES } from '../model/findings.js';
import { OUTCOMES, REPORT_VERSION, RUN_RESULTS, WAIT_ENDS, type RunReport } from '../model/run.js';
import { messageOf } from '../shared/errors.js';
import { clusterNameProblem } from '../settings/cluster-name.js';
import { clusterNameOf } from './cluster-identity.js';
import { namesProblem } from './report-names.js';

/** A report, or why it cannot be used (with its cluster's name, when that much was readable). */
export type Checked = { report: RunReport } | { problem: string; cluster?: string };

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isStrings = (v: unknown): boolean => Array.isArray(v) && v.every((s) => typeof s === 'string');
const optional = (v: unknown, ok: (v: unknown) => boolean): boolean => v === undefined || ok(v);
const isString = (v: unknown): boolean => typeof v === 'string';
const isNumber = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v);

/** A value of the report in words: itself when it is a short plain word or number, else only its kind. */
function shown(v: unknown): string {
  if (typeof v === 'number' || typeof v === 'boolean' || v === null) return String(v);
  if (typeof v === 'string') return /^[A-Za-z0-9._-]{1,40}$/.test(v) ? JSON.stringify(v) : 'other text';
  return Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : 'missing';
}

/** What is wrong with a finding, for the fields the merged view renders. */
function findingProblem(f: unknown): string | undefined {
  if (!isObject(f)) return 'is not an object';
  for (const key of ['id', 'cause', 'summary'] as const)
    if (typeof f[key] !== 'string') return `has no "${key}" text`;
  if (!(FINDING_SEVERITIES as readonly unknown[]).includes(f.severity)) return 'has no known "severity"';
  const r = f.remedy;
  if (!isObject(r) || !isStrings(r.commands)) return 'has no "remedy.commands" list';
  if (!optional(r.bulk, isStrings) || !optional(r.note, isString) || !optional(r.policy, isString))
    return 'has a malformed remedy';
  const last = r.lastResort;
  if (last !== undefined && (!isObject(last) || !isStrings(last.commands) || !isString(last.risk)))
    return 'has a malformed "remedy.lastResort"';
  if (!optional(f.causeSummary, isString) || !optional(f.objects, isNumber)) return 'has a malformed field';
  if (f.owner !== undefined && (!isObject(f.owner) || !isString(f.owner.controller)))
    return 'has a malformed "owner"';
  return undefined;
}

/** What is wrong with a target, for the fields the merged view renders. */
function targetProblem(t: unknown): string | undefined {
  if (!isObject(t) || typeof t.name !== 'string') return 'has no "name"';
  if (!(OUTCOMES as readonly unknown[]).includes(t.outcome))
    return `"${t.name}" has outcome ${shown(t.outcome)}, not one of ${OUTCOMES.join(', ')}`;
  if (!Array.isArray(t.findings) || !Array.isArray(t.conditions))
    return `"${t.name}" has no "findings" or "conditions" list`;
  if (
    !optional(t.note, isString) ||
    !optional(t.terminatingForMs, isNumber) ||
    !optional(t.durationMs, isNumber)
  )
    return `"${t.name}" has a malformed field`;
  if (t.labels !== undefined && !isObject(t.labels)) return `"${t.name}" has malformed "labels"`;
  const settled = t.settled;
  const settledOk =
    isObject(settled) && isNumber(settled.afterMs) && isNumber(settled.quietMs) && isString(settled.reason);
  if ((settled !== undefined && !settledOk) || !optional(t.notSettled, isString))
    return `"${t.name}" has a malformed "settled" or "notSettled"`;
  for (const [i, f] of t.findings.entries()) {
    const problem = findingProblem(f);
    if (problem) return `"${t.name}" finding ${i + 1} ${problem}`;
  }
  return undefined;
}

/** What is wrong with a parsed report of the right version. */
function reportProblem(r: Json): string | undefined {
  if (!isObject(r.context)) return 'no "context"';
  const s = r.settings;
  if (!isObject(s) || typeof s.failOn !== 'string') return 'no "settings.failOn"';
  if (!(RUN_RESULTS as readonly unknown[]).includes(r.result))
    return `"result" is ${shown(r.result)}, not one of ${RUN_RESULTS.join(', ')}`;
  if (!isStrings(r.failures)) return 'no "failures" list';
  if (!optional(r.error, isString)) return '"error" is not text';
  const w = r.wait;
  if (
    w !== undefined &&
    (!isObject(w) || !(WAIT_ENDS as readonly unknown[]).includes(w.ended) || !isNumber(w.afterMs))
  )
    return '"wait" is malformed';
  if (!Array.isArray(r.targets)) return 'no "targets" list';
  for (const [i, t] of r.targets.entries()) {
    const problem = targetProblem(t);
    if (problem) return `target ${i + 1} ${problem}`;
  }
  return undefined;
}

/** The cluster a parsed value names, when it looks enough like a report to say and the name may be shown. */
function clusterOf(value: Json): string | undefined {
  const context = value.context;
  if (!isObject(context) || (context.cluster !== undefined && !isObject(context.cluster))) return undefined;
  const name = clusterNameOf(value as Pick<RunReport, 'context'>);
  return typeof name === 'string' && clusterNameProblem(name) === undefined ? name : undefined;
}

/** Check one report file's text: the report, or its problem in words. */
export function checkReport(text: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON (${messageOf(error)}): a truncated or corrupt file` };
  }
  if (!isObject(value)) return { problem: 'not a namespace-teardown report: the JSON is not an object' };
  if (value.kind === 'fleet')
    return { problem: "a merged report, not one cluster's: merge the clusters' own reports" };
  const cluster = clusterOf(value);
  const named = cluster === undefined ? {} : { cluster };
  if (value.version === undefined)
    return { problem: 'not a namespace-teardown report: it has no "version"', ...named };
  if (value.version !== REPORT_VERSION)
    return {
      problem: `report version ${shown(value.version)}; this merge reads version ${REPORT_VERSION}: run the same namespace-teardown release in every job and in the merge`,
      ...named,
    };
  // The names first: the other checks' words quote a target's name.
  const names = namesProblem(value);
  if (names) return { problem: `not a usable report: ${names}`, ...named };
  const problem = reportProblem(value);
  if (problem) return { problem: `not a complete report: ${problem}`, ...named };
  return { report: value as unknown as RunReport };
}
