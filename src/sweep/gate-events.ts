/**
 * The lifecycle gate's table: which events (and actions) may lead to a deletion, by which path, and what each path
 * checks first. docs/lifecycle.md shows the same table, and a test holds the two together. Pure.
 */
import type { RunContext } from '../model/run.js';

/**
 * - `pull-request`: a closed pull request; its keep label is read from the API.
 * - `comment`: a comment asked; its author's permission is read from the API, then the keep label.
 * - `targets`: nothing is read from the event; the targets are the inputs (the sweep reads each pull request).
 * - `refused`: nothing is deleted and the check fails, saying why.
 */
export type GatePath = 'pull-request' | 'comment' | 'targets' | 'refused';

/** One event the gate lets through: the actions it runs for (every one when absent) and its path. */
export interface EventRule {
  readonly actions?: readonly string[];
  readonly path: Exclude<GatePath, 'refused'>;
}

/** The events the gate lets through; any other (or another action) is refused unless named in `allow-events`. */
export const GATE_EVENTS: Readonly<Record<string, EventRule>> = {
  pull_request: { actions: ['closed'], path: 'pull-request' },
  pull_request_target: { actions: ['closed'], path: 'pull-request' },
  issue_comment: { actions: ['created'], path: 'comment' },
  pull_request_review_comment: { actions: ['created'], path: 'comment' },
  pull_request_review: { actions: ['submitted'], path: 'comment' },
  workflow_dispatch: { path: 'targets' },
  schedule: { path: 'targets' },
};

/** What each path checks before anything is deleted, in the words of the docs' table. */
export const GATE_CHECKS: Readonly<Record<GatePath, string>> = {
  'pull-request':
    'the payload (`action`, `pull_request.number`); the keep label, read from the API when `keep-label` is set and the run deletes',
  comment:
    'the payload (`action`, the comment’s id, author and pull request); a new comment by a person that starts with the command; its author’s permission, read from the API (write, maintain or admin); the keep label',
  targets: 'nothing from the event: the targets are the inputs (the sweep reads each pull request itself)',
  refused: 'nothing is deleted, no cluster is asked, and the check fails saying why',
};

/** Where a run goes: its path, or why it is refused. */
export type Route = { path: Exclude<GatePath, 'refused'> } | { refused: string };

const listed = Object.entries(GATE_EVENTS)
  .map(([name, r]) => (r.actions ? `${name} (${r.actions.join(', ')})` : name))
  .join(', ');

/**
 * The path of a run started by `context.event`; `allowed` are the events of `allow-events`, which take the
 * `targets` path. No event (the command line outside a workflow) is `targets`, unless the context still carries a
 * pull request or a comment, which no event explains.
 */
export function routeOf(context: RunContext, allowed: readonly string[]): Route {
  const event = context.event;
  if (!event)
    return context.pullRequest || context.comment
      ? { refused: 'the run carries a pull request or a comment but no event name to read it as' }
      : { path: 'targets' };
  const rule = Object.hasOwn(GATE_EVENTS, event.name) ? GATE_EVENTS[event.name] : undefined;
  if (event.problem) return { refused: event.problem };
  // A comment of another action (edited, deleted) is not a request: the comment path says so, quietly.
  if (rule && (rule.path === 'comment' || !rule.actions || rule.actions.includes(event.action ?? '')))
    return { path: rule.path };
  if (allowed.includes(event.name)) return { path: 'targets' };
  const action = event.action ? ` (${event.action})` : '';
  return {
    refused: `the event ${event.name}${action} is not one this step acts on: it acts on ${listed}, and on the events in allow-events`,
  };
}
