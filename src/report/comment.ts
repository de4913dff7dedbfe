/** The pull-request comment's body: the summary's own headline and fix-first block, and a link to the run. Pure. */
import type { RunReport } from '../model/run.js';
import { mdLink, visible } from './escape.js';
import { renderFixFirst, renderHeadline } from './headline.js';

/** The comment body (without the hidden marker, which the poster adds). */
export function renderComment(report: RunReport): string {
  const { runUrl, serverUrl } = report.context;
  const run = runUrl ? mdLink('Workflow run and full summary', runUrl, serverUrl) : '';
  const parts = [renderHeadline(report), renderFixFirst(report), run].filter((s) => s.length > 0);
  return visible(parts.join('\n\n') + '\n', true);
}
