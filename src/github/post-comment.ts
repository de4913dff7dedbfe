/** The opt-in PR comment: render the body, then create or update the one comment; never fails the run. */
import type { RunContext, RunReport } from '../outcome.js';
import type { Logger } from '../ports.js';
import { renderComment } from '../report/comment.js';
import { upsertComment } from './comment.js';
import type { GitHubApi } from './port.js';

/** Comment on the pull request of the triggering event; every problem is a warning. */
export async function commentOnPullRequest(
  report: RunReport,
  context: RunContext,
  github: () => Promise<GitHubApi>,
  logger: Logger,
): Promise<void> {
  const pr = context.pullRequest;
  const [owner, repo] = (context.repository ?? '').split('/');
  if (!pr || !owner || !repo) {
    logger.info('pr-comment: the run was not triggered by a pull request; no comment written.');
    return;
  }
  try {
    const result = await upsertComment(
      await github(),
      { owner, repo },
      pr.number,
      renderComment(report),
      logger,
    );
    if (result.result !== 'skipped')
      logger.info(`pr-comment: ${result.result} ${result.url ?? `comment ${result.id}`}`);
  } catch (error) {
    logger.warning(`pr-comment: not written: ${error instanceof Error ? error.message : String(error)}`);
  }
}
