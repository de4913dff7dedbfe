/** The lifecycle in the summary: why nothing was deleted, who asked in a comment, the GitOps owners first. Pure. */
import type { OwnerAction, OwnerOutcome } from '../model/lifecycle.js';
import type { RunReport } from '../model/run.js';
import { md, mdLink } from './escape.js';

/** `kept by label <code>keep-preview</code> on #123`, or the reason nothing was deleted; '' when something ran. */
export function skippedWords(report: RunReport): string {
  const skipped = report.lifecycle?.skipped;
  if (!skipped) return '';
  const by = skipped.keptBy;
  return by ? `kept by label <code>${md(by.label, 60)}</code> on #${by.pr}` : md(skipped.why, 400);
}

/** `Requested by @alice in a comment` (linked to it), when a comment asked for the run; '' otherwise. */
export function requestLine(report: RunReport): string {
  const request = report.lifecycle?.request;
  if (!request) return '';
  const where = mdLink('in a comment', request.url, report.context.serverUrl);
  const access = request.permission ? ` (${md(request.permission, 20)} access)` : '';
  const refused = report.lifecycle?.skipped && !report.lifecycle.skipped.keptBy ? ', refused' : '';
  return `Requested by **${md(`@${request.login}`, 60)}** ${where}${access}${refused}.`;
}

const OWNER_MARK: Record<OwnerOutcome, string> = {
  deleted: '🗑️',
  suspended: '⏸️',
  'would-delete': '🔎',
  'would-suspend': '🔎',
  'left-alone': '⚠️',
  already: 'ℹ️',
  'not-gone': '⏳',
  failed: '❌',
  unread: '❓',
};

/** One owner's line: `🗑️ Kustomization flux-system/preview-web-5 deleted first, 14 objects pruned with it (applies pr-5)`. */
function ownerLine(a: OwnerAction): string {
  const applies = a.targets.length
    ? ` <sub>(applies ${a.targets.map((t) => md(t, 80)).join(', ')})</sub>`
    : '';
  const joint = a.outcome === 'left-alone' ? ' left alone: ' : a.outcome === 'unread' ? ': ' : ' ';
  const text = a.outcome === 'already' ? `already ${a.note}` : a.note;
  return `- ${OWNER_MARK[a.outcome]} ${md(a.owner, 200)}${joint}${md(text, 800)}${applies}`;
}

/** The section of GitOps owners suspended or deleted first (`gitops-owners`); '' when there were none. */
export function renderOwners(report: RunReport): string {
  const owners = report.lifecycle?.owners;
  if (!owners?.length) return '';
  return ['### GitOps owners first', owners.map(ownerLine).join('\n')].join('\n\n');
}
