/** GitHub inside the run's bounds: a GitHub that hangs, throttles, pages without end or answers without end. */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FakeGitHub, type Misbehaviour } from '../github/fake-github.js';
import { FAST, runBundle, type BundleRun } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'ghs_hostile-github-token-0123456789';
const LABEL = 'preview.example.com/pr';
const longAgo = new Date(Date.now() - 48 * 3_600_000).toISOString();
/** `timeout: 15s` may run 15 s + 5 s of grace; the rest is start-up and publishing on a shared machine. */
const RUN_BOUND_MS = 25_000;
/** The PR comment comes after publishing and has 20 s of its own. */
const COMMENT_BOUND_MS = 45_000;

jest.setTimeout(120_000);

describe('GitHub inside the deadline (node dist/index.js, timeout: 15s)', () => {
  let cluster: FakeCluster;
  let gh: FakeGitHub;
  let env: Record<string, string>;
  let kubeconfig: string;

  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    gh = new FakeGitHub(TOKEN);
    const api = await gh.start();
    ({ kubeconfig } = await cluster.start());
    const dir = tempDir('nt-hostile-gh-');
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ action: 'closed', pull_request: { number: 42 } }));
    env = { GITHUB_API_URL: api, GITHUB_EVENT_PATH: event, GITHUB_EVENT_NAME: 'pull_request' };
  });
  afterEach(async () => {
    await cluster.stop();
    await gh.stop();
  });

  /** A sweep of pr-1 (PR 1, closed two days ago) with GitHub misbehaving on every request. */
  async function sweep(how: Misbehaviour): Promise<BundleRun> {
    cluster.addNamespace('pr-1', { labels: { [LABEL]: '1' }, createdAt: longAgo });
    gh.pulls.set(1, { state: 'closed', closed_at: longAgo, merged_at: null });
    gh.misbehave.push({ match: /./, how });
    const inputs = {
      sweep: 'on',
      'sweep-pr-label': LABEL,
      'sweep-repository': 'acme/shop',
      'github-token': TOKEN,
      kubeconfig,
      timeout: '15s',
    };
    return runBundle(inputs, env, { timeoutMs: 100_000 });
  }

  test.each([
    { api: 'GraphQL', graphql: true },
    { api: 'REST', graphql: false },
  ])("$api answers each PR as the next one: nothing decided on another PR's state", async ({ graphql }) => {
    // PR 2 is open, PRs 1 and 3 closed: read one number off, PR 3's state would delete the open PR's namespace.
    cluster.addNamespace('pr-2', { labels: { [LABEL]: '2' }, createdAt: longAgo });
    gh.pulls.set(2, { state: 'open' });
    gh.pulls.set(3, { state: 'closed', closed_at: longAgo, merged_at: null });
    gh.graphql = graphql;
    const run = await sweep('swapped');
    expect(run.report?.sweep?.entries.map((e) => [e.namespace, e.decision])).toEqual([
      ['pr-1', 'keep'],
      ['pr-2', 'keep'],
    ]);
    expect(run.report?.sweep?.entries[1]?.reason).toBe(
      'PR #2 state unknown (GitHub answered with #3 when asked for #2)',
    );
    expect(cluster.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
  });

  /** The PR comment after a run that removed nothing (already gone), with GitHub misbehaving on `match`. */
  async function comment(how: Misbehaviour, match: RegExp): Promise<BundleRun> {
    gh.misbehave.push({ match, how });
    const inputs = {
      namespaces: 'pr-42',
      kubeconfig,
      timeout: '15s',
      'pr-comment': 'true',
      'github-token': TOKEN,
    };
    return runBundle(inputs, env, { timeoutMs: 100_000 });
  }

  const comments = /^GET \/api\/v3\/repos\/acme\/shop\/issues\/42\/comments/;

  test('GitHub never answers the sweep: the PR is unknown, kept, and the run ends by its deadline', async () => {
    const run = await sweep('hang');
    expect(run.ms).toBeLessThan(RUN_BOUND_MS);
    expect(run.report?.sweep?.entries.map((e) => [e.namespace, e.decision])).toEqual([['pr-1', 'keep']]);
    expect(run.report?.sweep?.entries[0]?.reason).toMatch(/PR #1 state unknown \(.*deadline/);
    expect(run.summary).toMatch(
      /\| pr-1 \| kept \|.*PR &#35;1 state unknown .*no answer from GitHub before the deadline/,
    );
    expect(run.stdout).toMatch(/::warning::1 pull request\(s\) unknown, their namespaces kept; PR #1: /);
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
  });

  test('GraphQL RATE_LIMITED with no reset time: no minute-long wait past the deadline; the PR is kept', async () => {
    const run = await sweep('rate-limited');
    expect(run.ms).toBeLessThan(RUN_BOUND_MS);
    expect(gh.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/graphql']);
    expect(run.report?.sweep?.entries[0]).toMatchObject({ namespace: 'pr-1', decision: 'keep' });
    expect(run.report?.sweep?.entries[0]?.reason).toMatch(
      /asked to wait 60 s with \d+ s left before the deadline/,
    );
    expect(run.stdout).toMatch(/GitHub's rate limit: .*PR #1 state unknown|PR #1 state unknown.*rate limit/);
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
  });

  test('the PR comment step hangs: a warning within its own bound; one summary, the result unchanged', async () => {
    const run = await comment('hang', /./);
    expect(run.ms).toBeLessThan(COMMENT_BOUND_MS);
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(run.stdout).toMatch(/::warning::pr-comment: not written: .*20 s/);
    expect(run.summary.match(/Namespace teardown:/g)).toHaveLength(1);
  });

  test('a Link: rel="next" that never ends: a page cap, then a warning', async () => {
    const run = await comment('endless-link', comments);
    expect(run.outputs.result).toBe('clean');
    const pages = gh.requests.filter((r) => r.path.endsWith('/issues/42/comments')).length;
    expect(pages).toBeLessThanOrEqual(20);
    expect(run.stdout).toMatch(/::warning::pr-comment: not written: .*more than \d+ pages of comments/);
    expect(gh.comments).toEqual([]);
  });

  test('a comment page that never ends is cut at its limit, naming the request; one summary, one result', async () => {
    const run = await comment('huge', comments);
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(run.stdout).toMatch(
      /::warning::pr-comment: not written: GET \/repos\/acme\/shop\/issues\/42\/comments.*larger than 16 MiB/,
    );
    const page = gh.requests.find((r) => r.path.endsWith('/issues/42/comments'))!;
    expect(page.bytesOut).toBeGreaterThan(16 * 1024 * 1024);
    expect(page.bytesOut).toBeLessThan(64 * 1024 * 1024);
    expect(run.summary.match(/Namespace teardown:/g)).toHaveLength(1);
  });
});
