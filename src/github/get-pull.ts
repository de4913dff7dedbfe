/** What GitHub says about one pull request: open, closed (merged or not), missing, or unknown. */
import type { PullState, RepoRef } from '../model/pulls.js';
import { messageOf } from '../shared/errors.js';
import { GitHubError, type GitHubApi } from './port.js';
import { otherPull } from './same-pull.js';

interface PullJson {
  number?: number;
  state?: string;
  merged_at?: string | null;
  closed_at?: string | null;
  html_url?: string;
  labels?: ({ name?: unknown } | null)[];
}

/** The label names of a REST answer (GitHub sends them all, at most 100); undefined when the answer has none. */
function labelsOf(data: PullJson): { labels?: string[] } {
  if (!Array.isArray(data.labels)) return {};
  const names = data.labels.map((l) => l?.name);
  return names.every((name) => typeof name === 'string') ? { labels: names as string[] } : {};
}

/** Ask GitHub for one pull request; errors, and an answer about another one, become `unknown`, never an exception. */
export async function getPullState(api: GitHubApi, repo: RepoRef, number: number): Promise<PullState> {
  try {
    const route = `GET /repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}/pulls/${number}`;
    const { data } = await api.request<PullJson>(route);
    const other = otherPull(number, { number: data.number, url: data.html_url });
    if (other) return { state: 'unknown', error: other };
    const url = typeof data.html_url === 'string' ? data.html_url : undefined;
    const labels = labelsOf(data);
    if (data.state === 'open') return { state: 'open', url, ...labels };
    const closedAt = data.merged_at ?? data.closed_at;
    if (data.state === 'closed' && typeof closedAt === 'string') {
      return { state: data.merged_at ? 'merged' : 'closed', closedAt, url, ...labels };
    }
    return { state: 'unknown', error: `unexpected pull request state "${String(data.state)}"` };
  } catch (error) {
    if (error instanceof GitHubError && error.kind === 'not-found') return { state: 'missing' };
    return { state: 'unknown', error: messageOf(error) };
  }
}
