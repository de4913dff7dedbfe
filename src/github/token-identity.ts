/**
 * Who the GitHub token belongs to, so that the pull request comment is looked for only among that identity's own
 * comments: a marker anyone can type proves nothing, the author GitHub records does.
 */
import type { Logger } from '../shared/ports.js';
import { GitHubError, type GitHubApi } from './port.js';

/** The login the workflow's own token (`GITHUB_TOKEN`, an installation token of the Actions app) comments as. */
export const ACTIONS_BOT = 'github-actions[bot]';

/** A token's identity and how it was learned. */
export interface TokenIdentity {
  login: string;
  /** `user`: `GET /user` (a personal or user token); `viewer`: GraphQL `viewer` (an app installation token); `assumed`: neither answered. */
  source: 'user' | 'viewer' | 'assumed';
}

/**
 * The token's login. A user token (personal access token, OAuth or user-to-server token) answers `GET /user`. An
 * installation token (the workflow's `GITHUB_TOKEN`, a GitHub App's token) is refused there (403 "Resource not
 * accessible by integration") and cannot read `GET /app` either (that needs the app's JWT); GraphQL's `viewer` names
 * its bot (`github-actions[bot]`, `my-app[bot]`). When that fails too, the Actions bot is assumed and the log says so.
 */
export async function tokenIdentity(api: GitHubApi, logger: Logger): Promise<TokenIdentity> {
  try {
    const res = await api.request<{ login?: unknown }>('GET /user');
    if (typeof res.data.login === 'string' && res.data.login !== '')
      return { login: res.data.login, source: 'user' };
  } catch (error) {
    // Only the refusal an installation token gets means "ask the other way"; a bad token fails the comment anyway.
    if (!(error instanceof GitHubError && error.kind === 'forbidden' && error.status === 403)) throw error;
  }
  try {
    const res = await api.graphql<{ viewer?: { login?: unknown } }>('query { viewer { login } }');
    const login = res.data?.viewer?.login;
    if (typeof login === 'string' && login !== '') return { login, source: 'viewer' };
  } catch {
    // Falls through to the assumption below.
  }
  logger.info(
    `pr-comment: GitHub did not say who the token belongs to; taking it for the workflow's token (${ACTIONS_BOT}).`,
  );
  return { login: ACTIONS_BOT, source: 'assumed' };
}
