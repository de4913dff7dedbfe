/** The first screen: the headline (counts, cluster, check) and the fix-first block. Pure. */
import { FORCE_FINALIZE_NAMESPACE_POLICY } from '../diagnosis/index.js';
import type { Outcome, RunContext, RunReport, TargetReport } from '../model/run.js';
import { briefReason, listNames } from './brief.js';
import { causesOf, type Cause } from './causes.js';
import { layoutScript, withContext } from './commands.js';
import { fence, md, mdLink } from './escape.js';
import type { Finding } from '../model/findings.js';
import { ownerLabels } from './owner-labels.js';
import { sweepCounts } from './sweep.js';
import { requestLine, skippedWords } from './lifecycle.js';
import { waitSentence } from './wait-words.js';

/** How each outcome is counted in the headline, most urgent first. */
export const OUTCOME_COUNT: Record<Outcome, { rank: number; words: string }> = {
  error: { rank: -1, words: 'error' },
  stuck: { rank: 0, words: 'stuck' },
  refused: { rank: 1, words: 'refused' },
  active: { rank: 2, words: 'not deleted' },
  forced: { rank: 3, words: 'forced' },
  recreated: { rank: 4, words: 'recreated' },
  gone: { rank: 5, words: 'gone' },
  'already-gone': { rank: 6, words: 'already gone' },
  planned: { rank: 7, words: 'planned' },
};

/** At most this many causes on the first screen; the rest are in the tables below. */
const MAX_CAUSES = 8;

/** `1 stuck, 4 gone of 5 namespaces`: the outcomes counted, worst first. */
export function counts(report: RunReport): string {
  return countTargets(report.targets);
}

/** `1 stuck, 4 gone of 5 namespaces` for any targets (one run's, or a fleet's). */
export function countTargets(targets: readonly Pick<TargetReport, 'outcome'>[]): string {
  const n = new Map<Outcome, number>();
  for (const t of targets) n.set(t.outcome, (n.get(t.outcome) ?? 0) + 1);
  const parts = [...n.entries()]
    .sort(([a], [b]) => OUTCOME_COUNT[a].rank - OUTCOME_COUNT[b].rank)
    .map(([o, k]) => `${k} ${OUTCOME_COUNT[o].words}`);
  const total = targets.length;
  return parts.length ? `${parts.join(', ')} of ${total} namespace${total === 1 ? '' : 's'}` : 'no targets';
}

/** `a, b, c and 7 more`: a failure reason lists names, which the tables below show anyway. */
export function shortReason(reason: string): string {
  return md(briefReason(reason, 3), 300);
}

/** The cluster, repository, pull request, commit and run link of a context, as one line. */
export function contextLine(c: RunContext): string {
  const parts: string[] = [];
  const k = c.cluster;
  if (k?.context || k?.server) {
    // A name of its own (`cluster-name`) comes first; the default name is the context or host already shown.
    const own = k.name && k.name !== k.context && k.name !== k.server ? `**${md(k.name, 100)}** ` : '';
    const name = k.context ? `<code>${md(k.context, 100)}</code>` : '';
    const host = k.server ? `${name ? ' at ' : ''}${md(k.server, 100)}` : '';
    parts.push(`Cluster ${own}${name}${host}`);
  }
  if (c.repository) parts.push(`**${md(c.repository)}**`);
  if (c.pullRequest) {
    const title = c.pullRequest.title ? ` ${md(c.pullRequest.title, 120)}` : '';
    parts.push(`pull request #${c.pullRequest.number}${title}`);
  } else if (c.ref) parts.push(`ref ${md(c.ref)}`);
  if (c.sha) parts.push(`commit ${md(c.sha.slice(0, 12))}`);
  if (c.runUrl) parts.push(mdLink('workflow run', c.runUrl, c.serverUrl));
  return parts.join(' · ');
}

