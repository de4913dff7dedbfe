/** The lifecycle's lines on the first screen: why nothing was deleted, and who asked in a comment. Pure. */
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
