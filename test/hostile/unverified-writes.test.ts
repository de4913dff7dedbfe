/**
 * Writes only to what the run read and verified, against a server that lies or breaks: a namespace list that
 * ignores the label selector, a candidate without a UID, a target recreated before the custom-resources phase, a
 * namespace listed Terminating that every GET shows Active.
 */
import { jest } from '@jest/globals';
import { KubeConfig } from '@kubernetes/client-node';
import { runEngine as runWith } from '../../src/entry/engine.js';
import { createGitHub } from '../../src/github/create.js';
import { createKube } from '../../src/kube/client.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { readSettings } from '../../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../../src/shared/ports.js';
import {
  addDeadMetricsApi,
  FakeCluster,
  GVR,
  raw,
  type Loose,
  type RequestRecord,
  type StartedCluster,
} from '../fake-apiserver/index.js';
import {
  API,
  github,
  graphqlApi,
  GRAPHQL_PATH,
  nockBesideLoopback,
  SkipClock,
  TOKEN,
} from '../github/helpers.js';
import { FAST, runEngine } from '../helpers/harness.js';

jest.setTimeout(60_000);

const LABEL = 'preview.example.com/pr';
const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();
const writesOf = (requests: RequestRecord[]): string[] =>
  requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path} ${r.status}`);

/** Every namespace as the server lists it, changed by `edit`: the body of a hostile list answer. */
async function listed(started: StartedCluster, edit: (items: Loose[]) => void = () => {}): Promise<Loose> {
  const list = (await raw(started, 'GET', '/api/v1/namespaces')).json as Loose;
  edit(list.items as Loose[]);
  return list;
}

const item = (items: Loose[], name: string): Loose => items.find((i) => i.metadata.name === name);

/** A namespace list item made to say Terminating (deleted ten minutes ago) while the store keeps it Active. */
function terminatingItem(ns: Loose): void {
  ns.metadata.deletionTimestamp = new Date(Date.now() - 600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  ns.status.phase = 'Terminating';
}

describe('the sweep deletes only candidates it verified', () => {
  let cluster: FakeCluster;
  let started: StartedCluster;

  nockBesideLoopback();
  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1', { labels: { [LABEL]: '1', team: 'shop' }, createdAt: hoursAgo(5) });
    cluster.addNamespace('pr-2', { labels: { [LABEL]: '2', team: 'shop' }, createdAt: hoursAgo(5) });
    cluster.addNamespace('prod-db', { labels: { team: 'db' }, createdAt: hoursAgo(100) });
    started = await cluster.start();
    // GraphQL refused: REST answers both pull requests closed three hours ago.
    graphqlApi().post(GRAPHQL_PATH).reply(404, { message: 'Not Found' });
    const closed = (number: number) => ({ number, state: 'closed', closed_at: hoursAgo(3), merged_at: null });
    github().get('/repos/acme/shop/pulls/1').reply(200, closed(1));
    github().get('/repos/acme/shop/pulls/2').reply(200, closed(2));
  });
  afterEach(() => cluster.stop());

  async function sweep(inputs: Record<string, string>): Promise<{ report: RunReport; log: string[] }> {
    const settings = readSettings(
      (name) =>
        ({
          sweep: 'on',
          'sweep-pr-label': LABEL,
          'sweep-repository': 'acme/shop',
          'github-token': TOKEN,
          timeout: '10s',
          ...inputs,
        })[name] ?? '',
    );
    const kc = new KubeConfig();
    kc.loadFromString(started.kubeconfig);
    const gh = await createGitHub({ token: TOKEN, baseUrl: API, clock: new SkipClock() });
    const logger = new RecordingLogger();
    const deps = { kube: createKube(kc), logger, clock: systemClock, pollMs: 2_000, progressMs: 500 };
    const report = await runWith(
      settings,
      { ...deps, github: async () => gh, serverUrl: 'https://ghe.example.com' },
      { repository: 'acme/shop' },
    );
    return { report, log: logger.lines };
  }

  const ignoring = async (edit?: (items: Loose[]) => void): Promise<number> => {
    const body = await listed(started, edit);
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /labelSelector/ },
      { status: 200, body },
    );
    return cluster.requests.length;
  };

  test.each([
    { name: 'the label selector', inputs: {} as Record<string, string>, listedBy: LABEL },
    { name: 'the user selector', inputs: { selector: 'team=shop' }, listedBy: 'team=shop' },
  ])('a namespace list that ignores $name never gets prod-db deleted', async ({ inputs, listedBy }) => {
    const from = await ignoring();
    const { report, log } = await sweep({ 'sweep-max-age': '72h', ...inputs });
    const run = cluster.requests.slice(from);
    expect(writesOf(run).filter((w) => w.includes('prod-db'))).toEqual([]);
    expect(cluster.namespace('prod-db')?.metadata.deletionTimestamp).toBeUndefined();
    expect(report.sweep!.entries.map((e) => e.namespace)).toEqual(['pr-1', 'pr-2']);
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1', 'gone'],
      ['pr-2', 'gone'],
    ]);
    expect(log).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^warning: the namespace list answered 5 namespace\\(s\\) that do not match "${listedBy}"`,
        ),
      ),
    );
    expect(renderSummary(report)).toContain(
      `5 more listed that do not match \`${listedBy}\`: not candidates`,
    );
  });

  test('a candidate listed without a UID is kept with the reason, never deleted, never called recreated', async () => {
    const from = await ignoring((items) => {
      delete item(items, 'pr-2').metadata.uid;
    });
    const { report } = await sweep({});
    const run = cluster.requests.slice(from);
    expect(writesOf(run).filter((w) => w.includes('pr-2'))).toEqual([]);
    expect(cluster.namespace('pr-2')?.metadata.deletionTimestamp).toBeUndefined();
    const entry = report.sweep!.entries.find((e) => e.namespace === 'pr-2')!;
    expect(entry).toMatchObject({ decision: 'keep', reason: expect.stringMatching(/no metadata\.uid/) });
    expect(report.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-1', 'gone']]);
    expect(renderSummary(report)).toMatch(/\| pr-2 \| kept \|.*no metadata\.uid/);
  });
});

