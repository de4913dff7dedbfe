/**
 * An event's payload → what the run needs of it (the action, the pull request, the comment), read field by field with
 * its type checked: a field missing or of another type is named, never read as "none". Pure.
 */
import {
  COMMENT_EVENTS,
  type CommentEvent,
  type CommentKind,
  type RunContext,
  type RunEvent,
} from '../model/run.js';

/** What the payload gave, or why it cannot be read as its event. */
export interface PayloadRead {
  event: RunEvent;
  pullRequest?: RunContext['pullRequest'];
  comment?: CommentEvent;
}

type Json = Record<string, unknown>;
type Want = 'number' | 'text' | 'object';

/** A field that is missing or of the wrong type, in words. */
class PayloadProblem extends Error {}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'an array';
  if (v === null) return 'null';
  if (typeof v === 'object') return 'an object';
  return JSON.stringify(v).slice(0, 40);
}

const WORDS: Record<Want, string> = { number: 'a number', text: 'text', object: 'an object' };
const fits: Record<Want, (v: unknown) => boolean> = {
  // Ids and numbers are positive whole numbers: `"12"`, 12.5 or 0 are no id.
  number: (v) => Number.isSafeInteger(v) && (v as number) > 0,
  text: (v) => typeof v === 'string',
  object: isObject,
};

/** The field at `path` (dotted), of type `want`; throws naming the field and what it is instead. */
function need(root: Json, path: string, want: 'number'): number;
function need(root: Json, path: string, want: 'text'): string;
function need(root: Json, path: string, want: 'object'): Json;
function need(root: Json, path: string, want: Want): unknown {
  let v: unknown = root;
  for (const key of path.split('.')) v = isObject(v) ? v[key] : undefined;
  if (v === undefined) throw new PayloadProblem(`"${path}" is missing`);
  if (!fits[want](v)) throw new PayloadProblem(`"${path}" is ${describe(v)}, not ${WORDS[want]}`);
  return v;
}

function pullRequestOf(p: Json): NonNullable<PayloadRead['pullRequest']> {
  const number = need(p, 'pull_request.number', 'number');
  const pr = p.pull_request as Json;
  return { number, title: text(pr.title), url: text(pr.html_url) };
}

/** The comment of a comment event: a review keeps it in `review` (whose body may be null), the others in `comment`. */
function commentOf(p: Json, kind: CommentKind, action: string): CommentEvent {
  const at = kind === 'pull_request_review' ? 'review' : 'comment';
  const body =
    kind === 'pull_request_review' && isObject(p.review) && p.review.body === null ? '' : undefined;
  const onIssue = kind === 'issue_comment';
  const c = need(p, at, 'object');
  return {
    kind,
    id: need(p, `${at}.id`, 'number'),
    action,
    login: need(p, `${at}.user.login`, 'text'),
    userType: text((c.user as Json).type) ?? '',
    firstWord: (body ?? need(p, `${at}.body`, 'text')).trimStart().split(/\s/, 1)[0]!.slice(0, 50),
    issue: onIssue ? need(p, 'issue.number', 'number') : need(p, 'pull_request.number', 'number'),
    onPullRequest: onIssue ? isObject((p.issue as Json).pull_request) : true,
    url: text(c.html_url),
  };
}

/** The pull request an `issue_comment` was written on, when it is one. */
function issuePull(p: Json, comment: CommentEvent): PayloadRead['pullRequest'] {
  if (!comment.onPullRequest) return undefined;
  const issue = p.issue as Json;
  return {
    number: comment.issue,
    title: text(issue.title),
    url: text((issue.pull_request as Json).html_url),
  };
}

function readAs(name: string, p: Json, action: string): Omit<PayloadRead, 'event'> {
  if (!(COMMENT_EVENTS as readonly string[]).includes(name)) return { pullRequest: pullRequestOf(p) };
  const kind = name as CommentKind;
  const comment = commentOf(p, kind, action);
  return { comment, pullRequest: kind === 'issue_comment' ? issuePull(p, comment) : pullRequestOf(p) };
}

/** The events whose payload the run reads (a pull request's, a comment's); of any other it reads nothing. */
export const READ_EVENTS: readonly string[] = ['pull_request', 'pull_request_target', ...COMMENT_EVENTS];

/**
 * Read the payload of event `name` (`payload` is the parsed event file, or why it could not be read). An event
 * whose payload the run does not read gives its name only.
 */
export function readPayload(name: string, payload: unknown): PayloadRead {
  if (!READ_EVENTS.includes(name)) return { event: { name } };
  const cannot = (why: string): PayloadRead => ({
    event: { name, problem: `the ${name} event's payload cannot be read: ${why}` },
  });
  if (typeof payload === 'string') return cannot(payload);
  if (!isObject(payload)) return cannot('it is not a JSON object');
  try {
    const action = need(payload, 'action', 'text');
    return { event: { name, action }, ...readAs(name, payload, action) };
  } catch (error) {
    if (error instanceof PayloadProblem) return cannot(error.message);
    throw error;
  }
}
