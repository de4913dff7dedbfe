/** Create or update the one pull-request comment the action owns, found by a hidden marker. */
import type { Logger } from '../ports.js';
import { GitHubError, type GitHubApi, type RepoRef } from './port.js';

/** The hidden first line that marks the comment as ours. */
export const COMMENT_MARKER = '<!-- namespace-teardown:pr-comment -->';

/** Comments read per page (GitHub's maximum). */
const PER_PAGE = 100;

interface CommentJson {
  id: number;
  body?: string;
  user?: { type?: string };
}

/** What happened to the comment; `skipped` carries the reason (a warning, never a failure). */
export type CommentResult =
  { result: 'created' | 'updated'; id: number; url?: string } | { result: 'skipped'; reason: string };

function hasNextPage(link: unknown): boolean {
  return typeof link === 'string' && /rel="next"/.test(link);
}

/** Page through the comments for the marker; the first match is ours. */
async function findOurs(api: GitHubApi, base: string): Promise<number | undefined> {
  for (let page = 1; ; page++) {
    const res = await api.request<CommentJson[]>(`GET ${base}/comments?per_page=${PER_PAGE}&page=${page}`);
    const ours = res.data.find((c) => c.body?.startsWith(COMMENT_MARKER));
    if (ours) return ours.id;
    if (!hasNextPage(res.headers.link) || res.data.length === 0) return undefined;
  }
}

/** Create or update the comment on pull request `number`; a 403/404 (forks, read-only tokens) is a warning. */
export async function upsertComment(
  api: GitHubApi,
  repo: RepoRef,
  number: number,
  body: string,
  logger: Logger,
): Promise<CommentResult> {
  const repoPath = `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`;
  const base = `${repoPath}/issues/${number}`;
  const text = `${COMMENT_MARKER}\n${body}`;
  try {
    const id = await findOurs(api, base);
    const res =
      id === undefined
        ? await api.request<{ id: number; html_url?: string }>(`POST ${base}/comments`, { body: text })
        : await api.request<{ id: number; html_url?: string }>(`PATCH ${repoPath}/issues/comments/${id}`, {
            body: text,
          });
    return { result: id === undefined ? 'created' : 'updated', id: res.data.id, url: res.data.html_url };
  } catch (error) {
    if (error instanceof GitHubError && (error.kind === 'forbidden' || error.kind === 'not-found')) {
      const reason =
        `${error.message}. The token cannot comment on pull request #${number} ` +
        '(a fork, or a token without "pull-requests: write"); the job summary has the same text.';
      logger.warning(reason);
      return { result: 'skipped', reason };
    }
    throw error;
  }
}