describe('custom resources first on a target recreated after it was read', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster?.stop());

  test('the new namespace keeps its custom resources, and the report says none were deleted', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'acme.io', version: 'v1', kind: 'Widget', plural: 'widgets' });
    const WIDGETS = { group: 'acme.io', version: 'v1', resource: 'widgets' };
    cluster.addNamespace('pr-1');
    cluster.addObject(WIDGETS, { namespace: 'pr-1', name: 'bucket' });
    const started = await cluster.start();
    // The run reads pr-1 as it was (old UID); it has since been deleted and created again with new content.
    const old = (await raw(started, 'GET', '/api/v1/namespaces/pr-1')).json as Loose;
    old.metadata.uid = '0b4c2f4e-0000-4000-8000-000000000001';
    cluster.failNext({ method: 'GET', path: /^\/api\/v1\/namespaces\/pr-1$/ }, { status: 200, body: old });
    const from = cluster.requests.length;
    const { report } = await runEngine(started.kubeconfig, { namespaces: 'pr-1', timeout: '4s' });
    // Nothing at all: neither its custom resource nor the namespace DELETE (refused before it was sent).
    expect(writesOf(cluster.requests.slice(from))).toEqual([]);
    expect(cluster.get(WIDGETS, 'pr-1', 'bucket')).toBeDefined();
    const target = report.targets[0]!;
    expect(target.outcome).toBe('recreated');
    expect(target.note).toBe('replaced by a new namespace before deletion; the new one was not deleted');
    expect(target.customResources).toMatchObject({
      mode: 'skipped',
      note: expect.stringMatching(/recreated .* none of its custom resources deleted/),
    });
    expect(target.customResources!.objects).toEqual([]);
  });
});

