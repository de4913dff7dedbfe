import { runEngine } from '../helpers/harness.js';
import {
  admin,
  apply,
  clearFinalizers,
  createCRD,
  namespace,
  restartApiServer,
  runAction,
  sleep,
  uniqueName,
  waitFor,
} from './kit.js';

/** A namespace held by one Widget finalizer until the test clears it. */
async function held(prefix: string): Promise<{ ns: string; widget: string }> {
  const ns = uniqueName(prefix);
  await apply(
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
    {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { namespace: ns, name: 'w1', finalizers: ['example.com/cleanup'] },
    },
  );
  return { ns, widget: `/apis/example.com/v1/namespaces/${ns}/widgets/w1` };
}

const terminating = (ns: string): Promise<unknown> =>
  waitFor(async () => (await namespace(ns))?.metadata.deletionTimestamp, 20_000, 100);

describe('the wait on the real server', () => {
  beforeAll(() => createCRD('example.com', 'Widget', 'widgets'));

  test('survives the server ending its watches at timeoutSeconds (the only observer: polling is off)', async () => {
    const { ns, widget } = await held('watch-timeout');
    const release = terminating(ns).then(async () => {
      await sleep(6_000);
      await clearFinalizers(widget);
    });
    const started = Date.now();
    const { report } = await runEngine(
      admin().kubeconfig,
      { namespaces: ns, timeout: '40s' },
      { pollMs: 600_000, kube: { watchTimeoutSeconds: 2 } },
    );
    await release;
    const t = report.targets[0]!;
    expect(t.outcome).toBe('gone');
    // Ended watches are normal ends, not resets; the namespace was seen gone within its ~5 s resync of release.
    expect(t.watchRestarts).toEqual({ expired: 0, reset: 0 });
    expect(Date.now() - started).toBeLessThan(25_000);
    expect(await namespace(ns)).toBeUndefined();
  });

  test('survives a restart of kube-apiserver mid-wait (same port, same etcd)', async () => {
    const { ns, widget } = await held('apiserver-restart');
    const running = runAction({ namespaces: ns, timeout: '60s', 'fail-on': 'stuck' });
    await terminating(ns);
    await sleep(1_000);
    await restartApiServer();
    await clearFinalizers(widget);
    const run = await running;
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    const t = run.report!.targets[0]!;
    expect(t.outcome).toBe('gone');
    expect(t.watchRestarts.reset).toBeGreaterThanOrEqual(1);
    expect(await namespace(ns)).toBeUndefined();
  });
});
