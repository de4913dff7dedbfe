/** The real GitHub client: Octokit from @actions/github, each answer read through its size limit, and where GitHub is. */
import type { Clock, Logger } from '../shared/ports.js';
import { boundedFetch } from './bounded-fetch.js';
import { GitHubClient, type Send } from './client.js';
import type { GitHubLimits } from './client-state.js';
import type { GitHubApi, GitHubHeaders } from './port.js';

/** Where GitHub's REST API is: `GITHUB_API_URL` on a runner (GitHub Enterprise Server too), else github.com. */
export function apiBaseUrl(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_API_URL || 'https://api.github.com').replace(/\/+$/, '');
}

/**
 * Where GitHub's GraphQL API is: `GITHUB_GRAPHQL_URL` on a runner; else next to the REST address (`/api/v3` →
 * `/api/graphql` on GitHub Enterprise Server), so a token is never sent to another host than the REST calls go to.
 */
export function graphqlUrl(env: NodeJS.ProcessEnv): string {
  if (env.GITHUB_GRAPHQL_URL) return env.GITHUB_GRAPHQL_URL.replace(/\/+$/, '');
  const rest = apiBaseUrl(env);
  return /\/api\/v3$/.test(rest) ? rest.replace(/\/v3$/, '/graphql') : `${rest}/graphql`;
}

/** Build the real client; loads @actions/github only now, so runs that never talk to GitHub never load it. */
export async function createGitHub(opts: {
  token: string;
  baseUrl: string;
  /** The GraphQL endpoint; default: next to `baseUrl` (see `graphqlUrl`). */
  graphqlUrl?: string;
  clock: Clock;
  logger?: Logger;
  limits?: GitHubLimits;
  /** The run's cancellation (a deadline comes with `until`). */
  signal?: AbortSignal;
}): Promise<GitHubApi> {
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(opts.token, { baseUrl: opts.baseUrl });
  // The proxy-aware fetch @actions/github set up; each call reads its answer through a size limit around it.
  const inner = (octokit.request.endpoint.DEFAULTS.request?.fetch ?? fetch) as typeof fetch;
  const send: Send = async (route, params, { signal, maxBytes }) => {
    const request = { signal, fetch: boundedFetch(inner, maxBytes) };
    const res = await octokit.request(route, { ...params, request });
    return { status: res.status, data: res.data, headers: res.headers as GitHubHeaders };
  };
  const graphqlEndpoint = opts.graphqlUrl ?? graphqlUrl({ GITHUB_API_URL: opts.baseUrl });
  const bounds = { signal: opts.signal };
  return new GitHubClient(send, {
    clock: opts.clock,
    limits: opts.limits,
    logger: opts.logger,
    graphqlEndpoint,
    bounds,
  });
}
