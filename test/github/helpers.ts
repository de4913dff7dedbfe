/** Test wiring for the GitHub client: a clock whose sleeps pass at once, and the real Octokit over nock. */
import nock from 'nock';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';
import type { GitHubLimits } from '../../src/github/client-state.js';
import { createGitHub } from '../../src/github/create.js';
import type { GitHubApi } from '../../src/github/port.js';
import { RecordingLogger, type Clock } from '../../src/shared/ports.js';

/** GitHub Enterprise Server's API address, as GITHUB_API_URL gives it on such a runner. */
export const API = 'https://ghe.example.com/api/v3';
export const TOKEN = 'ghs_not-a-real-token-0123456789';

/** Sleeps return at once and move the time on, and are recorded. */
export class SkipClock implements Clock {
  current = Date.parse('2026-11-22T12:00:00Z');
  readonly slept: number[] = [];
  now(): number {
    return this.current;
  }
  async sleep(ms: number): Promise<void> {
    this.slept.push(ms);
    this.current += ms;
  }
}

/** A real client (Octokit from @actions/github) against nock, with a skipping clock. */
export async function client(
  limits?: GitHubLimits,
): Promise<{ api: GitHubApi; clock: SkipClock; logger: RecordingLogger }> {
  const clock = new SkipClock();
  const logger = new RecordingLogger();
  const api = await createGitHub({ token: TOKEN, baseUrl: API, clock, logger, limits });
  return { api, clock, logger };
}

/** Where GitHub Enterprise Server's GraphQL API is, next to API. */
export const GRAPHQL_HOST = 'https://ghe.example.com';
export const GRAPHQL_PATH = '/api/graphql';

/** nock scope for the GraphQL endpoint, answering only requests that carry the token. */
export function graphqlApi(): nock.Scope {
  return nock(GRAPHQL_HOST, { reqheaders: { authorization: `token ${TOKEN}` } });
}

/** The pull request numbers a GraphQL query asks for, in the order of its aliases. */
export function askedNumbers(body: unknown): number[] {
  const query = String((body as { query?: unknown }).query ?? '');
  return [...query.matchAll(/pullRequest\(number: (\d+)\)/g)].map((m) => Number(m[1]));
}

/** A nock reply body computed from the request's JSON body (nock 15 hands the reply function the Request). */
export function fromBody(answer: (body: unknown) => object): (req: Request) => Promise<object> {
  return async (req) => answer(await req.json());
}

/** nock scope for the API, answering only requests that carry the token. */
export function github(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `token ${TOKEN}` } });
}

/** A REST pull request answer for number `n`: its number and URL, and `fields`. */
export function pull(n: number, fields: Record<string, unknown>): Record<string, unknown> {
  return { number: n, html_url: `https://ghe.example.com/acme/shop/pull/${n}`, ...fields };
}

/** `x-ratelimit-reset` that many seconds after the clock's now. */
export function resetAfter(clock: SkipClock, seconds: number): string {
  return String(Math.floor(clock.now() / 1000) + seconds);
}

/** nock for GitHub beside a fake API server on loopback: every other host is refused. */
export function nockBesideLoopback(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  afterEach(() => nock.cleanAll());
}

export function beforeEachNock(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
  });
  afterEach(() => nock.cleanAll());
}

/**
 * The event file of an `issue_comment` on pull request 42 of acme/shop, written in a new temp folder: `comment` is
 * the comment as GitHub sends it (id, body, user…); its author association says OWNER, which nothing may trust.
 */
export function issueCommentEvent(comment: Record<string, unknown>, action = 'created'): string {
  const path = join(tempDir('nt-comment-'), 'event.json');
  const issue = {
    number: 42,
    title: 'Add cart',
    pull_request: { html_url: 'https://github.com/acme/shop/pull/42' },
  };
  writeFileSync(
    path,
    JSON.stringify({ action, issue, comment: { author_association: 'OWNER', ...comment } }),
  );
  return path;
}
