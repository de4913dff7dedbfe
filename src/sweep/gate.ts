/**
 * Whether a run may delete, by its event (gate-events.ts): a closed pull request's keep label, a comment author's
 * write access, both read from GitHub in this run; an event it does not list, or cannot read, deletes nothing.
 */
import type { GitHubApi } from '../github/port.js';
import { canWrite, permissionOf } from '../github/permission.js';
import { getPullState } from '../github/get-pull.js';
import { react } from '../github/reactions.js';
import type { LifecycleReport } from '../model/lifecycle.js';
import type { RepoRef } from '../model/pulls.js';
import type { CommentEvent, RunContext } from '../model/run.js';
import type { Settings } from '../settings/settings.js';
import { messageOf } from '../shared/errors.js';
import type { Logger } from '../shared/ports.js';
import { hasLabel } from './decide.js';
import { GATE_EVENTS, routeOf } from './gate-events.js';

/** What the gate asks GitHub through. */
export interface GateDeps {
  github: () => Promise<GitHubApi>;
  logger: Logger;
}

/** Nothing deleted, and why; `unread` when GitHub could not be read (the check then fails). */
const skip = (why: string, rest: Partial<LifecycleReport> = {}, unread = false): LifecycleReport => ({
  skipped: { why, ...(unread ? { unread } : {}) },
  ...rest,
});

function repoOf(context: RunContext): RepoRef | undefined {
  const [owner, repo] = (context.repository ?? '').split('/');
  return owner && repo ? { owner, repo } : undefined;
}

/** Why a comment does not ask for a teardown at all (no answer is written); undefined when it does. Pure. */
export function notARequest(comment: CommentEvent, command: string): string | undefined {
  const asks = GATE_EVENTS[comment.kind]?.actions ?? ['created'];
  if (!asks.includes(comment.action))
    return `the comment was ${comment.action || 'changed'}, not ${asks.join(' or ')}: only a new comment asks for a teardown`;
  if (!comment.onPullRequest) return `#${comment.issue} is an issue, not a pull request`;
  if (comment.firstWord !== command) return `the comment does not start with ${command}`;
  if (comment.userType === 'Bot' || /\[bot\]$/i.test(comment.login))
    return `the comment is by a bot (${comment.login}); only people ask for a teardown`;
  return undefined;
}

/** The keep label on the pull request, read from the API (an event's labels may be stale). */
async function keepCheck(
  api: GitHubApi,
  repo: RepoRef,
  pr: number,
  keepLabel: string,
): Promise<LifecycleReport['skipped']> {
  const pull = await getPullState(api, repo, pr);
  if (pull.state === 'unknown')
    return { why: `PR #${pr} could not be read (${pull.error}): its preview is kept`, unread: true };
  if (pull.state === 'missing') return { why: `PR #${pr} was not found: its preview is kept`, unread: true };
  if (pull.labels === undefined)
    return { why: `the labels of PR #${pr} could not be read: its preview is kept`, unread: true };
  if (hasLabel(pull.labels, keepLabel))
    return { why: `kept by label ${keepLabel} on #${pr}`, keptBy: { label: keepLabel, pr } };
  return undefined;
}

/** The commenter's permission, and 👀 on the comment once it allows the teardown. */
async function commentCheck(
  api: GitHubApi,
  repo: RepoRef,
  comment: CommentEvent,
  settings: Settings,
  logger: Logger,
): Promise<LifecycleReport> {
  const found = await permissionOf(api, repo, comment.login);
  const request = { login: comment.login, url: comment.url, ...('permission' in found ? found : {}) };
  const command = settings.lifecycle.command;
  if ('error' in found)
    return skip(
      `the permission of @${comment.login} could not be read (${found.error}); ${command} needs write`,
      { request },
      true,
    );
  if (!canWrite(found))
    return skip(
      `@${comment.login} has ${found.permission} access to ${repo.owner}/${repo.repo}; ${command} needs write`,
      {
        request,
      },
    );
  try {
    await react(api, repo, comment, 'eyes');
  } catch (error) {
    logger.warning(`${command}: could not react on the comment: ${messageOf(error)}`);
  }
  return { request };
}

/** The comment's own checks (no GitHub call) and where its pull request is; a skip when it does not ask. */
function commentAsks(
  context: RunContext,
  command: string,
): { comment: CommentEvent; pr: number } | LifecycleReport {
  const comment = context.comment;
  // The payload reader gives a comment for every comment event it could read: without one, nothing is known.
  if (!comment) return skip('the comment event carries no comment that could be read', {}, true);
  const why = notARequest(comment, command);
  return why ? skip(why) : { comment, pr: comment.issue };
}

/**
 * The gate before any cluster call, by the run's event (`routeOf`): undefined when nothing is to be checked (the
 * targets as given, no keep label, or a run that deletes nothing); `skipped` when nothing may be deleted, and why;
 * `request` when a comment asked.
 */
export async function gateRun(
  settings: Settings,
  deps: GateDeps,
  context: RunContext,
): Promise<LifecycleReport | undefined> {
  const route = routeOf(context, settings.lifecycle.allowEvents);
  if ('refused' in route) return skip(route.refused, {}, true);
  if (route.path === 'targets') return undefined;
  const keepLabel = settings.lifecycle.keepLabel;
  const deletes = settings.delete && !settings.sweep;
  const asks = route.path === 'comment' ? commentAsks(context, settings.lifecycle.command) : undefined;
  if (asks && !('comment' in asks)) return asks;
  if (!asks && (keepLabel === undefined || !deletes)) return undefined;
  const pr = asks?.pr ?? context.pullRequest?.number;
  const repo = repoOf(context);
  if (pr === undefined) return skip('the event carries no pull request that could be read', {}, true);
  if (!repo || settings.githubToken === undefined)
    return skip(
      'the repository or the GitHub token is unknown, so the pull request could not be read',
      {},
      true,
    );
  const api = await deps.github();
  const asked = asks ? await commentCheck(api, repo, asks.comment, settings, deps.logger) : {};
  if (asked.skipped) return asked;
  const kept = deletes && keepLabel !== undefined ? await keepCheck(api, repo, pr, keepLabel) : undefined;
  if (kept) return { ...asked, skipped: kept };
  return asks ? asked : undefined;
}
