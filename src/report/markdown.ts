/** The job summary: headline, fix first, namespaces still there, forcing, gone ones folded, details. Pure. */
import { formatDuration } from '../shared/duration.js';
import type { Outcome, RunReport, TargetReport } from '../model/run.js';
import { causesOf, verdictOf } from './causes.js';
import { listNames } from './brief.js';
import { md, visible } from './escape.js';
import { renderDetails } from './findings.js';
import { renderForce } from './force.js';
import { renderFixFirst, renderHeadline } from './headline.js';
import { renderSweep } from './sweep.js';
import { renderOwners } from './lifecycle.js';
import { renderCustomResources } from './prevention.js';
import { renderPredictions } from './prevention-predictions.js';
import { renderPlan } from './plan-md.js';
import { ownerLabels } from './owner-labels.js';
import { comesBack } from '../diagnosis/index.js';
import { conditionWords, OUTCOME_WORDS, targetWords } from './words.js';
import { Budget, cutLine } from './budget.js';
import { settledReason, settledWords } from './wait-words.js';

export { conditionWords } from './words.js';
export { renderFixFirst, renderHeadline } from './headline.js';

/** GitHub refuses a step summary over 1 MiB (in bytes). */
export const SUMMARY_LIMIT = 1_000_000;
/** A summary longer than this is no longer read: what does not fit is cut and said so (all of it is in the report). */
export const SUMMARY_BUDGET = 100_000;
/** Rows of the table of namespaces still there, and of the folded table of those gone; the rest are counted. */
export const STILL_ROWS = 200;
export const GONE_ROWS = 100;
/** Names listed in the settings line; more are counted. */
const SETTINGS_NAMES = 10;

const GONE: ReadonlySet<Outcome> = new Set<Outcome>(['gone', 'already-gone']);

/** The owner labels of a namespace, as code, for a table cell. */
export function ownerCell(t: TargetReport, selector: string | undefined): string {
  return ownerLabels(t.labels, selector)
    .map((l) => `<code>${md(l, 120)}</code>`)
    .join(' ');
}

/** What blocks a namespace, for a table cell: its verdict (or a pointer to its numbered cause), else what it said. */
export function whyCell(t: TargetReport, causeNumber: ReadonlyMap<string, number>): string {
  const v = verdictOf(t);
  const n = causeNumber.get(t.name);
  const settled = settledReason(t, v);
  const also = settled ? ` · settled: ${md(settled, 200)}` : '';
  if (v && n !== undefined) return `cause ${n} ↑ ${md(v.summary, 90)}${also}`;
  if (v) return `${md(v.summary, 220)}${also}`;
  const said = [t.note, conditionWords(t.conditions)].filter(Boolean).join('; ');
  return `${md(said, 220)}${also}`;
}

function attentionRow(t: TargetReport, selector: string | undefined, causes: Map<string, number>): string {
  const time = [t.terminatingForMs !== undefined ? formatDuration(t.terminatingForMs) : '', settledWords(t)]
    .filter(Boolean)
    .map((w) => ` · ${w}`)
    .join('');
  return `| ${md(t.name, 80)} | ${ownerCell(t, selector)} | ${targetWords(t)}${time} | ${whyCell(t, causes)} |`;
}

/** Namespace → number of its cause in the fix-first block, for causes shared by several namespaces. */
function causeNumbers(report: RunReport): Map<string, number> {
  const out = new Map<string, number>();
  causesOf(report).forEach((c, i) => {
    if (c.targets.length > 1) for (const t of c.targets) out.set(t.name, i + 1);
  });
  return out;
}

/** Namespace → the first namespace of its cause, for every other namespace a shared cause blocks. */
function firstOfCause(report: RunReport): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of causesOf(report)) for (const t of c.targets.slice(1)) out.set(t.name, c.targets[0]!.name);
  return out;
}

function ownerLine(t: TargetReport, selector: string | undefined): string {
  const cell = ownerCell(t, selector);
  return cell ? `Owner: ${cell}\n\n` : '';
}

function goneRow(t: TargetReport, selector: string | undefined): string {
  const took = t.durationMs !== undefined ? formatDuration(t.durationMs) : '';
  return `| ${md(t.name, 80)} | ${ownerCell(t, selector)} | ${OUTCOME_WORDS[t.outcome].target} | ${took} |`;
}

