/** The opt-in PR comment: render the body, then create or update the one comment; never fails the run. */
import { renderComment } from '../report/comment.js';
import { messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/ports.js';
import type { RunContext, RunReport } from '../model/run.js';
import { upsertComment } from './comment.js';
import { tokenIdentity } from './identity.js';
import type { GitHubApi } from './port.js';

/** Comment on the pull request of the triggering event, as the identity the token belongs to; every problem is a warning. */
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
    const api = await github();
    const identity = await tokenIdentity(api, logger);
    logger.info(`pr-comment: the token belongs to ${identity.login}; only its comments are looked at.`);
    const result = await upsertComment(
      api,
      { owner, repo },
      pr.number,
      renderComment(report),
      logger,
      identity.login,
    );
    if (result.result !== 'skipped')
      logger.info(`pr-comment: ${result.result} ${result.url ?? `comment ${result.id}`}`);
  } catch (error) {
    logger.warning(`pr-comment: not written: ${messageOf(error)}`);
  }
}
