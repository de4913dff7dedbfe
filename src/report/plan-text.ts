/** The plan of a plan-mode run for a terminal: what would be deleted in what order, predicted hangs, refusals. Pure. */
import type { RunReport } from '../model/run.js';
import { wrap } from './columns.js';
import { planParts, type PlanEntry } from './plan-lines.js';

const INDENT = '   ';

function entryLines(e: PlanEntry, mark: string, width: number): string[] {
  const head = wrap(e.head, width - Math.max(mark.length + 1, INDENT.length)).map((l, i) =>
    i === 0 ? `${mark} ${l}` : `${INDENT}${l}`,
  );
  const more = e.more.flatMap((m) => wrap(m, width - INDENT.length).map((l) => `${INDENT}${l}`));
  return [...head, ...more];
}

/** The plan's lines, under a bold title each (`bold` paints them); empty for a run that wrote. */
export function planLines(report: RunReport, width: number, bold: (t: string) => string): string[][] {
  const parts = planParts(report);
  if (!parts) return [];
  const blocks: string[][] = [
    wrap('Plan (dry run): every write was sent with dryRun=All; nothing was changed.', width),
  ];
  if (parts.refusals.length)
    blocks.push([
      bold(`Admission would refuse (${parts.refusals.length})`),
      ...parts.refusals.flatMap((e) => entryLines(e, '-', width)),
    ]);
  if (parts.order.length)
    blocks.push([
      bold('The namespace DELETEs, in the order the run sends them'),
      ...parts.order.flatMap((e, i) => entryLines(e, `${i + 1}.`, width)),
    ]);
  if (parts.hangs.length)
    blocks.push([
      bold(`Predicted to hang (${parts.hangs.length}): predictions, nothing was deleted`),
      ...parts.hangs.flatMap((e) => entryLines(e, '-', width)),
    ]);
  return blocks;
}
