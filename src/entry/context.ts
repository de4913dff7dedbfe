/** The workflow context from the runner's environment and event file, without loading @actions/github. */
import { readFileSync } from 'node:fs';
import type { PullRequestRef } from '../github/post-comment.js';
import type { CommentEvent, RunContext } from '../model/run.js';

interface EventPayload {
  action?: unknown;
  pull_request?: { number?: number; title?: string; html_url?: string };
  issue?: { number?: unknown; title?: unknown; pull_request?: { html_url?: unknown } | null };
  comment?: {
    id?: unknown;
    body?: unknown;
    html_url?: unknown;
    user?: { login?: unknown; type?: unknown } | null;
  };
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The comment of an `issue_comment` event, when the payload has one with an id, an author and an issue number. */
function commentOf(event: EventPayload): CommentEvent | undefined {
  const c = event.comment;
  const login = text(c?.user?.login);
  const issue = event.issue?.number;
  if (!c || typeof c.id !== 'number' || !login || typeof issue !== 'number') return undefined;
  return {
    id: c.id,
    action: text(event.action) ?? '',
    login,
    userType: text(c.user?.type) ?? '',
    firstWord: (text(c.body) ?? '').trimStart().split(/\s/, 1)[0]!.slice(0, 50),
    issue,
    onPullRequest: !!event.issue?.pull_request,
    url: text(c.html_url),
  };
}

/** The pull request of a `pull_request` event, or of an `issue_comment` event on a pull request. */
function pullOf(event: EventPayload): RunContext['pullRequest'] {
  const pr = event.pull_request;
  if (pr && typeof pr.number === 'number') return { number: pr.number, title: pr.title, url: pr.html_url };
  const issue = event.issue;
  if (issue?.pull_request && typeof issue.number === 'number')
    return { number: issue.number, title: text(issue.title), url: text(issue.pull_request.html_url) };
  return undefined;
}

function readEvent(path: string | undefined): EventPayload {
  if (!path) return {};
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as EventPayload;
  } catch {
    return {};
  }
}

/** `https://github.com`, or the GitHub Enterprise Server address on such a runner. */
export function serverUrlOf(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
}

/** What the run is about: repository, ref, commit, pull request and the run's link, as the runner sets them. */
export function readRunContext(env: NodeJS.ProcessEnv): RunContext {
  const repository = /^[^/]+\/[^/]+$/.test(env.GITHUB_REPOSITORY ?? '') ? env.GITHUB_REPOSITORY : undefined;
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const comment = env.GITHUB_EVENT_NAME === 'issue_comment' ? commentOf(event) : undefined;
  const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10);
  return {
    repository,
    ref: env.GITHUB_REF || undefined,
    sha: env.GITHUB_SHA || undefined,
    pullRequest: pullOf(event),
    ...(comment ? { comment } : {}),
    runUrl: runId && repository ? `${serverUrlOf(env)}/${repository}/actions/runs/${runId}` : undefined,
    // Outside Actions (the command line at a prompt) no GitHub server is assumed: only one set in the environment.
    serverUrl: env.GITHUB_ACTIONS === 'true' || env.GITHUB_SERVER_URL ? serverUrlOf(env) : undefined,
    workflow: env.GITHUB_WORKFLOW || undefined,
    job: env.GITHUB_JOB || undefined,
  };
}

/** The pull request of the triggering event, when there is one and the repository is known. */
export function pullRequestOf(context: RunContext): PullRequestRef | undefined {
  const [owner, repo] = (context.repository ?? '').split('/');
  const number = context.pullRequest?.number;
  return number !== undefined && owner && repo ? { repo: { owner, repo }, number } : undefined;
}
