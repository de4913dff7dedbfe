/** Forced writes the server answered without their effect, as the summary tells them: who put it back, what to change. Pure. */
import { whoPutBack } from '../force/index.js';
import type { AuditEntry, ForceStep } from '../model/force.js';
import { md } from './escape.js';

/** Who put back what the step removed, and what to change: the webhook or controller, never the finalizer again. */
export function putBackLines(entry: AuditEntry | undefined): string[] {
  if (entry?.result !== 'not-removed' || !entry.putBack) return [];
  const p = entry.putBack;
  return [
    `↩️ ${md(`${p.kept.join(', ')} ${whoPutBack(p)}`, 600)}`,
    `**Fix that, not the finalizer:** ${md(p.remedy, 800)}`,
  ];
}

/**
 * Writes of earlier passes the server answered without their effect, when the last plan no longer has their step (it
 * refuses to write them again): what each answer showed, and who put it back.
 */
export function earlierPutBack(steps: readonly ForceStep[], audit: readonly AuditEntry[]): string[] {
  const planned = new Set(steps.map((x) => `${x.object}\u0000${x.field}`));
  const shown = new Set<string>();
  return audit.flatMap((e) => {
    const key = `${e.object}\u0000${e.field}`;
    if (e.result !== 'not-removed' || planned.has(key) || shown.has(key)) return [];
    shown.add(key);
    const head = `**${md(e.object, 200)}** <code>${e.field}</code> — ❌ **not removed:** ${md(e.why, 400)}`;
    return [head, ...putBackLines(e)];
  });
}