/** ` · 2,000 objects hold what blocks them`, when the causes of the stuck namespaces count their objects. */
function objectCount(report: RunReport): string {
  const n = causesOf(report).reduce((sum, c) => sum + (c.objects ?? 0), 0);
  return n > 1 ? ` · ${n.toLocaleString('en-US')} objects block them` : '';
}

/** The headline: what happened to how many namespaces, on which cluster, and whether the check fails. */
export function renderHeadline(report: RunReport): string {
  const skipped = skippedWords(report);
  if (skipped)
    return [
      `## ${report.failures.length ? '❌' : '⏭️'} Namespace teardown skipped: ${skipped}`,
      contextLine(report.context),
      requestLine(report),
      report.failures.length
        ? '**Nothing was deleted**, no cluster was asked, and **the check fails**: GitHub could not be read, so the preview stays until it can be.'
        : '**Nothing was deleted**; no cluster was asked.',
    ]
      .filter(Boolean)
      .join('\n\n');
  const fails = report.failures.length > 0;
  const icon = fails ? '❌' : report.targets.some((t) => t.outcome === 'forced') ? '⚠️' : '✅';
  const check = fails
    ? `**The check fails:** ${report.failures.map(shortReason).join('; ')}.`
    : '**The check passes.**';
  const sweep = report.sweep ? ` · sweep: ${sweepCounts(report.sweep)}` : '';
  const cancelled = report.cancelled ? ' (cancelled)' : '';
  // The run's own error is among the failures, unless fail-on is never.
  const error = report.error && !fails ? `**Error:** ${md(report.error, 600)}` : '';
  const wait = waitSentence(report);
  return [
    `## ${icon} Namespace teardown${cancelled}: ${counts(report)}${objectCount(report)}${sweep}`,
    contextLine(report.context),
    requestLine(report),
    check,
    wait ? `⏱️ ${md(wait, 1500)}` : '',
    error,
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** `**name**` and the owner labels of a namespace, for the first screen and the tables. */
export function nameWithOwner(t: TargetReport, selector: string | undefined): string {
  const labels = ownerLabels(t.labels, selector).map((l) => `<code>${md(l, 120)}</code>`);
  return `**${md(t.name, 80)}**${labels.length ? ` · ${labels.join(' ')}` : ''}`;
}

function whoLine(cause: Cause, selector: string | undefined, n: number): string {
  const objects =
    cause.objects !== undefined && cause.objects > 1
      ? ` (${cause.objects.toLocaleString('en-US')} objects)`
      : '';
  if (cause.targets.length === 1) return `**${n}.** ${nameWithOwner(cause.targets[0]!, selector)}${objects}`;
  const names = cause.targets.map((t) => md(t.name, 80));
  return `**${n}. Same cause in ${cause.targets.length} namespaces${objects}:** ${listNames(names, 12)}`;
}

/** The marked last resort: collapsed, with what it risks, never the first thing to paste. */
function lastResortBlock(cause: Pick<Cause, 'lastResort'>): string {
  const last = cause.lastResort;
  if (!last) return '';
  return lastResortDetails(layoutScript(last.command).slice(0, 8000), last.risk);
}

/** A last resort already laid out, collapsed under what it risks. */
export function lastResortDetails(script: string, risk: string): string {
  return [
    `<details><summary>⚠️ Last resort, not the fix — ${md(risk, 300)}</summary>`,
    fence(script, 'sh'),
    '</details>',
  ].join('\n\n');
}

/** The verdict of a cause in one line, marked by its severity. */
export function verdictLine(severity: Finding['severity'], summary: string): string {
  return `${icon(severity)} ${md(summary, 400)}`;
}

/** The cause's owner, remedy note and what forcing could do, in small print; '' when there is none. */
export function causeNotes(cause: Pick<Cause, 'verdict' | 'command' | 'lastResort'>): string {
  const v = cause.verdict;
  const notes: string[] = [];
  // The owner's detail is often the evidence line already shown: not twice.
  if (v.owner?.detail && !(v.basis ?? []).includes(v.owner.detail))
    notes.push(`Owner: ${md(v.owner.controller, 200)} — ${md(v.owner.detail, 300)}.`);
  if (v.remedy.note) notes.push(md(v.remedy.note, 700));
  notes.push(policyWords(v.remedy.policy, cause));
  return notes.some(Boolean) ? `<sub>${notes.filter(Boolean).join(' ')}</sub>` : '';
}

function causeBlock(cause: Cause, report: RunReport, n: number): string {
  const v = cause.verdict;
  const parts = [
    whoLine(cause, report.settings.selector, n),
    verdictLine(cause.verdict.severity, cause.summary),
  ];
  const basis = evidenceLine(v);
  if (basis) parts.push(basis);
  if (cause.command) parts.push(fence(layoutScript(cause.command).slice(0, 8000), 'sh'));
  else if (cause.lookups.length)
    parts.push(`To look closer:\n\n${fence(layoutScript(cause.lookups.join('\n')), 'sh')}`);
  const resort = lastResortBlock(cause);
  if (resort) parts.push(resort);
  parts.push(causeNotes(cause));
  return parts.filter(Boolean).join('\n\n');
}

/** The one or two pieces of evidence the verdict rests on, as this run read them. */
export function evidenceLine(v: Cause['verdict']): string {
  const basis = (v.basis ?? []).filter(Boolean).slice(0, 2);
  if (basis.length === 0) return '';
  return `**Evidence** (read in this run): ${basis.map((b) => md(b, 300)).join(' · ')}`;
}

/** What forcing could do about the cause: the same fix, or (for /finalize) going around it. */
function policyWords(policy: string | undefined, cause: Pick<Cause, 'command' | 'lastResort'>): string {
  if (!policy) return '';
  const code = `<code>${md(policy, 200)}</code>`;
  if (policy === FORCE_FINALIZE_NAMESPACE_POLICY) return `Forcing can go around it when allowed: ${code}.`;
  return cause.command || cause.lastResort ? `The action can do this itself when allowed: ${code}` : '';
}

const icon = (s: 'error' | 'warning' | 'notice'): string => ({ error: '🔴', warning: '🟠', notice: '🔵' })[s];

/** Cluster-wide blockers seen in namespaces that are gone now: forcing went around them, they still block. */
function stillBlocking(report: RunReport): string[] {
  const seen = new Map<string, string>();
  for (const t of report.targets) {
    for (const f of t.findings.filter((x) => x.id === 'still-broken')) {
      const fix = f.remedy.commands[0];
      const went =
        t.outcome === 'forced' ? ' Forcing went around it for this run; it was never resolved.' : '';
      const block = [
        `> ⚠️ **Still broken after the run** (read again once ${md(t.name, 80)} had gone): ${md(f.causeSummary ?? f.summary, 400)}.${went}`,
        fix ? fence(layoutScript(withContext(fix, report.context.cluster?.context)), 'sh') : '',
        f.remedy.note ? `<sub>${md(f.remedy.note, 500)}</sub>` : '',
      ];
      seen.set(f.cause, block.filter(Boolean).join('\n\n'));
    }
  }
  return [...seen.values()];
}

/** Per stuck namespace, or per cause when one cause blocks several: the verdict and the one command to paste. */
export function renderFixFirst(report: RunReport): string {
  const causes = causesOf(report);
  const loud = stillBlocking(report);
  if (causes.length === 0 && loud.length === 0) return '';
  const blocks = causes.slice(0, MAX_CAUSES).map((c, i) => causeBlock(c, report, i + 1));
  if (causes.length > MAX_CAUSES)
    blocks.push(`…and ${causes.length - MAX_CAUSES} more causes: see the namespaces below.`);
  return ['### Fix first', ...loud, ...blocks].join('\n\n');
}
