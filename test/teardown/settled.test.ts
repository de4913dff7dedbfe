/**
 * `wait: settled` over real HTTPS against the fake API server, on a held clock: a namespace nothing in the cluster
 * will release ends the wait once quiet, long before the timeout (which never comes here); one that anything alive
 * holds, or that may still come free, is never cut short. Each world also runs flipped: actor alive ⇄ gone.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../src/kube/client.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { renderText } from '../../src/report/text.js';
import { readSettings } from '../../src/settings/settings.js';
import { UNFENCED } from '../helpers/inputs.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { runTeardown } from '../../src/teardown/run-teardown.js';
import { SETTLE_MS } from '../../src/teardown/settle.js';
import { resolveTargets } from '../../src/targets/resolve.js';
import { FakeCluster, waitFor } from '../fake-apiserver/index.js';
import { JumpClock } from '../helpers/clock.js';
import { FAST, runEngine } from '../helpers/harness.js';
import { SeenVersions } from '../helpers/seen.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const FINALIZER = 'acme.io/cleanup';
const PODS = { group: '', version: 'v1', resource: 'pods' };
/** Past the quiet period, so the first look happens once the clock is moved this far. */
const LOOK = SETTLE_MS + 1_000;

type Operator = ReturnType<FakeCluster['addOperator']>;

function world(opts: { operator?: 'none' | 'shared'; names?: string[] } = {}): {
  cluster: FakeCluster;
  operator?: Operator;
} {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  for (const name of opts.names ?? ['pr-1']) {
    cluster.addNamespace(name);
    cluster.addObject(WIDGETS, { namespace: name, name: 'w0', finalizers: [FINALIZER] });
  }
  if ((opts.operator ?? 'none') === 'none') return { cluster };
  cluster.addNamespace('operators');
  const operator = cluster.addOperator({
    gvr: WIDGETS,
    finalizer: FINALIZER,
    namespace: 'operators',
    scope: 'all',
    delayMs: 20,
  });
  // Alive (its pod runs, its Deployment is ready) but slow: it cleans up only once the test says so.
  operator.pause();
  return { cluster, operator };
}

/**
 * Start a run on a clock that stands still; `quiet()` resolves once the fake cluster has settled and the run has
 * read each target as it now is; `logged(part)` once the run's log has a line with `part`.
 */
async function heldRun(cluster: FakeCluster, inputs: Record<string, string>, names = ['pr-1']) {
  const { kubeconfig } = await cluster.start();
  const settings = readSettings((n) => ({ ...UNFENCED, namespaces: names.join(','), ...inputs })[n] ?? '');
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const logger = new RecordingLogger();
  const clock = new JumpClock();
  const seen = new SeenVersions();
  const kube = seen.wrap(createKube(kc));
  const started = clock.now();
  const run: Promise<RunReport> = resolveTargets(settings, kube).then((targets) =>
    runTeardown(
      settings,
      { kube, logger, clock, pollMs: 2_000, progressMs: 500, onProgress: seen.onProgress },
      { repository: 'acme/shop' },
      targets,
      started,
    ),
  );
  const quiet = (): Promise<void> => cluster.settled(names, 2).then(() => seen.caughtUp(cluster, names));
  const logged = (part: string): Promise<unknown> =>
    waitFor(() => logger.lines.some((l) => l.includes(part)), 30_000);
  /** Move the clock to `ms` after the start and hold it there. */
  const at = (ms: number): void => clock.jump(started + ms - clock.now(), { hold: true });
  /**
   * The same, but never behind the server's own clock: what a finding times from the server's timestamps (a pod's
   * grace period) is then read as a run would read it, however long a loaded machine took to get here.
   */
  const atLeastNow = (ms: number): void => at(Math.max(ms, Date.now() + 2_000 - started));
  return { run, quiet, logged, at, atLeastNow, logger };
}

let cluster: FakeCluster;
afterEach(() => cluster?.stop());

describe('wait: settled ends the wait on what nothing in the cluster will change', () => {
  test('a leaked finalizer: stuck, settled once quiet, long before the 5m timeout', async () => {
    ({ cluster } = world());
    const r = await heldRun(cluster, { 'teardown-order': 'namespace' });
    await r.quiet();
    r.at(LOOK);
    const report = await r.run;
    const [t] = report.targets;
    expect(t).toMatchObject({
      outcome: 'stuck',
      settled: { afterMs: LOOK, quietMs: LOOK, verdicts: ['leaked'] },
    });
    expect(t?.settled?.reason).toMatch(/^acme\.io\/cleanup on widgets\.widgets\.acme\.io objects: leaked/);
    expect(t?.notSettled).toBeUndefined();
    // The run ended while its clock stood still at the look: the 5m timeout never came.
    expect(Date.parse(report.finishedAt) - Date.parse(report.startedAt)).toBe(LOOK);
    expect(report.wait).toEqual({ mode: 'settled', ended: 'settled', afterMs: LOOK });
    expect(report.result).toBe('stuck');
    expect(report.failures).toEqual(['1 namespace(s) still present: pr-1', 'finalizers leaked in: pr-1']);
    expect(renderText(report, { width: 400, color: false })).toContain(
      'The wait ended settled after 11s, not at the 5m 00s timeout: nothing in the cluster will change what holds pr-1 (unchanged for 11s): acme.io/cleanup on widgets.widgets.acme.io objects: leaked: no live actor can release it.',
    );
    const summary = renderSummary(report);
    expect(summary).toContain('⏱️ The wait ended settled after 11s, not at the 5m 00s timeout');
    expect(summary).toMatch(/\| pr-1 \|[^|]*\| ❌ stuck · 11s · settled \|/);
  }, 60_000);

  test('wait: timeout waits for the timeout as before, and says so', async () => {
    ({ cluster } = world());
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: 'pr-1', 'teardown-order': 'namespace', wait: 'timeout', timeout: '20s' },
      { settle: { cluster, names: ['pr-1'] } },
    );
    expect(report.targets[0]).toMatchObject({ outcome: 'stuck' });
    expect(report.targets[0]?.settled).toBeUndefined();
    expect(report.wait).toEqual({ mode: 'timeout', ended: 'timeout', afterMs: 20_000 });
    expect(renderText(report, { width: 200, color: false })).toContain(
      'The wait ran to the 20s timeout (wait: timeout).',
    );
  }, 60_000);
});

