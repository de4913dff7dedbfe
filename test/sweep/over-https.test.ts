import { KubeConfig } from '@kubernetes/client-node';
import nock from 'nock';
import { runEngine } from '../../src/entry/engine.js';
import type { GitHubLimits } from '../../src/github/client-state.js';
import { createGitHub } from '../../src/github/create.js';
import { createKube } from '../../src/kube/client.js';
import { renderSummary } from '../../src/report/markdown.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import type { RunReport } from '../../src/model/run.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import {
  API,
  askedNumbers,
  fromBody,
  github,
  graphqlApi,
  GRAPHQL_PATH,
  SkipClock,
  TOKEN,
} from '../github/helpers.js';
import { FAST } from '../helpers/harness.js';

const LABEL = 'preview.example.com/pr';
const PULLS = '/repos/acme/shop/pulls';
const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();
const closed = (n: number, h: number, merged = false): object => ({
  number: n,
  state: 'closed',
  closed_at: hoursAgo(h),
  merged_at: merged ? hoursAgo(h) : null,
  html_url: `https://ghe.example.com/acme/shop/pull/${n}`,
});
/** The path a nock reply function is asked for (nock 15 hands it the Request, not the path). */
const pathOf = (req: unknown): string =>
  typeof req === 'string' ? req : new URL((req as Request).url).pathname;
/** The pull request number a REST request asks for. */
const numberIn = (req: unknown): number => Number(pathOf(req).split('/').pop());

/** PR 1 open; 2 merged 3h ago (two namespaces, and a protected one); 3 closed 10 min ago; 4 and 5 unknown
 * to GitHub (404) with an old and a new namespace; 7 open but GitHub errors; 8 forbidden; one bad label. */
function seed(cluster: FakeCluster): void {
  const ns = (name: string, pr: string | undefined, createdAt = hoursAgo(5)): void => {
    cluster.addNamespace(name, {
      labels: pr === undefined ? { team: 'shop' } : { [LABEL]: pr, team: 'shop' },
      createdAt,
    });
  };
  ns('pr-1', '1');
  ns('pr-2', '2');
  ns('pr-2-db', '2');
  ns('keep-pr-2', '2');
  ns('pr-3', '3');
  ns('pr-4', '4');
  ns('pr-5', '5', new Date().toISOString());
  ns('pr-7', '7');
  ns('pr-8', '8');
  ns('pr-bad', 'main');
  ns('unlabelled', undefined, hoursAgo(100));
}

/** GraphQL not offered (404): the sweep asks through REST. */
function refuseGraphql(): nock.Scope {
  return graphqlApi().post(GRAPHQL_PATH).reply(404, { message: 'Not Found' });
}

function answerGitHub(): nock.Scope {
  refuseGraphql();
  return github()
    .get(`${PULLS}/1`)
    .reply(200, { number: 1, state: 'open' })
    .get(`${PULLS}/2`)
    .reply(200, closed(2, 3, true))
    .get(`${PULLS}/3`)
    .reply(200, closed(3, 10 / 60))
    .get(`${PULLS}/4`)
    .reply(404, { message: 'Not Found' })
    .get(`${PULLS}/5`)
    .reply(404, { message: 'Not Found' })
    .get(`${PULLS}/7`)
    .times(4)
    .reply(502, 'upstream error')
    .get(`${PULLS}/8`)
    .reply(403, { message: 'Resource not accessible by integration' });
}

