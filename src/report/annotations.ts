/** Annotations within GitHub's budget: one per stuck namespace (its root cause and fix) first, then the rest. Pure. */
import type { Finding } from '../model/findings.js';
import type { RunReport, TargetReport } from '../model/run.js';
import { causesOf, verdictOf } from './causes.js';
import { fixCommand, oneLineScript, withContext } from './commands.js';
import { listNames } from './brief.js';
import { safeLog, truncate } from './escape.js';
import { resolvedByForce } from './force.js';
import { groupPredictions } from './prevention-predictions.js';

export type Level = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: Level;
  title: string;
  message: string;
}

/** Names in one annotation's title; the rest are counted (all are in the summary and the report). */
const NAMES_IN_TITLE = 10;

/** GitHub shows at most 10 annotations of each level per step… */
export const PER_LEVEL_LIMIT = 10;
/** …and 50 per job (other steps share these, so a step takes no more than it needs). */
export const PER_JOB_LIMIT = 50;

function fixOf(f: Finding, context: string | undefined): string {
  const fix = fixCommand(f);
  return fix ? ` Fix: ${withContext(fix, context)}` : '';
}

/** One notice per certain hang (grouped over namespaces, as in the summary). */
export function predictionNotices(report: RunReport): Annotation[] {
  return groupPredictions(report)
    .filter((g) => g.prediction.hang)
    .map((g) => {
      const list = g.namespaces.map((n) => n.name);
      const shown = listNames(list, 5);
      const results = new Map<string, number>();
      for (const { p } of g.namespaces) {
        const words = p.settled ? p.settled.words.replace(/ in [\d.]+ ?\w+$/, '') : 'cannot tell';
        results.set(words, (results.get(words) ?? 0) + 1);
      }
      const after = [...results].map(([w, n]) => (results.size > 1 ? `${w} (${n})` : w)).join('; ');
      return {
        level: 'notice' as const,
        title: `Predicted before deleting: ${shown} will hang`,
        message: `${g.prediction.summary}. After the run: ${after}.`,
      };
    });
}

/** Needs a person: one annotation each (or each cause, when there are more than the error budget). */
function blockers(report: RunReport, slots: number): Annotation[] {
  const context = report.context.cluster?.context;
  const stuck = report.targets.filter((t) => t.outcome === 'stuck');
  const refused = report.targets
    .filter((t) => t.outcome === 'refused')
    .map((t) => ({
      level: 'error' as const,
      title: `Namespace ${t.name} refused`,
      message: t.note ?? 'protected',
    }));
  const perNamespace = stuck.length + refused.length <= slots;
  const stuckOnes = perNamespace
    ? stuck.map((t) => {
        const v = verdictOf(t);
        return {
          level: 'error' as const,
          title: `Namespace ${t.name} stuck in Terminating`,
          message: v ? `${v.summary}.${fixOf(v, context)}` : 'Still Terminating at the timeout.',
        };
      })
    : causesOf(report).map((c) => ({
        level: 'error' as const,
        title: `${c.targets.length} namespace(s) stuck in Terminating: ${listNames(
          c.targets.map((t) => t.name),
          NAMES_IN_TITLE,
        )}`,
        message: `${c.summary}.${c.command ? ` Fix: ${oneLineScript(c.command)}` : ''}`,
      }));
  return [...stuckOnes, ...refused];
}

