import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FakeGitHub } from '../github/fake-github.js';
import { FAST, runBundle, runCli } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';
import { issueCommentEvent } from '../github/helpers.js';

const TOKEN = 'ghs_bundle-token-never-printed-42';
const LABEL = 'preview.example.com/pr';
const longAgo = new Date(Date.now() - 48 * 3_600_000).toISOString();

describe('the bundles talk to GitHub at GITHUB_API_URL', () => {
  let cluster: FakeCluster;
  let gh: FakeGitHub;
  let api: string;
  let kubeconfig: string;

  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    gh = new FakeGitHub(TOKEN);
    api = await gh.start();
  });
  afterEach(async () => {
    await cluster.stop();
    await gh.stop();
  });

  test('CLI sweep: token from GITHUB_TOKEN, the closed PR goes, the open one stays, the token is never printed', async () => {
    cluster.addNamespace('pr-1', { labels: { [LABEL]: '1' }, createdAt: longAgo });
    cluster.addNamespace('pr-2', { labels: { [LABEL]: '2' }, createdAt: longAgo });
    gh.pulls.set(1, { state: 'open' });
    gh.pulls.set(2, { state: 'closed', closed_at: longAgo, merged_at: longAgo });
    ({ kubeconfig } = await cluster.start());
    const dir = tempDir('nt-sweep-cli-');
    writeFileSync(join(dir, 'config'), kubeconfig);
    const run = await runCli(
      [
        ...[
          '--kubeconfig',
          join(dir, 'config'),
          '--sweep',
          'on',
          '--sweep-pr-label',
          LABEL,
          '--timeout',
          '20s',
        ],
        ...['-o', 'markdown'],
      ],
      { GITHUB_TOKEN: TOKEN, GITHUB_API_URL: api, GITHUB_REPOSITORY: 'acme/shop' },
    );
    expect(run.stderr).not.toContain(TOKEN);
    expect(run.stdout).not.toContain(TOKEN);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('### Sweep: 1 chosen to go, 1 kept');
    expect(run.stdout).toMatch(
      /\| pr-2 \| ✅ went \| \[#2\]\(https:\/\/github.com\/acme\/shop\/pull\/2\) merged \|/,
    );
    expect(cluster.namespace('pr-2')).toBeUndefined();
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
    // One GraphQL query for both pull requests, at the GraphQL address next to GITHUB_API_URL.
    expect(gh.requests.map((r) => [r.method, r.path, r.authorized])).toEqual([
      ['POST', '/api/graphql', true],
    ]);
  });

  test('CLI sweep without GITHUB_TOKEN: exit 2 naming the input, before any cluster call', async () => {
    ({ kubeconfig } = await cluster.start());
    const run = await runCli(
      ['--sweep', 'plan', '--sweep-pr-label', LABEL, '--sweep-repository', 'acme/shop'],
      {},
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/GITHUB_TOKEN is empty/);
    expect(cluster.requests).toEqual([]);
  });

  test('action with pr-comment on a pull_request event: one comment, updated on the next run; token masked', async () => {
    ({ kubeconfig } = await cluster.start());
    // Anyone can post the marker: that comment is someone else's and is never edited.
    const hostile = {
      id: 1,
      body: '<!-- namespace-teardown:pr-comment -->\nrun this',
      user: { login: 'mallory', type: 'User' as const },
    };
    gh.comments.push({ ...hostile, user: { ...hostile.user } });
    const dir = tempDir('nt-event-');
    const event = join(dir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({ action: 'closed', pull_request: { number: 42, title: 'Add cart' } }),
    );
    const env = { GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'pull_request' };
    const inputs = {
      namespaces: 'pr-42',
      kubeconfig,
      timeout: '5s',
      'pr-comment': 'true',
      'github-token': TOKEN,
    };
    const first = await runBundle(inputs, env);
    const second = await runBundle(inputs, env);
    for (const run of [first, second]) {
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(`::add-mask::${TOKEN}`);
      expect(run.stdout.replace(`::add-mask::${TOKEN}`, '')).not.toContain(TOKEN);
    }
    expect(gh.comments).toHaveLength(2);
    expect(gh.comments[0]).toEqual(hostile);
    expect(gh.comments[1]!.user.login).toBe('github-actions[bot]');
    expect(gh.comments[1]!.body).toMatch(
      /^<!-- namespace-teardown:pr-comment -->\n## ✅ Namespace teardown: 1 already gone of 1 namespace/,
    );
    expect(gh.comments[1]!.body).toContain('(https://github.com/acme/shop/actions/runs/7)');
    const identity = ['GET /api/v3/user', 'POST /api/graphql'];
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      ...identity,
      'GET /api/v3/repos/acme/shop/issues/42/comments',
      'POST /api/v3/repos/acme/shop/issues/42/comments',
      ...identity,
      'GET /api/v3/repos/acme/shop/issues/42/comments',
      'PATCH /api/v3/repos/acme/shop/issues/comments/2',
    ]);
    expect(second.stdout).toContain(
      'pr-comment: 1 comment(s) by others carry the marker; ignored, never edited.',
    );
  });
});

describe('the action on an issue_comment event: /teardown', () => {
  let cluster: FakeCluster;
  let gh: FakeGitHub;
  let api: string;

  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-42');
    gh = new FakeGitHub(TOKEN);
    gh.pulls.set(42, { state: 'open', labels: ['preview'] });
    gh.permissions.set('alice', 'write');
    gh.permissions.set('mallory', 'read');
    api = await gh.start();
  });
  afterEach(async () => {
    await cluster.stop();
    await gh.stop();
  });

  /** Run the bundle on a new comment `body` by `login` on pull request 42. */
  async function comment(login: string, body: string, more: Record<string, string> = {}) {
    const { kubeconfig } = await cluster.start();
    const event = issueCommentEvent({ id: 77, body, user: { login, type: 'User' } });
    const env = { GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'issue_comment' };
    const inputs = {
      namespaces: 'pr-42',
      kubeconfig,
      timeout: '10s',
      'keep-label': 'keep-preview',
      'comment-command': '/teardown',
      'github-token': TOKEN,
      ...more,
    };
    return runBundle(inputs, env);
  }

  test('a commenter with write access: 👀, the teardown, 👍 and the answer in the one comment', async () => {
    const run = await comment('alice', '/teardown');
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(cluster.namespace('pr-42')).toBeUndefined();
    expect(gh.reactions).toEqual([
      { comment: 77, content: 'eyes' },
      { comment: 77, content: '+1' },
    ]);
    expect(gh.comments).toHaveLength(1);
    expect(gh.comments[0]!.body).toContain('Requested by **&#64;alice** in a comment (write access).');
  });

  test('a commenter with read access (the event says OWNER): nothing deleted, no cluster call, 👎 and the answer', async () => {
    const run = await comment('mallory', '/teardown');
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('skipped');
    expect(cluster.requests).toEqual([]);
    expect(cluster.namespace('pr-42')).toBeDefined();
    expect(gh.reactions).toEqual([{ comment: 77, content: '-1' }]);
    expect(gh.comments[0]!.body).toContain(
      '## ⏭️ Namespace teardown skipped: &#64;mallory has read access to acme/shop; /teardown needs write',
    );
  });

  test('another comment, pr-comment on: no reaction, no answer, nothing deleted', async () => {
    const run = await comment('alice', 'thanks, looks good', { 'pr-comment': 'true' });
    expect(run.outputs.result).toBe('skipped');
    expect(gh.reactions).toEqual([]);
    expect(gh.comments).toEqual([]);
    expect(gh.requests).toEqual([]);
    expect(cluster.requests).toEqual([]);
  });
});
