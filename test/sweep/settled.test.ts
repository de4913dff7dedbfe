/**
 * The sweep inherits `wait: settled`: 50 previews of closed pull requests, 2 of them held by leaked finalizers; the
 * run ends once the 48 are gone and the 2 settled, on a held clock whose 5m timeout never comes.
 */
import { KubeConfig } from '@kubernetes/client-node';
import nock from 'nock';
import { runEngine } from '../../src/entry/engine.js';
import { createGitHub } from '../../src/github/create.js';
import { createKube } from '../../src/kube/client.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { SETTLE_MS } from '../../src/teardown/settle.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { API, github, graphqlApi, GRAPHQL_PATH, SkipClock, TOKEN } from '../github/helpers.js';
import { JumpClock } from '../helpers/clock.js';
import { FAST } from '../helpers/harness.js';
import { SeenVersions } from '../helpers/seen.js';

const LABEL = 'preview.example.com/pr';
const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const PREVIEWS = 50;
const LEAKED = ['pr-31', 'pr-7'];
const names = Array.from({ length: PREVIEWS }, (_, i) => `pr-${i + 1}`);

let cluster: FakeCluster;
beforeAll(() => {
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  nock.enableNetConnect('127.0.0.1');
});
afterEach(async () => {
  nock.cleanAll();
  await cluster?.stop();
});

test('a sweep of 50 previews with 2 leaks ends when the 48 are gone and the 2 settled', async () => {
  cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  for (const [i, name] of names.entries()) {
    cluster.addNamespace(name, { labels: { [LABEL]: String(i + 1) } });
    if (LEAKED.includes(name))
      cluster.addObject(WIDGETS, { namespace: name, name: 'w0', finalizers: ['acme.io/cleanup'] });
  }
  const { kubeconfig } = await cluster.start();
  graphqlApi().post(GRAPHQL_PATH).reply(404, { message: 'Not Found' });
  const closedAt = new Date(Date.now() - 3 * 3_600_000).toISOString();
  const scope = github();
  for (let n = 1; n <= PREVIEWS; n++)
    scope.get(`/repos/acme/shop/pulls/${n}`).reply(200, { number: n, state: 'closed', closed_at: closedAt });
  const settings = readSettings(
    (n) =>
      ({ sweep: 'on', 'sweep-pr-label': LABEL, 'sweep-repository': 'acme/shop', 'github-token': TOKEN })[n] ??
      '',
  );
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const seen = new SeenVersions();
  const clock = new JumpClock();
  const started = clock.now();
  const gh = await createGitHub({ token: TOKEN, baseUrl: API, clock: new SkipClock() });
  const run = runEngine(
    settings,
    {
      kube: seen.wrap(createKube(kc)),
      logger: new RecordingLogger(),
      clock,
      github: async () => gh,
      serverUrl: 'https://ghe.example.com',
      pollMs: 2_000,
      progressMs: 500,
      onProgress: seen.onProgress,
    },
    { repository: 'acme/shop' },
  );
  await cluster.settled(names, 2);
  await seen.caughtUp(cluster, names);
  // The clock moves past the quiet period once, and stands still there.
  clock.jump(started + SETTLE_MS + 1_000 - clock.now(), { hold: true });
  // Only a guard: should a look not settle them, the timeout ends the run and the report says why, not a hang.
  const guard = setTimeout(() => clock.jump(5 * 60_000, { hold: true }), 60_000);
  const report = await run.finally(() => clearTimeout(guard));
  scope.done();
  expect(report.targets.filter((t) => t.outcome === 'stuck').map((t) => t.notSettled ?? 'settled')).toEqual([
    'settled',
    'settled',
  ]);
  const by = (o: string): string[] => report.targets.filter((t) => t.outcome === o).map((t) => t.name);
  expect(by('gone')).toHaveLength(PREVIEWS - LEAKED.length);
  expect(by('stuck').sort()).toEqual(LEAKED);
  for (const t of report.targets.filter((x) => x.outcome === 'stuck'))
    expect(t.settled).toMatchObject({ afterMs: SETTLE_MS + 1_000, verdicts: ['leaked'] });
  expect(report.wait).toEqual({ mode: 'settled', ended: 'settled', afterMs: SETTLE_MS + 1_000 });
  expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBe(SETTLE_MS + 1_000);
  expect(report.sweep?.entries.filter((e) => e.decision === 'go')).toHaveLength(PREVIEWS);
  expect(report.failures).toContain('2 namespace(s) still present: pr-31, pr-7');
}, 120_000);