function others(report: RunReport): Annotation[] {
  const context = report.context.cluster?.context;
  const out: Annotation[] = [];
  // A finding whose command is already annotated or offered (a verdict's, or an earlier finding's) adds nothing.
  const commandOf = (f: Finding): string | undefined => fixCommand(f) ?? f.remedy.lastResort?.commands[0];
  const seen = new Set<string>(
    report.targets.flatMap((t) => {
      const v = t.outcome === 'stuck' ? verdictOf(t) : undefined;
      return v
        ? [fixCommand(v), ...(v.remedy.lastResort?.commands ?? [])].filter((c) => c !== undefined)
        : [];
    }),
  );
  for (const t of report.targets) {
    if (t.outcome === 'active')
      out.push({
        level: 'warning',
        title: `Namespace ${t.name} not deleted`,
        message:
          t.note ??
          (report.settings.delete
            ? 'Still Active at the timeout: it was never seen Terminating.'
            : 'delete is false and nobody deleted it before the timeout.'),
      });
    if (t.outcome === 'error')
      out.push({ level: 'error', title: `Namespace ${t.name}: error`, message: t.note ?? 'failed' });
    if (t.outcome === 'recreated')
      out.push({
        level: 'notice',
        title: `Namespace ${t.name} recreated`,
        message: t.note ?? `now has UID ${t.recreatedUid ?? '?'}`,
      });
    if (t.outcome === 'forced')
      out.push({ level: 'warning', title: `Namespace ${t.name} forced`, message: forcedWords(t) });
    const rest = t.outcome === 'stuck' ? t.findings.slice(1) : t.findings;
    for (const f of rest) {
      if (f.generic || f.severity === 'notice' || resolvedByForce(t, f)) continue;
      const key = `${f.id}\u0000${f.cause}`;
      const fix = commandOf(f);
      if (seen.has(key) || (fix && seen.has(fix))) continue;
      seen.add(key);
      if (fix) seen.add(fix);
      const still =
        t.outcome === 'forced' && f.id === 'apiservice-unavailable'
          ? ' It still blocks every namespace deletion in this cluster.'
          : '';
      out.push({
        level: 'warning',
        title: `${t.name}: ${f.id}`,
        message: `${f.summary}.${still}${fixOf(f, context)}`,
      });
    }
  }
  return out;
}

function forcedWords(t: TargetReport): string {
  const done = (t.force?.audit ?? []).filter((a) => a.result === 'removed' || a.result === 'finalized');
  // Thousands of objects forced the same way are one phrase with a count.
  const groups = new Map<string, { object: string; n: number }>();
  for (const a of done) {
    const type = a.object.slice(0, Math.max(0, a.object.lastIndexOf('/')));
    const key = `${type} ${a.field} −[${a.allowed.map((r) => r.finalizer).join(', ')}]`;
    const g = groups.get(key);
    if (g) g.n++;
    else groups.set(key, { object: a.object, n: 1 });
  }
  const what = [...groups].map(([key, g]) =>
    g.n === 1 ? `${g.object} ${key.slice(key.indexOf(' ') + 1)}` : `${g.n.toLocaleString('en-US')} × ${key}`,
  );
  return `Gone after forcing: ${what.join('; ') || 'see the summary'}. Fix the leak where it comes from.`;
}

/**
 * The annotations to emit, and how many were left out. With `failureLine` one error is kept free for the
 * step's final "Namespace teardown failed" line, so it always survives.
 */
export function planAnnotations(
  report: RunReport,
  opts: { failureLine?: boolean } = { failureLine: report.failures.length > 0 },
): { emit: Annotation[]; overflow: number } {
  const reserved = opts.failureLine ? 1 : 0;
  return withinLimits(
    [...blockers(report, PER_LEVEL_LIMIT - reserved), ...others(report), ...predictionNotices(report)],
    reserved,
  );
}

/**
 * The annotations GitHub will show, in order, within its limits (with `reserved` errors kept free), made safe for
 * the log; and how many were left out.
 */
export function withinLimits(all: Annotation[], reserved: number): { emit: Annotation[]; overflow: number } {
  const used: Record<Level, number> = { error: reserved, warning: 0, notice: 0 };
  let total = reserved;
  const emit = all.filter((a) => {
    if (used[a.level] >= PER_LEVEL_LIMIT || total >= PER_JOB_LIMIT) return false;
    used[a.level]++;
    total++;
    return true;
  });
  return {
    emit: emit.map((a) => ({
      level: a.level,
      title: truncate(safeLog(a.title), 200),
      message: truncate(safeLog(a.message), 1500),
    })),
    overflow: all.length - emit.length,
  };
}
