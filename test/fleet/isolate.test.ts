import { runIsolated, type ClusterJob } from '../../src/fleet/isolate.js';
import type { RunReport } from '../../src/model/run.js';
import { messageOf } from '../../src/shared/errors.js';
import { FakeClock } from '../helpers/clock.js';
import { clusterReport } from '../helpers/fleet.js';
import { runReport } from '../helpers/reports.js';

const failed = (name: string, why: unknown, cancelled: boolean): RunReport =>
  runReport([], {
    context: { cluster: { name } },
    result: 'error',
    error: typeof why === 'string' ? why : messageOf(why),
    ...(cancelled ? { cancelled } : {}),
  });

/** A job that answers after `ms` on the clock, recording the signal it was given. */
function after(name: string, ms: number, clock: FakeClock, signals: Map<string, AbortSignal>): ClusterJob {
  return {
    name,
    run: async (signal) => {
      signals.set(name, signal);
      await clock.sleep(ms);
      return clusterReport(name, { gone: ['preview-pr-1'] });
    },
  };
}

describe('several clusters in one process, each bounded and isolated', () => {
  test('a cluster that hangs is cancelled at its bound and reported; the others are not held back', async () => {
    const clock = new FakeClock();
    const signals = new Map<string, AbortSignal>();
    const hang: ClusterJob = {
      name: 'ap',
      run: (signal) => {
        signals.set('ap', signal);
        return new Promise<RunReport>(() => undefined); // never answers, never rejects
      },
    };
    let done = false;
    const running = runIsolated(
      [after('eu', 1_000, clock, signals), hang, after('us', 2_000, clock, signals)],
      {
        boundMs: 60_000,
        clock,
        failed,
      },
    ).then((r) => ((done = true), r));
    await clock.advance(59_000, 1_000);
    expect(done).toBe(false);
    expect(signals.get('ap')!.aborted).toBe(false);
    await clock.advance(2_000, 1_000);
    const results = await running;
    expect(results.map((r) => [r.name, r.report.result])).toEqual([
      ['eu', 'clean'],
      ['ap', 'error'],
      ['us', 'clean'],
    ]);
    expect(results[1]!.report.error).toBe(
      'the run did not finish within 1m 00s: cancelled and left behind; the other clusters went on',
    );
    expect(signals.get('ap')!.aborted).toBe(true);
    expect(signals.get('eu')!.aborted).toBe(false);
  });

  test("a cluster whose run throws is that cluster's error, not the fleet's", async () => {
    const clock = new FakeClock();
    const boom: ClusterJob = { name: 'us', run: () => Promise.reject(new Error('exec plugin exited 1')) };
    const running = runIsolated([after('eu', 100, clock, new Map()), boom], {
      boundMs: 10_000,
      clock,
      failed,
    });
    await clock.advance(200);
    const results = await running;
    expect(results.map((r) => [r.name, r.report.result, r.report.error])).toEqual([
      ['eu', 'clean', undefined],
      ['us', 'error', 'exec plugin exited 1'],
    ]);
  });

  test("the caller's cancel reaches every cluster's own signal", async () => {
    const clock = new FakeClock();
    const cancel = new AbortController();
    const signals = new Map<string, AbortSignal>();
    const stops = (name: string): ClusterJob => ({
      name,
      run: (signal) =>
        new Promise((resolve) => {
          signals.set(name, signal);
          signal.addEventListener('abort', () => resolve({ ...clusterReport(name), cancelled: true }));
        }),
    });
    const running = runIsolated([stops('eu'), stops('us')], {
      boundMs: 10_000,
      clock,
      failed,
      signal: cancel.signal,
    });
    await clock.advance(100);
    cancel.abort();
    const results = await running;
    expect(results.map((r) => r.report.cancelled)).toEqual([true, true]);
    expect([...signals.values()].every((s) => s.aborted)).toBe(true);
  });
});
