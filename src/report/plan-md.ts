/** The plan of a plan-mode run for the job summary: what would be deleted in what order, predicted hangs, refusals. Pure. */
import type { RunReport } from '../model/run.js';
import { md } from './escape.js';
import { planParts, type PlanEntry } from './plan-lines.js';

/** At most this many entries per list; the rest are in the JSON report. */
const MAX_ENTRIES = 50;

function list(entries: PlanEntry[], numbered: boolean): string {
  const shown = entries.slice(0, MAX_ENTRIES).map((e, i) => {
    const mark = numbered ? `${i + 1}.` : '-';
    const more = e.more.map((m) => `\n   - ${md(m, 400)}`).join('');
    return `${mark} ${md(e.head, 400)}${more}`;
  });
  const left = entries.length - shown.length;
  return [...shown, ...(left > 0 ? [`- … and ${left} more, in the JSON report`] : [])].join('\n');
}

/** "The plan": empty for a run that wrote. */
export function renderPlan(report: RunReport): string {
  const parts = planParts(report);
  if (!parts) return '';
  const out = [
    '### The plan (dry run: nothing was changed)',
    'Every write was sent with <code>dryRun=All</code>: the API server ran its RBAC and admission on it and stored nothing.',
  ];
  if (parts.refusals.length)
    out.push(`#### ⛔ Admission would refuse (${parts.refusals.length})`, list(parts.refusals, false));
  if (parts.order.length)
    out.push('#### The namespace DELETEs, in the order the run sends them', list(parts.order, true));
  if (parts.hangs.length)
    out.push(
      `#### 🔮 Predicted to hang (${parts.hangs.length}): predictions, nothing was deleted`,
      list(parts.hangs, false),
    );
  return out.join('\n\n');
}
