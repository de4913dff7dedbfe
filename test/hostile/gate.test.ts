/**
 * The lifecycle gate fails closed: the event is read from the runner's event file as the action reads it, then the
 * engine runs against the fake cluster and the GitHub stand-in. A comment of any kind needs its author's write
 * access, read from GitHub; an event or action the gate does not list, or a payload it cannot read, deletes nothing
 * and says why.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { KubeConfig } from '@kubernetes/client-node';
import { readRunContext } from '../../src/entry/context.js';
import { runEngine } from '../../src/entry/engine.js';
import { createGitHub } from '../../src/github/create.js';
import { createKube } from '../../src/kube/client.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FakeGitHub } from '../github/fake-github.js';
import { FAST } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';
import { UNFENCED } from '../helpers/inputs.js';

const TOKEN = 'ghs_hostile-gate-token-0123456789';
const PR = { number: 42, title: 'Add cart', html_url: 'https://github.com/acme/shop/pull/42' };
const user = (login: string) => ({ login, type: 'User' });

interface Ran {
  report: RunReport;
  /** Every write the cluster was sent. */
  writes: string[];
  /** Every GitHub request, `METHOD /path`. */
  asked: string[];
}

describe('the lifecycle gate fails closed', () => {
  let cluster: FakeCluster;
  let gh: FakeGitHub;

  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-42');
    gh = new FakeGitHub(TOKEN);
    // An open pull request without the keep label: the closed-pull-request path would delete its preview.
    gh.pulls.set(42, { state: 'open', labels: [] });
    gh.permissions.set('bob', 'read');
    gh.permissions.set('alice', 'write');
  });
  afterEach(async () => {
    await cluster.stop();
    await gh.stop();
  });

  /** Run the engine on `pr-42` for the event `name` with the payload `payload` (text: written as is). */
  async function run(name: string, payload: unknown, inputs: Record<string, string> = {}): Promise<Ran> {
    const { kubeconfig } = await cluster.start();
    const api = await gh.start();
    const path = join(tempDir('nt-gate-event-'), 'event.json');
    writeFileSync(path, typeof payload === 'string' ? payload : JSON.stringify(payload));
    const env = { GITHUB_EVENT_NAME: name, GITHUB_EVENT_PATH: path, GITHUB_REPOSITORY: 'acme/shop' };
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
    const github = await createGitHub({ token: TOKEN, baseUrl: api, clock: systemClock });
    try {
      const report = await runEngine(
        readSettings((n) => all[n] ?? ''),
        {
          kube,
          logger: new RecordingLogger(),
          clock: systemClock,
          github: async () => github,
          serverUrl: 'https://github.com',
          pollMs: 500,
        },
        readRunContext(env),
      );
      return {
        report,
        writes: cluster.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
        asked: gh.requests.map((r) => `${r.method} ${r.path}`),
      };
    } finally {
      await kube.close();
    }
  }

  /** Nothing deleted, the check fails, and the summary's headline says why. */
  function refused(ran: Ran, why: RegExp): void {
    expect(ran.writes).toEqual([]);
    expect(cluster.namespace('pr-42')).toBeDefined();
    expect(ran.report.result).toBe('skipped');
    expect(ran.report.lifecycle?.skipped?.why).toMatch(why);
    expect(ran.report.failures).toEqual([ran.report.lifecycle!.skipped!.why]);
    expect(renderSummary(ran.report)).toMatch(/^## ❌ Namespace teardown skipped: /);
  }

  const PERMISSION = 'GET /api/v3/repos/acme/shop/collaborators/bob/permission';

  test('a /teardown in a pull_request_review_comment by a read-only user: the permission read, nothing deleted', async () => {
    const ran = await run('pull_request_review_comment', {
      action: 'created',
      comment: { id: 12, body: '/teardown', user: user('bob'), html_url: `${PR.html_url}#discussion_r12` },
      pull_request: PR,
    });
    expect(ran.asked).toContain(PERMISSION);
    expect(ran.writes).toEqual([]);
    expect(cluster.namespace('pr-42')).toBeDefined();
    expect(ran.report.lifecycle?.skipped?.why).toBe(
      '@bob has read access to acme/shop; /teardown needs write',
    );
    expect(ran.report.lifecycle?.request).toMatchObject({ login: 'bob', permission: 'read' });
  });

  test('a /teardown in a pull_request_review by a read-only user: the permission read, nothing deleted', async () => {
    const ran = await run('pull_request_review', {
      action: 'submitted',
      review: { id: 13, body: '/teardown now', user: user('bob'), state: 'commented' },
      pull_request: PR,
    });
    expect(ran.asked).toContain(PERMISSION);
    expect(ran.writes).toEqual([]);
    expect(ran.report.lifecycle?.skipped?.why).toBe(
      '@bob has read access to acme/shop; /teardown needs write',
    );
  });

  test('a /teardown in a pull_request_review_comment by a writer: 👀 on that review comment, then deleted', async () => {
    const ran = await run('pull_request_review_comment', {
      action: 'created',
      comment: { id: 12, body: '/teardown', user: user('alice') },
      pull_request: PR,
    });
    expect(ran.asked).toContain('POST /api/v3/repos/acme/shop/pulls/comments/12/reactions');
    expect(ran.asked).not.toContain('POST /api/v3/repos/acme/shop/issues/comments/12/reactions');
    expect(ran.writes).toEqual(['DELETE /api/v1/namespaces/pr-42']);
    expect(ran.report.lifecycle?.request).toMatchObject({ login: 'alice', permission: 'write' });
  });

  test('a review without text (body null), by a writer: not a request, nothing asked or deleted, the check passes', async () => {
    const ran = await run('pull_request_review', {
      action: 'submitted',
      review: { id: 14, body: null, user: user('alice'), state: 'approved' },
      pull_request: PR,
    });
    expect(ran.asked).toEqual([]);
    expect(ran.writes).toEqual([]);
    expect(ran.report.lifecycle).toEqual({ skipped: { why: 'the comment does not start with /teardown' } });
    expect(ran.report.failures).toEqual([]);
  });

  test.each([
    {
      name: 'comment.id is text',
      comment: { id: '12', body: '/teardown', user: user('alice') },
      issue: { number: 42, pull_request: { html_url: PR.html_url } },
      why: /"comment\.id" is "12", not a number/,
    },
    {
      name: 'issue.number is text',
      comment: { id: 12, body: '/teardown', user: user('alice') },
      issue: { number: '42', pull_request: { html_url: PR.html_url } },
      why: /"issue\.number" is "42", not a number/,
    },
    {
      name: 'comment has no author',
      comment: { id: 12, body: '/teardown' },
      issue: { number: 42, pull_request: { html_url: PR.html_url } },
      why: /"comment\.user\.login" is missing/,
    },
    {
      name: 'body is not text',
      comment: { id: 12, body: ['/teardown'], user: user('alice') },
      issue: { number: 42, pull_request: { html_url: PR.html_url } },
      why: /"comment\.body" is an array, not text/,
    },
  ])(
    'an issue_comment whose $name: nothing deleted, nothing asked, and why',
    async ({ comment, issue, why }) => {
      const ran = await run('issue_comment', { action: 'created', comment, issue });
      refused(ran, why);
      expect(ran.report.lifecycle?.skipped?.why).toMatch(
        /^the issue_comment event's payload cannot be read: /,
      );
      expect(ran.asked).toEqual([]);
    },
  );

  test.each([
    { name: 'push', event: 'push', payload: { ref: 'refs/heads/main' }, why: /^the event push is not one/ },
    {
      name: 'pull_request opened',
      event: 'pull_request',
      payload: { action: 'opened', pull_request: PR },
      why: /^the event pull_request \(opened\) is not one this step acts on: it acts on pull_request \(closed\)/,
    },
    {
      name: 'pull_request synchronize',
      event: 'pull_request_target',
      payload: { action: 'synchronize', pull_request: PR },
      why: /^the event pull_request_target \(synchronize\) is not one/,
    },
    {
      name: 'pull_request without an action',
      event: 'pull_request',
      payload: { pull_request: PR },
      why: /"action" is missing/,
    },
    {
      name: 'pull_request closed whose number is text',
      event: 'pull_request',
      payload: { action: 'closed', pull_request: { ...PR, number: '42' } },
      why: /"pull_request\.number" is "42", not a number/,
    },
    {
      name: 'pull_request closed whose event file is not JSON',
      event: 'pull_request',
      payload: '{"action": "closed", "pull_req',
      why: /^the pull_request event's payload cannot be read: .*not JSON/,
    },
    {
      name: 'issues (a comment on an issue, not a pull request event)',
      event: 'issues',
      payload: { action: 'opened', issue: { number: 42 } },
      why: /^the event issues is not one/,
    },
  ])('an unexpected event or payload ($name): nothing deleted, nothing asked, and why', async (c) => {
    const ran = await run(c.event, c.payload);
    refused(ran, c.why);
    expect(ran.asked).toEqual([]);
  });

  test('pull_request closed: the keep label read, the preview deleted (the path the gate lists)', async () => {
    gh.pulls.set(42, { state: 'closed', closed_at: new Date().toISOString(), labels: [] });
    const ran = await run('pull_request', { action: 'closed', pull_request: PR });
    expect(ran.asked).toEqual(['GET /api/v3/repos/acme/shop/pulls/42']);
    expect(ran.writes).toEqual(['DELETE /api/v1/namespaces/pr-42']);
  });

  test('workflow_dispatch: the targets as given, nothing read from the event', async () => {
    const ran = await run('workflow_dispatch', { inputs: {} });
    expect(ran.asked).toEqual([]);
    expect(ran.writes).toEqual(['DELETE /api/v1/namespaces/pr-42']);
  });

  test('push listed in allow-events: the targets as given, nothing read from the event', async () => {
    const ran = await run('push', { ref: 'refs/heads/main' }, { 'allow-events': 'push' });
    expect(ran.asked).toEqual([]);
    expect(ran.writes).toEqual(['DELETE /api/v1/namespaces/pr-42']);
  });
});
