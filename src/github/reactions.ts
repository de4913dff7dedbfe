/** A reaction on an issue comment: 👀 when a requested teardown starts, 👍 or 👎 when it is done or refused. */
import type { RepoRef } from '../model/pulls.js';
import type { GitHubApi } from './port.js';

/** The reactions the action adds (GitHub's own set has no ✅ or ❌). */
export type Reaction = 'eyes' | '+1' | '-1';

/** `POST /repos/{owner}/{repo}/issues/comments/{id}/reactions`; GitHub answers 200 when it is already there. */
export async function react(
  api: GitHubApi,
  repo: RepoRef,
  commentId: number,
  content: Reaction,
): Promise<void> {
  const route =
    `POST /repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}` +
    `/issues/comments/${commentId}/reactions`;
  await api.request(route, { content });
}