describe('scope: all-terminating with force on, a namespace listed Terminating that every GET shows Active', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster?.stop());

  /**
   * The namespace list says `name` is Terminating (the store keeps it Active); the run forces with `inputs`. No poll
   * within the run: the only reads of the namespace are forcing's own, so the guard alone decides.
   */
  async function forceListedTerminating(
    started: StartedCluster,
    name: string,
    inputs: Record<string, string>,
  ): Promise<{ report: RunReport; writes: string[] }> {
    const body = await listed(started, (items) => terminatingItem(item(items, name)));
    const list = { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /^(?!.*watch)/ };
    cluster.failNext(list, { status: 200, body });
    const from = cluster.requests.length;
    const run = { scope: 'all-terminating', timeout: '6s', force: 'on', 'force-after': '1s', ...inputs };
    const { report } = await runEngine(started.kubeconfig, run, { pollMs: 60_000 });
    return { report, writes: writesOf(cluster.requests.slice(from)) };
  }

  /** The target is `active`, and each planned step is in the audit, unsent, with the reason. */
  function expectNothingForced(report: RunReport, steps: string[], name: string): void {
    const target = report.targets[0]!;
    expect(target.outcome).toBe('active');
    expect(target.note).toMatch(/listed Terminating, but read Active .*nothing forced/);
    const audit = target.force!.audit;
    expect(audit.map((a) => a.step).sort()).toEqual(steps);
    const why = new RegExp(`not sent: namespace "${name}" was last read Active \\(no deletionTimestamp\\)`);
    for (const a of audit)
      expect(a).toMatchObject({ result: 'skipped', writes: 0, why: expect.stringMatching(why) });
  }

  test('nothing is forced: no finalizer stripped, no metadata finalizer removed, no /finalize', async () => {
    const META = 'finalizers.kubesphere.io/namespaces';
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    cluster.addNamespace('pr-7', { metadataFinalizers: [META] });
    addDeadMetricsApi(cluster);
    cluster.addObject(GVR.kialis, { namespace: 'pr-7', name: 'kiali', finalizers: ['kiali.io/finalizer'] });
    const started = await cluster.start();
    // Someone deleted the Kiali: it waits on its finalizer, in a namespace nobody deleted.
    await raw(started, 'DELETE', '/apis/kiali.io/v1alpha1/namespaces/pr-7/kialis/kiali');
    const { report, writes } = await forceListedTerminating(started, 'pr-7', {
      'force-finalizers': `kiali.io/*\n${META}`,
      'force-finalize-namespace': 'true',
    });
    expect(writes).toEqual([]);
    expect(cluster.get(GVR.kialis, 'pr-7', 'kiali')?.metadata.finalizers).toEqual(['kiali.io/finalizer']);
    expect(cluster.namespace('pr-7')?.metadata.finalizers).toEqual([META]);
    expect(cluster.namespace('pr-7')?.spec.finalizers).toEqual(['kubernetes']);
    const steps = ['namespace-finalize', 'namespace-metadata-finalizers', 'object-finalizers'];
    expectNothingForced(report, steps, 'pr-7');
  });

  test('a terminating pod on a lost node is not deleted in a namespace every GET shows Active', async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-8');
    cluster.addNode('node-1', false, { since: new Date(Date.now() - 600_000) });
    cluster.addPod('pr-8', 'web-0', { nodeName: 'node-1' });
    const started = await cluster.start();
    // Its owner deleted it: on a node that stopped reporting, it stays Terminating.
    await raw(started, 'DELETE', '/api/v1/namespaces/pr-8/pods/web-0');
    const { report, writes } = await forceListedTerminating(started, 'pr-8', {
      'force-delete-pods': 'lost-nodes',
    });
    expect(writes).toEqual([]);
    expect(cluster.get(GVR.pods, 'pr-8', 'web-0')).toBeDefined();
    expectNothingForced(report, ['pod-delete'], 'pr-8');
  });
});
