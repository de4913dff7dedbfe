/** Inspector.run on a fake clock: when the slow diagnosis and the forcing pass happen, and that the wait's end stops it. */
import type { NamespaceState } from '../../src/model/cluster.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { Inspector, type InspectDeps } from '../../src/teardown/inspect.js';
import { RecordingReader } from '../diagnosis/fake-reader.js';
import { discovery } from '../diagnosis/snapshot-helpers.js';
import { policy } from '../force/fixtures.js';
import { FakeClock } from '../helpers/clock.js';

const SLOW_AFTER_MS = 30_000;

function start(force: InspectDeps['force']) {
  const clock = new FakeClock();
  const logger = new RecordingLogger();
  const kube = new RecordingReader({ discovery: discovery() });
  const state: NamespaceState = {
    name: 'pr-1',
    uid: 'uid-1',
    resourceVersion: '10',
    phase: 'Terminating',
    deletionTimestamp: new Date(clock.now()).toISOString(),
    labels: {},
    metadataFinalizers: [],
    specFinalizers: ['kubernetes'],
    conditions: [],
  };
  const deps: InspectDeps = {
    kube,
    logger,
    clock,
    force,
    isProtected: () => false,
    slowAfterMs: SLOW_AFTER_MS,
  };
  const stop = new AbortController();
  const running = new Inspector(deps, clock.now()).run(() => state, stop.signal);
  const lines = (part: string): string[] => logger.lines.filter((l) => l.includes(part));
  return { clock, kube, stop, running, lines };
}

const force = (mode: 'off' | 'dry-run', afterMs: number): InspectDeps['force'] => policy({ mode, afterMs });

describe('Inspector.run with a fake clock', () => {
  test('diagnoses a namespace still Terminating at slowAfterMs, not before, then ends when force is off', async () => {
    const { clock, kube, running, lines } = start(force('off', 60_000));
    await clock.advance(SLOW_AFTER_MS - 100);
    expect(lines(': diagnosed (')).toEqual([]);
    expect(kube.calls).toEqual([]);
    await clock.advance(200);
    await running;
    expect(lines(': diagnosed (')).toEqual([
      expect.stringMatching(/^pr-1: diagnosed \(still Terminating after 30s\): \d+ finding\(s\)/),
    ]);
    expect(lines(': force ')).toEqual([]);
  });

  test('when force-after comes first, forcing starts then (after its own diagnosis) and the slow diagnosis is skipped', async () => {
    const { clock, stop, running, lines } = start(force('dry-run', 20_000));
    await clock.advance(20_000 - 100);
    expect(lines(': diagnosed (')).toEqual([]);
    await clock.advance(200);
    // The snapshot reads take real time; wait (bounded) for the pass to decide, then end the wait.
    for (let i = 0; i < 500 && lines(': force dry-run: ').length === 0; i++)
      await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await running;
    expect(lines(': diagnosed (')).toEqual([
      expect.stringContaining('pr-1: diagnosed (diagnosed before forcing, Terminating for 20s)'),
    ]);
    expect(lines(': force dry-run: ')).toHaveLength(1);
  });

  test('the end of the wait stops it: nothing is read after the signal aborts', async () => {
    const { clock, kube, stop, running, lines } = start(force('dry-run', 60_000));
    await clock.advance(10_000);
    stop.abort();
    await running;
    await clock.advance(120_000);
    expect(lines(': diagnosed (')).toEqual([]);
    expect(kube.calls).toEqual([]);
  });
});