describe('sweep: GitHub through nock, the cluster through the fake API server', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;

  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    nock.enableNetConnect('127.0.0.1');
  });
  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    seed(cluster);
    ({ kubeconfig } = await cluster.start());
  });
  afterEach(async () => {
    nock.cleanAll();
    await cluster.stop();
  });

  async function sweep(
    inputs: Record<string, string>,
    limits?: GitHubLimits,
  ): Promise<{ report: RunReport; log: string[]; sent: number }> {
    const settings = readSettings(
      (name) =>
        ({
          sweep: 'plan',
          'sweep-pr-label': LABEL,
          'sweep-repository': 'acme/shop',
          'github-token': TOKEN,
          'protected-namespaces': 'keep-*',
          timeout: '20s',
          ...inputs,
        })[name] ?? '',
    );
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const gh = await createGitHub({ token: TOKEN, baseUrl: API, clock: new SkipClock(), limits });
    const logger = new RecordingLogger();
    const report = await runEngine(
      settings,
      {
        kube: createKube(kc),
        logger,
        clock: systemClock,
        github: async () => gh,
        serverUrl: 'https://ghe.example.com',
        pollMs: 2_000,
        progressMs: 500,
      },
      { repository: 'acme/shop' },
    );
    return { report, log: logger.lines, sent: gh.sent };
  }

  const decisions = (r: RunReport): [string, string][] =>
    r.sweep!.entries.map((e) => [e.namespace, e.protected ? 'protected' : e.decision]);

  test('plan: lists what would go and why, asks once per PR, deletes nothing', async () => {
    const scope = answerGitHub();
    const { report, log } = await sweep({ sweep: 'plan' });
    scope.done();
    expect(decisions(report)).toEqual([
      ['keep-pr-2', 'protected'],
      ['pr-1', 'keep'],
      ['pr-2', 'go'],
      ['pr-2-db', 'go'],
      ['pr-3', 'keep'],
      ['pr-4', 'go'],
      ['pr-5', 'keep'],
      ['pr-7', 'keep'],
      ['pr-8', 'keep'],
      ['pr-bad', 'keep'],
    ]);
    expect(report.sweep!.pulls).toBe(7);
    expect(report.targets).toEqual([]);
    expect(cluster.requests.filter((r) => r.method !== 'GET')).toEqual([]);
    for (const n of ['pr-1', 'pr-2', 'pr-4', 'pr-7', 'keep-pr-2']) expect(cluster.namespace(n)).toBeDefined();
    const listed = cluster.requests.filter((r) => r.path === '/api/v1/namespaces');
    expect(listed.map((r) => new URLSearchParams(r.query).get('labelSelector'))).toEqual([LABEL]);
    expect(log).toContainEqual(
      expect.stringMatching(/^warning: pr-bad: kept — label value "main" is not a pull request number/),
    );
    const summary = renderSummary(report);
    expect(summary).toContain(
      '### Sweep plan (nothing deleted): 3 would go, 6 kept, 1 protected, 1 with a label that is not a PR number',
    );
    expect(summary).toMatch(
      // GitHub's html_url names another pull request (…/pull/x): the link is made from the server and the number.
      /\| pr-2 \| 🗑️ would go \| \[#2\]\(https:\/\/ghe.example.com\/acme\/shop\/pull\/2\) merged \| PR &#35;2 merged 3h 00m ago \| 5h 00m \|/,
    );
    expect(summary).toMatch(
      /\| pr-4 \| 🗑️ would go \| \[#4\]\(https:\/\/ghe.example.com\/acme\/shop\/pull\/4\) not found \| PR &#35;4 does not exist/,
    );
    expect(summary).toMatch(
      /\| pr-7 \| kept \| \[#7\]\(.*\) unknown \| PR &#35;7 state unknown &#40;GitHub answered 502/,
    );
  });

  test('on: only the chosen namespaces go through delete → wait → report; open, unknown and protected stay', async () => {
    const scope = answerGitHub();
    const { report } = await sweep({ sweep: 'on' });
    scope.done();
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['keep-pr-2', 'refused'],
      ['pr-2', 'gone'],
      ['pr-2-db', 'gone'],
      ['pr-4', 'gone'],
    ]);
    const deletes = cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
    expect(deletes.sort()).toEqual([
      '/api/v1/namespaces/pr-2',
      '/api/v1/namespaces/pr-2-db',
      '/api/v1/namespaces/pr-4',
    ]);
    for (const n of ['pr-1', 'pr-3', 'pr-5', 'pr-7', 'pr-8', 'pr-bad', 'keep-pr-2', 'unlabelled'])
      expect(cluster.namespace(n)?.metadata.deletionTimestamp).toBeUndefined();
    const summary = renderSummary(report);
    expect(summary).toMatch(/\| pr-2 \| ✅ went \|/);
    // The sweep chose the protected one (there is no selector), and says so.
    expect(report.failures).toContain('protected namespace(s) were chosen by the sweep: keep-pr-2');
    expect(summary).toMatch(/^#### Chosen to go \(\d+\)$/m);
    expect(summary).toMatch(/^#### Kept \(\d+\)$/m);
    const settings = summary.trimEnd().split('\n').at(-1)!;
    expect(settings).toMatch(
      /^<sub>result <code>\w+<\/code> · sweep on · target-label <code>preview\.example\.com\/pr<\/code> · delete true · /,
    );
    expect(settings).not.toContain(' ·  · ');
  });

  test('a namespace of an open PR is never deleted, whatever GitHub answers for it', async () => {
    refuseGraphql();
    const scope = github()
      .get(/\/repos\/acme\/shop\/pulls\/\d+/)
      .times(100)
      .reply((req: unknown) => {
        const uri = pathOf(req);
        if (uri.endsWith('/1') || uri.endsWith('/7')) return [500, 'oops'];
        if (uri.endsWith('/8'))
          return [
            403,
            { message: 'API rate limit exceeded' },
            { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '9999999999' },
          ];
        return [200, closed(numberIn(req), 48)];
      });
    const { report } = await sweep({ sweep: 'on', 'sweep-max-age': '1h', selector: 'team=shop' });
    scope.persist(false);
    for (const n of ['pr-1', 'pr-7', 'pr-8']) {
      expect(report.sweep!.entries.find((e) => e.namespace === n)).toMatchObject({
        decision: 'keep',
        reason: expect.stringMatching(/state unknown/),
      });
      expect(cluster.namespace(n)?.metadata.deletionTimestamp).toBeUndefined();
    }
    expect(cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).not.toContainEqual(
      expect.stringMatching(/pr-(1|7|8)$/),
    );
    // The selector widened the candidates to the unlabelled namespace, which sweep-max-age lets go.
    expect(report.targets.map((t) => t.name)).toContain('unlabelled');
  });

  test('300 PRs over 600 namespaces through REST with a backstop of 250 requests: the rest kept as unknown', async () => {
    await cluster.stop();
    cluster = new FakeCluster({ controller: FAST });
    for (let pr = 1; pr <= 300; pr++)
      for (const suffix of ['app', 'db'])
        cluster.addNamespace(`pr-${pr}-${suffix}`, {
          labels: { [LABEL]: String(pr) },
          createdAt: hoursAgo(5),
        });
    ({ kubeconfig } = await cluster.start());
    let asked = 0;
    refuseGraphql();
    github()
      .get(/\/repos\/acme\/shop\/pulls\/\d+/)
      .times(300)
      .reply((req: unknown) => (asked++, [200, closed(numberIn(req), 48)]));
    const { report, sent } = await sweep({ sweep: 'plan' }, { maxRequests: 250 });
    expect(asked).toBe(249);
    expect(sent).toBe(250);
    const go = report.sweep!.entries.filter((e) => e.decision === 'go');
    const capped = report.sweep!.entries.filter((e) => /cap of 250/.test(e.reason));
    expect(go).toHaveLength(498);
    expect(capped).toHaveLength(102);
    expect(report.sweep!.pulls).toBe(300);
  });
  test('plan through GraphQL: one query for every PR; a partial error keeps only that PR, saying why', async () => {
    const scope = graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => {
          const node = (n: number, state: string, h?: number): object => ({
            number: n,
            state,
            closedAt: h === undefined ? null : hoursAgo(h),
            mergedAt: state === 'MERGED' ? hoursAgo(h!) : null,
            url: `https://ghe.example.com/acme/shop/pull/${n}`,
          });
          const nodes: Record<number, object | null> = {
            1: node(1, 'OPEN'),
            2: node(2, 'MERGED', 3),
            3: node(3, 'CLOSED', 10 / 60),
            4: null,
            5: null,
            7: null,
            8: node(8, 'OPEN'),
          };
          const repository = Object.fromEntries(askedNumbers(body).map((n) => [`pr${n}`, nodes[n] ?? null]));
          const missing = (n: number): object => ({
            type: 'NOT_FOUND',
            path: ['repository', `pr${n}`],
            message: `Could not resolve to a PullRequest with the number of ${n}.`,
          });
          const timeout = {
            type: 'SERVICE_UNAVAILABLE',
            path: ['repository', 'pr7'],
            message: 'Timeout on pr7',
          };
          return { data: { repository }, errors: [missing(4), missing(5), timeout] };
        }),
      );
    const { report, sent } = await sweep({ sweep: 'plan' });
    scope.done();
    expect(sent).toBe(1);
    expect(report.sweep).toMatchObject({ pulls: 7, githubRequests: 1, githubApi: 'graphql' });
    expect(decisions(report)).toEqual([
      ['keep-pr-2', 'protected'],
      ['pr-1', 'keep'],
      ['pr-2', 'go'],
      ['pr-2-db', 'go'],
      ['pr-3', 'keep'],
      ['pr-4', 'go'],
      ['pr-5', 'keep'],
      ['pr-7', 'keep'],
      ['pr-8', 'keep'],
      ['pr-bad', 'keep'],
    ]);
    expect(report.sweep!.entries.find((e) => e.namespace === 'pr-7')).toMatchObject({
      reason: 'PR #7 state unknown (GitHub GraphQL: SERVICE_UNAVAILABLE: Timeout on pr7)',
    });
    expect(renderSummary(report)).toContain('7 pull request(s), 1 GitHub request(s)</sub>');
  });

  test('GraphQL refused: the summary says the sweep asked through REST', async () => {
    const scope = answerGitHub();
    const { report, log } = await sweep({ sweep: 'plan' });
    scope.done();
    expect(report.sweep).toMatchObject({ githubApi: 'rest', githubRequests: 1 + 7 + 3 });
    expect(log).toContainEqual(
      expect.stringMatching(/GraphQL refused, asked through REST: GitHub answered 404/),
    );
    expect(renderSummary(report)).toContain('GitHub request(s) (REST: GraphQL refused)</sub>');
  });
});
