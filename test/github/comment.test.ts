import { COMMENT_MARKER, upsertComment } from '../../src/github/comment.js';
import { commentOnPullRequest } from '../../src/github/post-comment.js';
import type { RunReport } from '../../src/outcome.js';
import { RecordingLogger } from '../../src/ports.js';
import { API, beforeEachNock, client, github } from './helpers.js';

const REPO = { owner: 'acme', repo: 'shop' };
const COMMENTS = '/repos/acme/shop/issues/42/comments';

function page(from: number, count: number, ours?: number): { id: number; body: string }[] {
  return Array.from({ length: count }, (_, i) => ({
    id: from + i,
    body:
      from + i === ours
        ? `${COMMENT_MARKER}\nold text`
        : `a comment ${from + i} mentioning namespace-teardown`,
  }));
}

const link = (next: number, last: number): Record<string, string> => ({
  link: `<${API}${COMMENTS}?per_page=100&page=${next}>; rel="next", <${API}${COMMENTS}?per_page=100&page=${last}>; rel="last"`,
});

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
    const got = await upsertComment(api, REPO, 42, '### Namespace teardown: 1 stuck', new RecordingLogger());
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
    const got = await upsertComment(api, REPO, 42, 'new text', new RecordingLogger());
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
    expect(await upsertComment(api, REPO, 42, 'x', new RecordingLogger())).toMatchObject({
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
    const got = await upsertComment(api, REPO, 42, 'x', logger);
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
    expect(await upsertComment(api, REPO, 42, 'x', new RecordingLogger())).toMatchObject({
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
    await commentOnPullRequest(REPORT, REPORT.context, async () => api, logger);
    // The summary's own headline and fix-first block.
    expect(posted).toContain('## ❌ Namespace teardown: 1 stuck of 1 namespace');
    expect(posted).toContain('**The check fails:**');
    expect(posted).toMatch(
      /### Fix first\n\n\*\*1\.\*\* \*\*pr-42\*\*\n\n🔴 kialis kiali holds kiali.io\/finalizer\n\n```sh\nkubectl patch/,
    );
    expect(posted).toContain('(https://ghe.example.com/acme/shop/actions/runs/7)');
    expect(logger.lines).toEqual(['pr-comment: created comment 1']);
  });

  test('not a pull-request event: nothing is asked of GitHub', async () => {
    const logger = new RecordingLogger();
    let built = false;
    await commentOnPullRequest(
      REPORT,
      { repository: 'acme/shop' },
      async () => ((built = true), {} as never),
      logger,
    );
    expect(built).toBe(false);
    expect(logger.lines[0]).toMatch(/not triggered by a pull request/);
  });

  test('a GitHub failure other than 403/404 is a warning too', async () => {
    const { api } = await client({ maxRetries: 0 });
    github().get(COMMENTS).query(true).reply(500, { message: 'boom' });
    const logger = new RecordingLogger();
    await commentOnPullRequest(REPORT, REPORT.context, async () => api, logger);
    expect(logger.lines).toEqual([
      expect.stringMatching(/^warning: pr-comment: not written: GitHub answered 500/),
    ]);
  });
});
