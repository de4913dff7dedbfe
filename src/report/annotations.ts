/** Annotations for the run, most severe first, within GitHub's per-step limits. Pure. */
import { formatDuration } from '../duration.js';
import type { RunReport } from '../outcome.js';
import { conditionWords } from './markdown.js';
import { safeLog, truncate } from './escape.js';

export type Level = 'error' | 'warning' | 'notice';

export interface Annotation {
  level: Level;
  title: string;
  message: string;
}

/** GitHub shows at most 10 annotations of each level per step. */
export const PER_LEVEL_LIMIT = 10;

const RANK: Record<Level, number> = { error: 0, warning: 1, notice: 2 };

function candidates(report: RunReport): Annotation[] {
  const out: Annotation[] = [];
  for (const t of report.targets) {
    const name = safeLog(t.name);
    if (t.outcome === 'stuck') {
      const why = conditionWords(t.conditions);
      const age = t.terminatingForMs !== undefined ? ` after ${formatDuration(t.terminatingForMs)}` : '';
      out.push({
        level: 'error',
        title: `Namespace ${name} stuck in Terminating`,
        message: `Still Terminating${age}. ${why}`,
      });
    } else if (t.outcome === 'active') {
      out.push({
        level: 'warning',
        title: `Namespace ${name} not deleted`,
        message: t.note ?? 'delete is false and nobody deleted it before the timeout.',
      });
    } else if (t.outcome === 'error') {
      out.push({ level: 'error', title: `Namespace ${name}: error`, message: t.note ?? 'failed' });
    } else if (t.outcome === 'refused') {
      out.push({ level: 'error', title: `Namespace ${name} refused`, message: t.note ?? 'protected' });
    } else if (t.outcome === 'recreated') {
      out.push({
        level: 'notice',
        title: `Namespace ${name} recreated`,
        message: t.note ?? `now has UID ${t.recreatedUid ?? '?'}`,
      });
    }
    for (const f of t.findings) {
      const level: Level = f.severity;
      out.push({
        level,
        title: `${name}: ${f.id}`,
        message: `${f.summary}${f.remedy.commands[0] ? ` Remedy: ${f.remedy.commands[0]}` : ''}`,
      });
    }
  }
  return out.map((a) => ({
    level: a.level,
    title: truncate(safeLog(a.title), 200),
    message: truncate(safeLog(a.message), 1500),
  }));
}

/** The annotations to emit, and how many were left to the summary and the JSON report. */
export function planAnnotations(report: RunReport): { emit: Annotation[]; overflow: number } {
  const all = candidates(report).sort((a, b) => RANK[a.level] - RANK[b.level]);
  const used: Record<Level, number> = { error: 0, warning: 0, notice: 0 };
  const emit = all.filter((a) => ++used[a.level] <= PER_LEVEL_LIMIT);
  return { emit, overflow: all.length - emit.length };
}
