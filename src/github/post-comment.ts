/** The opt-in PR comment: create or update the one comment with the body it is given; never fails the run. */
import type { RepoRef } from '../model/pulls.js';
import type { CommentKind } from '../model/run.js';
import { messageOf } from '../shared/errors.js';
import type { Clock, Logger } from '../shared/ports.js';
import { COMMENT_BUDGET_MS, upsertComment } from './own-comment.js';
import { tokenIdentity } from './token-identity.js';
import type { GitHubApi } from './port.js';
import { react } from './reactions.js';

/** The pull request a comment goes on. */
export interface PullRequestRef {
  repo: RepoRef;
  number: number;
}

/**
 * Post `body` on `pr`, as the identity the token belongs to (only its comments are looked at), within
 * `COMMENT_BUDGET_MS` from now whatever the run's own deadline; every problem is a warning.
 */
export async function commentOnPullRequest(
  body: string,
  pr: PullRequestRef,
  github: () => Promise<GitHubApi>,
  logger: Logger,
  clock: Clock,
): Promise<void> {
  try {
    const api = (await github()).until(clock.now() + COMMENT_BUDGET_MS);
    const identity = await tokenIdentity(api, logger);
    logger.info(`pr-comment: the token belongs to ${identity.login}; only its comments are looked at.`);
    const result = await upsertComment(api, pr.repo, pr.number, body, logger, identity.login);
    if (result.result !== 'skipped')
      logger.info(`pr-comment: ${result.result} ${result.url ?? `comment ${result.id}`}`);
  } catch (error) {
    const within = `(the comment has ${COMMENT_BUDGET_MS / 1000} s after the result)`;
    logger.warning(`pr-comment: not written: ${messageOf(error)} ${within}`);
  }
}

/**
 * Answer a comment that asked for the teardown: 👍 when it ran and the check passes, 👎 when it was refused, kept or
 * failed; then the one pull-request comment, all within `COMMENT_BUDGET_MS`. Every problem is a warning.
 */
export async function answerComment(
  body: string,
  pr: PullRequestRef,
  comment: { id: number; kind: CommentKind; ok: boolean },
  github: () => Promise<GitHubApi>,
  logger: Logger,
  clock: Clock,
): Promise<void> {
  let api: GitHubApi | undefined;
  try {
    api = (await github()).until(clock.now() + COMMENT_BUDGET_MS);
    await react(api, pr.repo, comment, comment.ok ? '+1' : '-1');
  } catch (error) {
    logger.warning(`could not react on the comment: ${messageOf(error)}`);
  }
  const bounded = api;
  await commentOnPullRequest(body, pr, bounded ? async () => bounded : github, logger, clock);
}
