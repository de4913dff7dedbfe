import { KubeConfig } from '@kubernetes/client-node';
import nock from 'nock';
import { readRunContext } from '../../src/entry/context.js';
import { runEngine } from '../../src/entry/engine.js';
import { createGitHub } from '../../src/github/create.js';
import { answerComment } from '../../src/github/post-comment.js';
import { createKube } from '../../src/kube/client.js';
import type { CommentEvent, RunContext, RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import {
  API,
  github,
  issueCommentEvent,
  nockBesideLoopback,
  pull,
  SkipClock,
  TOKEN,
} from '../github/helpers.js';
import { FAST } from '../helpers/harness.js';
import { UNFENCED } from '../helpers/inputs.js';

const REPO = '/repos/acme/shop';
const COMMENT_ID = 9001;

/** A `/teardown` comment by `login` on pull request 42, as readRunContext reads it from the event. */
const comment = (login: string, more: Partial<CommentEvent> = {}): CommentEvent => ({
  kind: 'issue_comment',
  id: COMMENT_ID,
  action: 'created',
  login,
  userType: 'User',
  firstWord: '/teardown',
  issue: 42,
  onPullRequest: true,
  url: `https://ghe.example.com/acme/shop/pull/42#issuecomment-${COMMENT_ID}`,
  ...more,
});

const permission = (login: string, p: string, role = p): nock.Scope =>
  github()
    .get(`${REPO}/collaborators/${login}/permission`)
    .reply(200, { permission: p, role_name: role, user: { login } });

/** Reactions posted on the comment, in order. */
function reactions(scope: nock.Scope, into: string[], times = 1): nock.Scope {
  return scope
    .post(`${REPO}/issues/comments/${COMMENT_ID}/reactions`, (body: { content: string }) => {
      into.push(body.content);
      return true;
    })
    .times(times)
    .reply(201, { id: 1, content: 'eyes' });
}

describe('a teardown asked for in a comment, and the keep label of the pull request that started the run', () => {
  nockBesideLoopback();
  let cluster: FakeCluster;
  let kubeconfig: string;

  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-42');
    ({ kubeconfig } = await cluster.start());
  });
  afterEach(async () => cluster.stop());

  async function run(context: RunContext, inputs: Record<string, string> = {}): Promise<RunReport> {
    const all: Record<string, string> = {
      ...UNFENCED,
      namespaces: 'pr-42',
      'github-token': TOKEN,
      'keep-label': 'keep-preview',
      timeout: '20s',
      ...inputs,
    };
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const kube = createKube(kc);
    const gh = await createGitHub({ token: TOKEN, baseUrl: API, clock: new SkipClock() });
    try {
      return await runEngine(
        readSettings((n) => all[n] ?? ''),
        {
          kube,
          logger: new RecordingLogger(),
          clock: systemClock,
          github: async () => gh,
          serverUrl: 'https://ghe.example.com',
          pollMs: 500,
        },
        { repository: 'acme/shop', ...context },
      );
    } finally {
      await kube.close();
    }
  }

  const onPr = (c: CommentEvent): RunContext => ({
    event: { name: 'issue_comment', action: c.action },
    comment: c,
    pullRequest: { number: 42 },
  });
  /** A `pull_request` event with action `closed` on pull request 42. */
  const closed: RunContext = {
    event: { name: 'pull_request', action: 'closed' },
    pullRequest: { number: 42 },
  };
  const writes = (): string[] =>
    cluster.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

  test('a commenter with write access: 👀, the PR labels read, the namespace deleted, the summary names who asked', async () => {
    const posted: string[] = [];
    const scope = reactions(permission('alice', 'write'), posted)
      .get(`${REPO}/pulls/42`)
      .reply(200, pull(42, { state: 'open', labels: [{ name: 'preview' }] }));
    const report = await run(onPr(comment('alice')));
    scope.done();
    expect(posted).toEqual(['eyes']);
    expect(report.result).toBe('clean');
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-42', 'gone']]);
    expect(report.lifecycle).toEqual({
      request: { login: 'alice', permission: 'write', url: comment('alice').url },
    });
    expect(renderSummary(report)).toContain(
      'Requested by **&#64;alice** [in a comment](https://ghe.example.com/acme/shop/pull/42#issuecomment-9001) (write access).',
    );
  });

  test.each([
    {
      name: 'a read-only commenter',
      login: 'bob',
      given: ['read', 'read'],
      words: '@bob has read access to acme/shop; /teardown needs write',
    },
    {
      name: 'an outside collaborator with triage',
      login: 'carol',
      given: ['read', 'triage'],
      words: '@carol has triage access to acme/shop; /teardown needs write',
    },
  ])('$name: refused, nothing deleted, no cluster asked, no 👀', async ({ login, given, words }) => {
    const scope = permission(login, given[0]!, given[1]);
    const report = await run(onPr(comment(login)));
    scope.done();
    expect(report.result).toBe('skipped');
    expect(report.lifecycle?.skipped?.why).toBe(words);
    expect(report.lifecycle?.request).toMatchObject({ login, permission: given[1] });
    expect(cluster.requests).toEqual([]);
    expect(cluster.namespace('pr-42')).toBeDefined();
    const summary = renderSummary(report);
    expect(summary).toContain('## ⏭️ Namespace teardown skipped:');
    expect(summary).toContain(', refused.');
  });

  test('not a collaborator at all (404): none, refused', async () => {
    const scope = github().get(`${REPO}/collaborators/dave/permission`).reply(404, { message: 'Not Found' });
    const report = await run(onPr(comment('dave')));
    scope.done();
    expect(report.lifecycle?.skipped?.why).toBe('@dave has none access to acme/shop; /teardown needs write');
    expect(cluster.requests).toEqual([]);
  });

  test('GitHub answers the permission of another user: refused', async () => {
    const scope = github()
      .get(`${REPO}/collaborators/erin/permission`)
      .reply(200, { permission: 'admin', role_name: 'admin', user: { login: 'octocat' } });
    const report = await run(onPr(comment('erin')));
    scope.done();
    expect(report.lifecycle?.skipped?.why).toMatch(
      /^the permission of @erin could not be read \(GitHub answered the permission of octocat, not erin\)/,
    );
    expect(writes()).toEqual([]);
  });

  test('the permission cannot be read (403): refused, never assumed', async () => {
    const scope = github()
      .get(`${REPO}/collaborators/frank/permission`)
      .reply(403, { message: 'Resource not accessible by integration' });
    const report = await run(onPr(comment('frank')));
    scope.done();
    expect(report.result).toBe('skipped');
    expect(report.lifecycle?.skipped?.why).toMatch(/^the permission of @frank could not be read/);
    expect(report.failures).toHaveLength(1);
    expect(cluster.requests).toEqual([]);
  });

  test.each([
    {
      name: 'a bot',
      given: { login: 'renovate[bot]', userType: 'Bot' },
      why: /is by a bot \(renovate\[bot\]\)/,
    },
    { name: 'an edited comment', given: { action: 'edited' }, why: /was edited, not created/ },
    {
      name: 'a comment on an issue that is not a pull request',
      given: { onPullRequest: false },
      why: /#42 is an issue, not a pull request/,
    },
    {
      name: 'a comment that does not start with the command',
      given: { firstWord: 'please' },
      why: /does not start with \/teardown/,
    },
  ])('$name: no GitHub call, no cluster call, nothing deleted, no answer', async ({ given, why }) => {
    // nock answers nothing here: any GitHub request would fail the run, and none is made.
    const c = comment(given.login ?? 'alice', given);
    const report = await run({
      event: { name: 'issue_comment', action: c.action },
      comment: c,
      ...(c.onPullRequest ? { pullRequest: { number: 42 } } : {}),
    });
    expect(report.result).toBe('skipped');
    expect(report.lifecycle).toEqual({ skipped: { why: expect.stringMatching(why) } });
    expect(cluster.requests).toEqual([]);
    expect(nock.pendingMocks()).toEqual([]);
  });

  test('write access, but the pull request carries the keep label: 👀, then kept', async () => {
    const posted: string[] = [];
    const scope = reactions(permission('alice', 'admin'), posted)
      .get(`${REPO}/pulls/42`)
      .reply(200, pull(42, { state: 'open', labels: [{ name: 'keep-preview' }] }));
    const report = await run(onPr(comment('alice')));
    scope.done();
    expect(report.lifecycle?.skipped).toEqual({
      why: 'kept by label keep-preview on #42',
      keptBy: { label: 'keep-preview', pr: 42 },
    });
    expect(cluster.requests).toEqual([]);
    expect(renderSummary(report)).toContain(
      '## ⏭️ Namespace teardown skipped: kept by label <code>keep-preview</code> on #42',
    );
  });

  test('pull_request closed with the keep label (the API is asked, not the event): kept', async () => {
    const scope = github()
      .get(`${REPO}/pulls/42`)
      .reply(
        200,
        pull(42, { state: 'closed', closed_at: '2026-11-22T12:00:00Z', labels: [{ name: 'Keep-Preview' }] }),
      );
    const report = await run(closed);
    scope.done();
    expect(report.result).toBe('skipped');
    expect(report.lifecycle?.skipped?.keptBy).toEqual({ label: 'keep-preview', pr: 42 });
    expect(cluster.requests).toEqual([]);
    expect(report.failures).toEqual([]);
  });

  test('pull_request closed, the pull request cannot be read: its preview is kept', async () => {
    const scope = github().get(`${REPO}/pulls/42`).times(4).reply(502, 'upstream error');
    const report = await run(closed);
    scope.done();
    expect(report.result).toBe('skipped');
    expect(report.lifecycle?.skipped?.why).toMatch(
      /^PR #42 could not be read \(.*502.*\): its preview is kept$/,
    );
    expect(cluster.namespace('pr-42')).toBeDefined();
    // Loud: a preview nobody can tear down fails the check instead of passing unseen.
    expect(report.failures).toEqual([report.lifecycle!.skipped!.why]);
    expect(renderSummary(report)).toContain('## ❌ Namespace teardown skipped: PR &#35;42 could not be read');
  });

  test('pull_request closed without the keep label: torn down', async () => {
    const scope = github()
      .get(`${REPO}/pulls/42`)
      .reply(200, pull(42, { state: 'closed', closed_at: '2026-11-22T12:00:00Z', labels: [] }));
    const report = await run(closed);
    scope.done();
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-42', 'gone']]);
    expect(report.lifecycle).toBeUndefined();
  });

  test('keep-label empty: the pull request is not asked about', async () => {
    const report = await run(closed, { 'keep-label': '' });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-42', 'gone']]);
  });
});