function settingsLine(report: RunReport): string {
  const s = report.settings;
  const targets: string[] = [];
  if (s.namespaces.length)
    targets.push(
      `namespaces ${listNames(
        s.namespaces.map((n) => md(n)),
        SETTINGS_NAMES,
      )}`,
    );
  if (s.scope === 'all-terminating') targets.push('every namespace already Terminating');
  if (s.selector) targets.push(`selector <code>${md(s.selector)}</code>`);
  if (report.sweep) targets.push(`sweep ${report.sweep.mode}`);
  const cost = report.cost
    ? ` · ${report.cost.requests} API requests, ${Math.round(report.cost.bytes / 1024)} KiB`
    : '';
  const parts = [`result <code>${report.result}</code>`, targets.join(' + ')].filter(Boolean);
  const wait = s.wait ? ` · wait ${s.wait}` : '';
  const fence = s.targetLabel ? ` · target-label <code>${md(s.targetLabel, 120)}</code>` : '';
  return `<sub>${parts.join(' · ')}${fence} · delete ${s.delete}${s.dryRun ? ' · dry-run true' : ''} · timeout ${s.timeout}${wait} · fail-on ${s.failOn} · force ${s.force.mode}${cost}</sub>`;
}

/**
 * Render the whole summary within `limit` bytes; what does not fit is left out, said, and is in the JSON
 * report at `reportPath`. `overflow` counts annotations over GitHub's limits.
 */
export function renderSummary(
  report: RunReport,
  reportPath?: string,
  opts: { overflow?: number; limit?: number } = {},
): string {
  const selector = report.settings.selector;
  const context = report.context.cluster?.context;
  const limit = Math.min(opts.limit ?? SUMMARY_BUDGET, SUMMARY_LIMIT);
  const b = new Budget(limit - 2_000);
  b.add(renderHeadline(report));
  // Plan mode: the plan is the first screen, its predicted hangs among it.
  const plan = renderPlan(report);
  if (plan) b.add(plan);
  else if (!b.add(renderPredictions(report))) b.cut.push('the predictions');
  if (!b.add(renderFixFirst(report))) b.cut.push('the fix-first block');
  if (!b.add(renderOwners(report))) b.cut.push('the GitOps owners');
  // A namespace a live owner applies again, or one that may, is not folded away as gone.
  const back = (t: TargetReport): boolean => t.findings.some(comesBack);
  const present = report.targets.filter((t) => (!GONE.has(t.outcome) && t.outcome !== 'forced') || back(t));
  const numbers = causeNumbers(report);
  if (present.length) {
    // In plan mode nothing was deleted: every target is still there, as planned.
    b.add(`### ${plan ? 'Targets' : 'Still there'} (${present.length})`);
    b.table(
      'rows of the table of namespaces still there',
      ['| Namespace | Owner | Outcome | Blocked by |', '| --- | --- | --- | --- |'],
      present,
      (t) => attentionRow(t, selector, numbers),
      STILL_ROWS,
    );
  }
  if (!b.add(renderSweep(report))) b.cut.push('the sweep section');
  if (!b.add(renderCustomResources(report))) b.cut.push('the custom resources section');
  const forcing = report.targets.filter((t) => t.force && t.force.plan.mode !== 'off');
  if (forcing.length) b.add('### Forcing');
  for (const t of forcing)
    if (!b.add(`#### ${md(t.name, 80)} — ${targetWords(t)}\n\n${ownerLine(t, selector)}${renderForce(t)}`))
      b.cut.push(`the forcing of ${md(t.name, 80)}`);
  const gone = report.targets.filter((t) => GONE.has(t.outcome) && !back(t));
  if (gone.length)
    b.table(
      'rows of the table of namespaces gone',
      ['| Namespace | Owner | Outcome | Took |', '| --- | --- | --- | --- |'],
      gone,
      (t) => goneRow(t, selector),
      GONE_ROWS,
      [
        `<details><summary>✅ ${gone.length} namespace${gone.length === 1 ? '' : 's'} gone</summary>`,
        '</details>',
      ],
    );
  const detailed = report.targets.filter((t) => t.findings.length > 0);
  if (detailed.length) b.add('### Details');
  const firstOf = firstOfCause(report);
  let left = 0;
  for (const t of detailed) if (left > 0 || !b.add(renderDetails(t, context, firstOf.get(t.name)))) left++;
  if (left) b.cut.push(`the details of ${left} namespace${left === 1 ? '' : 's'}`);
  if (opts.overflow)
    b.add(
      `<sub>${opts.overflow} annotation(s) over GitHub's limits were not emitted; their findings are above and in the JSON report.</sub>`,
    );
  if (b.cut.length) b.parts.push(cutLine(b.cut, limit, reportPath));
  b.parts.push(settingsLine(report));
  // Every part escaped its own cluster text; this pass makes sure nothing raw reaches a reader all the same.
  return visible(b.parts.join('\n\n') + '\n', true);
}
