/** Cancellation the way the runner does it: SIGINT (then SIGTERM) to the real bundle process. */
import { jest } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle } from '../helpers/harness.js';

jest.setTimeout(60_000);

const KIALI = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };

/** Send `signal` once `ready()` holds; resolves the time it was sent. */
function signalWhen(
  ready: () => boolean,
  signal: NodeJS.Signals,
): { onStart: (c: ChildProcess) => void; sentAt: () => number } {
  let sentAt = 0;
  return {
    onStart: (child) => {
      const timer = setInterval(() => {
        if (!ready()) return;
        clearInterval(timer);
        sentAt = Date.now();
        child.kill(signal);
      }, 50);
      child.on('exit', () => clearInterval(timer));
    },
    sentAt: () => sentAt,
  };
}

describe('cancellation leaves a result (node dist/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    for (const n of ['pr-1', 'pr-2']) cluster.addNamespace(n);
    cluster.addObject(KIALI, {
      metadata: { namespace: 'pr-2', name: 'kiali', finalizers: ['kiali.io/finalizer'] },
    });
  });
  afterEach(() => cluster.stop());

  test.each(['SIGINT', 'SIGTERM'] as const)(
    '%s while waiting: summary, outputs and report marked cancelled, exit well within 7.5 s',
    async (signal) => {
      const { kubeconfig } = await cluster.start();
      const deleted = (): boolean => cluster.requests.filter((r) => r.method === 'DELETE').length === 2;
      // pr-1 has no blocker: send the signal once the run has seen it go (its re-read answered 404) and
      // still waits for pr-2, so the result shows one of each whatever the machine's load.
      const pr1Seen = (): boolean =>
        cluster.requests.some(
          (r) => r.method === 'GET' && r.path === '/api/v1/namespaces/pr-1' && r.status === 404,
        );
      let seenAt = 0;
      const waiting = (): boolean => {
        if (!(deleted() && cluster.openWatches > 0 && pr1Seen())) return false;
        seenAt ||= Date.now();
        return Date.now() - seenAt >= 300;
      };
      const send = signalWhen(waiting, signal);
      const run = await runBundle(
        { namespaces: 'pr-1 pr-2', kubeconfig, timeout: '5m' },
        {},
        { onStart: send.onStart },
      );
      const exitAfterMs = Date.now() - send.sentAt();
      expect(send.sentAt()).toBeGreaterThan(0);
      expect(exitAfterMs).toBeLessThan(6_000);

      expect(run.code).not.toBe(0);
      expect(run.stdout).toContain(`::warning::${signal} received: stopping`);
      expect(run.summary).toContain('## ❌ Namespace teardown (cancelled): 1 stuck, 1 gone of 2 namespaces');
      expect(run.outputs.result).toBe('error');
      expect(JSON.parse(run.outputs.stuck!)).toEqual(['pr-2']);
      expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-1']);
      expect(run.report?.cancelled).toBe(true);
      expect(run.report?.targets.find((t) => t.name === 'pr-2')?.note).toBe(
        'the run was cancelled while it was Terminating',
      );
      expect(run.stdout).toContain('::error::Namespace teardown failed: the run was cancelled');
    },
  );

  test('SIGINT while a DELETE hangs: the write gets 2 s, then the result is kept', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.misbehaveNext({ method: 'DELETE', path: /\/pr-1$/ }, 'hang');
    const sentDelete = (): boolean =>
      cluster.requests.some((r) => r.method === 'DELETE' && r.path.endsWith('/pr-1'));
    const send = signalWhen(sentDelete, 'SIGINT');
    const run = await runBundle(
      { namespaces: 'pr-1', kubeconfig, timeout: '5m' },
      {},
      { onStart: send.onStart },
    );
    const exitAfterMs = Date.now() - send.sentAt();

    expect(exitAfterMs).toBeGreaterThanOrEqual(2_000);
    expect(exitAfterMs).toBeLessThan(6_000);
    expect(run.code).not.toBe(0);
    expect(run.report?.cancelled).toBe(true);
    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-1', 'error']]);
    expect(run.report?.targets[0]?.note).toContain('the run was cancelled');
    expect(run.summary).toContain('## ❌ Namespace teardown (cancelled): 1 error of 1 namespace');
    expect(run.outputs.result).toBe('error');
    expect(run.outputs.report).toMatch(/\.json$/);
  });
});
