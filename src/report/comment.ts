/** The pull-request comment's body: the summary's own headline and fix-first block, and a link to the run. Pure. */
import type { RunReport } from '../model/run.js';
import { renderFixFirst, renderHeadline } from './headline.js';

/** The comment body (without the hidden marker, which the poster adds). */
export function renderComment(report: RunReport): string {
  const run = report.context.runUrl
    ? `[Workflow run and full summary](${encodeURI(report.context.runUrl)})`
    : '';
  return (
    [renderHeadline(report), renderFixFirst(report), run].filter((s) => s.length > 0).join('\n\n') + '\n'
  );
}