describe('never cut short: what is alive, or may come back, is waited for', () => {
  test('a live operator that never releases: waited for to the timeout, and the summary says why', async () => {
    ({ cluster } = world({ operator: 'shared' }));
    const r = await heldRun(cluster, { 'teardown-order': 'namespace', timeout: '20s' });
    await r.quiet();
    r.at(LOOK);
    await r.logged('pr-1: diagnosed (unchanged for 11s)');
    r.at(20_000);
    const report = await r.run;
    const [t] = report.targets;
    expect(t?.outcome).toBe('stuck');
    expect(t?.settled).toBeUndefined();
    expect(t?.notSettled).toMatch(/^a live actor is working on it \(acme\.io\/cleanup on widgets/);
    expect(report.wait).toEqual({ mode: 'settled', ended: 'timeout', afterMs: 20_000 });
    expect(renderText(report, { width: 400, color: false })).toContain(
      'The wait ran to the 20s timeout, for what was not settled — pr-1: a live actor is working on it',
    );
  }, 60_000);

  test.each([
    { alive: true, expect: 'gone after 30 s, clean, not settled' },
    { alive: false, expect: 'settled at the first look' },
  ])(
    'an operator that releases after 30 s: alive $alive → $expect',
    async ({ alive }) => {
      const w = world({ operator: alive ? 'shared' : 'none' });
      cluster = w.cluster;
      const r = await heldRun(cluster, { 'teardown-order': 'namespace' });
      await r.quiet();
      r.at(LOOK);
      if (!alive) {
        expect((await r.run).targets[0]?.settled?.afterMs).toBe(LOOK);
        return;
      }
      await r.logged('pr-1: diagnosed (unchanged for 11s)');
      r.at(30_000);
      w.operator!.resume();
      const report = await r.run;
      expect(report.targets[0]).toMatchObject({ outcome: 'gone', durationMs: 30_000 });
      expect(report.targets[0]?.settled).toBeUndefined();
      expect(report.result).toBe('clean');
      expect(report.wait).toMatchObject({ mode: 'settled', ended: 'gone' });
      expect(cluster.operatorCleanups).toEqual(['widget-operator: deleted bucket for pr-1/w0']);
    },
    60_000,
  );

  test('custom resources first, the operator slow but alive past its share: still waited for, then clean', async () => {
    const w = world({ operator: 'shared' });
    cluster = w.cluster;
    const r = await heldRun(cluster, { 'custom-resources-timeout': '5s' });
    // The phase deleted the widgets and waits for them; its share ends, and the namespace is deleted.
    await waitFor(() => cluster.requests.some((q) => q.method === 'DELETE' && q.path.includes('/widgets/')));
    r.at(5_000);
    await r.quiet();
    r.at(5_000 + LOOK);
    await r.logged('pr-1: diagnosed (unchanged for 11s)');
    w.operator!.resume();
    const report = await r.run;
    const [t] = report.targets;
    expect(t).toMatchObject({ outcome: 'gone' });
    expect(t?.settled).toBeUndefined();
    expect(report.result).toBe('clean');
    expect(cluster.operatorCleanups).toEqual(['widget-operator: deleted bucket for pr-1/w0']);
  }, 60_000);

  test.each([
    { node: 'NotReady for a moment, then back', since: 0, expect: 'gone' },
    { node: 'NotReady for 10 minutes (lost)', since: 10 * 60_000, expect: 'settled' },
  ])(
    'a pod on a node $node: $expect',
    async ({ since, expect: end }) => {
      cluster = new FakeCluster({ controller: FAST });
      cluster.addNode('node-2', false, { since: new Date(Date.now() - since) });
      cluster.addNamespace('pr-1');
      cluster.addPod('pr-1', 'web', { nodeName: 'node-2', graceSeconds: 1, phase: 'Running' });
      const r = await heldRun(cluster, { 'teardown-order': 'namespace' });
      // The pod's grace ends on the server's clock, and the controller's conditions change then (the pod is left
      // past its estimate): the cluster has settled only after that.
      await waitFor(() => {
        const stamp = cluster.get(PODS, 'pr-1', 'web')?.metadata.deletionTimestamp as string | undefined;
        return stamp !== undefined && Date.parse(stamp) < Date.now() - 100;
      }, 30_000);
      await r.quiet();
      r.atLeastNow(LOOK);
      if (end === 'settled') {
        const report = await r.run;
        expect(report.targets[0]).toMatchObject({ outcome: 'stuck', settled: { verdicts: ['down'] } });
        return;
      }
      await r.logged('pr-1: diagnosed (unchanged for ');
      cluster.addNode('node-2', true);
      const report = await r.run;
      expect(report.targets[0]).toMatchObject({ outcome: 'gone' });
      expect(report.targets[0]?.settled).toBeUndefined();
      expect(cluster.get(PODS, 'pr-1', 'web')).toBeUndefined();
    },
    60_000,
  );
});