describe('the comment event read from the runner', () => {
  test('an issue_comment payload: the comment, its pull request; the author association is not read', () => {
    const path = issueCommentEvent({
      id: 7,
      body: '  /teardown please\nnow',
      html_url: 'https://github.com/acme/shop/pull/42#issuecomment-7',
      user: { login: 'mallory', type: 'User' },
    });
    const context = readRunContext({
      GITHUB_EVENT_NAME: 'issue_comment',
      GITHUB_EVENT_PATH: path,
      GITHUB_REPOSITORY: 'acme/shop',
    });
    expect(context.event).toEqual({ name: 'issue_comment', action: 'created' });
    expect(context.comment).toEqual({
      kind: 'issue_comment',
      id: 7,
      action: 'created',
      login: 'mallory',
      userType: 'User',
      firstWord: '/teardown',
      issue: 42,
      onPullRequest: true,
      url: 'https://github.com/acme/shop/pull/42#issuecomment-7',
    });
    expect(context.pullRequest).toEqual({
      number: 42,
      title: 'Add cart',
      url: 'https://github.com/acme/shop/pull/42',
    });
    expect(
      readRunContext({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path }).comment,
    ).toBeUndefined();
  });
});

describe('the answer on the comment', () => {
  nockBesideLoopback();

  test.each([
    { name: 'done and the check passes: 👍, then the one comment', ok: true, content: '+1' },
    { name: 'refused, kept or failed: 👎, then the one comment', ok: false, content: '-1' },
  ])('$name', async ({ ok, content }) => {
    const posted: string[] = [];
    let body = '';
    const scope = reactions(github(), posted)
      .get('/user')
      .reply(403, { message: 'Resource not accessible by integration' })
      .get(`${REPO}/issues/42/comments`)
      .query(true)
      .reply(200, [])
      .post(`${REPO}/issues/42/comments`, (b: { body: string }) => ((body = b.body), true))
      .reply(201, { id: 5, user: { login: 'github-actions[bot]' } });
    nock('https://ghe.example.com')
      .post('/api/graphql')
      .reply(200, { data: { viewer: { login: 'github-actions[bot]' } } });
    const gh = await createGitHub({ token: TOKEN, baseUrl: API, clock: new SkipClock() });
    const logger = new RecordingLogger();
    await answerComment(
      'the summary',
      { repo: { owner: 'acme', repo: 'shop' }, number: 42 },
      { id: COMMENT_ID, kind: 'issue_comment', ok },
      async () => gh,
      logger,
      new SkipClock(),
    );
    scope.done();
    expect(posted).toEqual([content]);
    expect(body).toMatch(/the summary$/);
  });
});
