/** The workflow context from the runner's environment and event file, without loading @actions/github. */
import { readFileSync } from 'node:fs';
import type { PullRequestRef } from '../github/post-comment.js';
import type { RunContext } from '../model/run.js';

interface EventPayload {
  pull_request?: { number?: number; title?: string; html_url?: string };
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
  const pr = readEvent(env.GITHUB_EVENT_PATH).pull_request;
  const runId = Number.parseInt(env.GITHUB_RUN_ID ?? '', 10);
  return {
    repository,
    ref: env.GITHUB_REF || undefined,
    sha: env.GITHUB_SHA || undefined,
    pullRequest:
      pr && typeof pr.number === 'number'
        ? { number: pr.number, title: pr.title, url: pr.html_url }
        : undefined,
    runUrl: runId && repository ? `${serverUrlOf(env)}/${repository}/actions/runs/${runId}` : undefined,
    serverUrl: serverUrlOf(env),
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
