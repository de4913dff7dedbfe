/** The workflow context from the runner's environment and event file, without loading @actions/github. */
import { readFileSync } from 'node:fs';
import type { PullRequestRef } from '../github/post-comment.js';
import type { RunContext } from '../model/run.js';
import { messageOf } from '../shared/errors.js';
import { READ_EVENTS, readPayload } from './event-payload.js';

/** The parsed event file, or why it could not be read (in words). */
function readEvent(path: string | undefined): unknown {
  if (!path) return 'GITHUB_EVENT_PATH is not set';
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return `the event file cannot be read (${messageOf(error)})`;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    return `the event file is not JSON (${messageOf(error)})`;
  }
}

/** The event, its pull request and comment; nothing of a payload without an event name to read it as. */
function eventOf(env: NodeJS.ProcessEnv): Pick<RunContext, 'event' | 'pullRequest' | 'comment'> {
  const name = env.GITHUB_EVENT_NAME;
  if (!name) return {};
  const read = readPayload(name, READ_EVENTS.includes(name) ? readEvent(env.GITHUB_EVENT_PATH) : undefined);
  return {
    event: read.event,
    ...(read.pullRequest ? { pullRequest: read.pullRequest } : {}),
    ...(read.comment ? { comment: read.comment } : {}),
  };
}

/** `https://github.com`, or the GitHub Enterprise Server address on such a runner. */
export function serverUrlOf(env: NodeJS.ProcessEnv): string {
  return (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
}

/** What the run is about: repository, ref, commit, pull request and the run's link, as the runner sets them. */
export function readRunContext(env: NodeJS.ProcessEnv): RunContext {
  const repository = /^[^/]+\/[^/]+$/.test(env.GITHUB_REPOSITORY ?? '') ? env.GITHUB_REPOSITORY : undefined;
  const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10);
  return {
    repository,
    ref: env.GITHUB_REF || undefined,
    sha: env.GITHUB_SHA || undefined,
    ...eventOf(env),
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
