/**
 * Create or update the one pull-request comment the action owns: the first comment that carries the hidden marker
 * and was written by the token's own identity. A marker in anyone else's comment is ignored and never edited.
 */
import type { Logger } from '../shared/ports.js';
import { GitHubError, type GitHubApi } from './port.js';
import { type RepoRef } from '../model/pulls.js';

/** The hidden first line that marks the comment as ours. */
export const COMMENT_MARKER = '<!-- namespace-teardown:pr-comment -->';

/** Comments read per page (GitHub's maximum). */
const PER_PAGE = 100;

/**
 * The largest comment page read: 100 comments of GitHub's longest (65,536 characters) in two-byte UTF-8 fit; a page
 * that would not is refused whole instead of held in memory.
 */
export const COMMENT_PAGE_BYTES = 16 * 1024 * 1024;

/** The comment comes after the result was published: all of its calls together get this long. */
export const COMMENT_BUDGET_MS = 20_000;

/**
 * Comment pages read at most: a page can take GitHub a second, so more pages than seconds in the budget cannot
 * finish in it (2,000 comments).
 */
export const MAX_COMMENT_PAGES = COMMENT_BUDGET_MS / 1000;

interface CommentJson {
  id: number;
  body?: string;
  user?: { login?: string; type?: string } | null;
}

/** What happened to the comment; `skipped` carries the reason (a warning, never a failure). */
export type CommentResult =
  { result: 'created' | 'updated'; id: number; url?: string } | { result: 'skipped'; reason: string };

function hasNextPage(link: unknown): boolean {
  return typeof link === 'string' && /rel="next"/.test(link);
}

/** Logins are case-insensitive on GitHub. */
const sameLogin = (a: string | undefined, b: string): boolean => a?.toLowerCase() === b.toLowerCase();

/**
 * Page through the comments for the marker in a comment by `author`; the first match is ours. Past
 * `maxPages` the search stops with an error: a comment made then might be a second one of ours.
 */
async function findOurs(
  api: GitHubApi,
  base: string,
  author: string,
  logger: Logger,
  maxPages: number,
): Promise<number | undefined> {
  let foreign = 0;
  try {
    for (let page = 1; page <= maxPages; page++) {
      const route = `GET ${base}/comments?per_page=${PER_PAGE}&page=${page}`;
      const res = await api.request<CommentJson[]>(route, {}, { maxBytes: COMMENT_PAGE_BYTES });
      if (!Array.isArray(res.data))
        throw new Error(`GET ${base}/comments: the answer is not a list of comments`);
      for (const c of res.data) {
        if (!c.body?.startsWith(COMMENT_MARKER)) continue;
        if (sameLogin(c.user?.login, author)) return c.id;
        foreign++;
      }
      if (!hasNextPage(res.headers.link) || res.data.length === 0) return undefined;
    }
    throw new Error(`GET ${base}/comments: more than ${maxPages} pages of comments; not searched further`);
  } finally {
    if (foreign > 0)
      logger.info(`pr-comment: ${foreign} comment(s) by others carry the marker; ignored, never edited.`);
  }
}

/**
 * Create or update the comment on pull request `number`, looking only at comments by `author` (the token's login);
 * a 403/404 (forks, read-only tokens) is a warning.
 */
export async function upsertComment(
  api: GitHubApi,
  repo: RepoRef,
  number: number,
  body: string,
  logger: Logger,
  author: string,
  maxPages = MAX_COMMENT_PAGES,
): Promise<CommentResult> {
  const repoPath = `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`;
  const base = `${repoPath}/issues/${number}`;
  const text = `${COMMENT_MARKER}\n${body}`;
  try {
    const id = await findOurs(api, base, author, logger, maxPages);
    type Written = { id: number; html_url?: string; user?: { login?: string } | null };
    const res =
      id === undefined
        ? await api.request<Written>(`POST ${base}/comments`, { body: text })
        : await api.request<Written>(`PATCH ${repoPath}/issues/comments/${id}`, { body: text });
    const wrote = res.data.user?.login;
    if (id === undefined && wrote && !sameLogin(wrote, author))
      logger.info(
        `pr-comment: GitHub wrote the comment as ${wrote}, not ${author}: the next run will not find it.`,
      );
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
