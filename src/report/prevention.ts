/**
 * "Custom resources first": what the controllers did before the namespace DELETE — per type, how many went and how
 * long their finalizers took, and which were left to the namespace controller and why. Pure.
 */
import { compareText } from '../shared/compare.js';
import { formatDuration } from '../shared/duration.js';
import type { EarlyObject, LeftReason } from '../model/prevention.js';
import type { RunReport } from '../model/run.js';
import { md } from './escape.js';

const LEFT_WORDS: Record<LeftReason, string> = {
  'controller-absent': 'controller absent',
  'controller-unknown': 'controller not judged present',
  'delete-refused': 'DELETE refused',
  'wait-share-ran-out': 'wait share ran out',
  cancelled: 'cancelled',
  'dry-run': 'dry-run: would go first',
};

interface Row {
  type: string;
  namespaces: Set<string>;
  objects: EarlyObject[];
}

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

function rowsOf(report: RunReport): Row[] {
  const rows = new Map<string, Row>();
  for (const t of report.targets) {
    for (const o of t.customResources?.objects ?? []) {
      const row = rows.get(o.type) ?? { type: o.type, namespaces: new Set(), objects: [] };
      row.namespaces.add(t.name);
      row.objects.push(o);
      rows.set(o.type, row);
    }
  }
  return [...rows.values()].sort((a, b) => compareText(a.type, b.type));
}

/** `3 controller absent (acme.io/cleanup: no workload …)`, one reason per line, the first detail as example. */
function leftCell(objects: readonly EarlyObject[]): string {
  const by = new Map<LeftReason, EarlyObject[]>();
  for (const o of objects) if (o.left) by.set(o.left.reason, [...(by.get(o.left.reason) ?? []), o]);
  if (by.size === 0) return '—';
  return [...by]
    .map(([reason, list]) => `${list.length} ${LEFT_WORDS[reason]} (${md(list[0]!.left!.detail, 140)})`)
    .join('<br>');
}

function timesCell(objects: readonly EarlyObject[]): string {
  const ms = objects
    .filter((o) => o.finalizers.length > 0 && o.ms !== undefined)
    .map((o) => o.ms!)
    .sort((a, b) => a - b);
  if (ms.length === 0) return '—';
  return `${formatDuration(median(ms))} / ${formatDuration(ms[ms.length - 1]!)}`;
}

/** How the phase went about it, as far as the objects show. */
function phaseNote(objects: readonly EarlyObject[]): string {
  if (objects.some((o) => o.requestedAt))
    return 'Deleted with a UID precondition and Background propagation; nothing is forced in this phase.';
  if (objects.every((o) => o.left?.reason === 'dry-run')) return 'Dry run: nothing was deleted early.';
  return 'None was deleted early: only custom resources whose controllers are seen running go first; nothing is forced in this phase.';
}

/** One line per target whose DELETE waited because it hosts a live actor for objects in other targets. */
function heldLines(report: RunReport): string[] {
  return report.targets.flatMap((t) => {
    const h = t.customResources?.held;
    if (!h) return [];
    const how =
      h.ended === 'served-gone'
        ? `held ${formatDuration(h.ms)} until ${h.serves.join(', ')} ended`
        : `**held until its share of the timeout ended** (${formatDuration(h.ms)}): ${h.serves.join(', ')} had not ended, so the actor was stopped before it finished`;
    return [`- **${md(t.name, 80)}** deleted last, ${md(how, 300)}: ${md(h.why, 400)}`];
  });
}

/** The section, or '' when no target had custom resources to delete first. */
export function renderCustomResources(report: RunReport): string {
  const rows = rowsOf(report);
  const skipped = new Map<string, string>();
  for (const t of report.targets)
    for (const s of t.customResources?.skippedTypes ?? []) skipped.set(s.type, s.why);
  const held = heldLines(report);
  if (rows.length === 0 && skipped.size === 0 && held.length === 0) return '';
  const lines = ['### Custom resources first', ''];
  if (held.length) lines.push(...held, '');
  if (rows.length) {
    lines.push(
      '| Type | Went before the namespace | Finalizers took (median / max) | Left to the namespace controller |',
      '| --- | --- | --- | --- |',
    );
    for (const r of rows) {
      const gone = r.objects.filter((o) => o.goneAt).length;
      const where = `${r.namespaces.size} namespace${r.namespaces.size === 1 ? '' : 's'}`;
      lines.push(
        `| ${md(r.type, 120)} | ${gone} of ${r.objects.length} in ${where} | ${timesCell(r.objects)} | ${leftCell(r.objects)} |`,
      );
    }
    lines.push('', `<sub>${phaseNote(rows.flatMap((r) => r.objects))}</sub>`);
  }
  if (skipped.size) {
    const list = [...skipped].slice(0, 10).map(([type, why]) => `${md(type, 120)} (${md(why, 160)})`);
    lines.push(
      '',
      `Not deleted early: ${list.join('; ')}${skipped.size > 10 ? ` and ${skipped.size - 10} more` : ''}.`,
    );
  }
  return lines.join('\n');
}
