/** A reaction on the comment that asked: 👀 when a requested teardown starts, 👍 or 👎 when it is done or refused. */
import type { RepoRef } from '../model/pulls.js';
import type { CommentKind } from '../model/run.js';
import type { GitHubApi } from './port.js';

/** The reactions the action adds (GitHub's own set has no ✅ or ❌). */
export type Reaction = 'eyes' | '+1' | '-1';

/** Where GitHub keeps a comment's reactions, by the event it came in; a review has none. */
const REACTIONS_AT: Record<CommentKind, string | undefined> = {
  issue_comment: 'issues/comments',
  pull_request_review_comment: 'pulls/comments',
  pull_request_review: undefined,
};

/**
 * `POST /repos/{owner}/{repo}/issues/comments/{id}/reactions` (`pulls/comments` for a review comment); GitHub answers
 * 200 when it is already there. A review gets none: GitHub offers no reactions on reviews.
 */
export async function react(
  api: GitHubApi,
  repo: RepoRef,
  comment: { id: number; kind: CommentKind },
  content: Reaction,
): Promise<void> {
  const at = REACTIONS_AT[comment.kind];
  if (at === undefined) return;
  const route =
    `POST /repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}` +
    `/${at}/${comment.id}/reactions`;
  await api.request(route, { content });
}
