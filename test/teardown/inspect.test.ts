/** Inspector.run on a fake clock: when the slow diagnosis and the forcing pass happen, and that the wait's end stops it. */
import type { NamespaceState } from '../../src/model/cluster.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { Inspector, type InspectDeps } from '../../src/teardown/inspect.js';
import { RecordingReader } from '../diagnosis/fake-reader.js';
import { discovery } from '../diagnosis/snapshot-helpers.js';
import { policy } from '../force/fixtures.js';
import { FakeClock } from '../helpers/clock.js';

const SLOW_AFTER_MS = 30_000;

/** An Inspector on a fake clock; with `seen: false` the wait has not seen the namespace Terminating until `see()`. */
function start(force: InspectDeps['force'], { seen = true } = {}) {
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
  let latest: NamespaceState | undefined = seen ? state : undefined;
  const stop = new AbortController();
  const running = new Inspector(deps, clock.now()).run(() => latest, stop.signal);
  const lines = (part: string): string[] => logger.lines.filter((l) => l.includes(part));
  /** The wait sees the namespace: Terminating, or as `over` says. */
  const see = (over: Partial<NamespaceState> = {}): void => {
    latest = { ...state, ...over };
  };
  /** Wait for the first forcing pass to decide, then end the wait. */
  const endAfterPass = async (): Promise<void> => {
    await until(() => lines(': force dry-run: ').length > 0);
    stop.abort();
    await running;
  };
  return { clock, kube, stop, running, lines, see, endAfterPass };
}

/** The snapshot reads take real time: wait (bounded) until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
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
    const { clock, lines, endAfterPass } = start(force('dry-run', 20_000));
    await clock.advance(20_000 - 100);
    expect(lines(': diagnosed (')).toEqual([]);
    await clock.advance(200);
    await endAfterPass();
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

  test('force-after reached before the wait saw it Terminating: it forces once it is seen, not at the timeout', async () => {
    const { clock, kube, lines, see, endAfterPass } = start(force('dry-run', 0), { seen: false });
    await clock.advance(3_000);
    expect(kube.calls).toEqual([]);
    see();
    await clock.advance(1_000);
    await endAfterPass();
    // Seen at 3 s, forced within the next look (1 s), long before any timeout.
    expect(lines(': diagnosed (')).toEqual([
      expect.stringMatching(/^pr-1: diagnosed \(diagnosed before forcing, Terminating for [34]s\)/),
    ]);
    expect(lines(': force dry-run: ')).toHaveLength(1);
  });

  test('looking again spends no forcing pass: seen only after a minute, it still gets all three', async () => {
    const { clock, running, lines, see } = start(force('dry-run', 20_000), { seen: false });
    await clock.advance(60_000);
    see();
    for (let pass = 1; pass <= 3; pass++) {
      await clock.advance(1_000);
      await until(() => lines(': force dry-run: ').length >= pass);
      await clock.advance(9_000);
    }
    await running;
    expect(lines(': force dry-run: ')).toHaveLength(3);
    expect(lines(': diagnosed (').map((l) => /Terminating for ([^)]+)\)/.exec(l)?.[1])).toEqual([
      '1m 01s',
      '1m 11s',
      '1m 21s',
    ]);
  });

  test('never seen Terminating: nothing is read or forced, and the end of the wait ends it', async () => {
    const { clock, kube, stop, running, lines, see } = start(force('dry-run', 0), { seen: false });
    await clock.advance(10_000);
    // A state without a deletionTimestamp is not Terminating either.
    see({ phase: 'Active', deletionTimestamp: undefined });
    await clock.advance(20_000);
    stop.abort();
    await running;
    expect(kube.calls).toEqual([]);
    expect(lines(': force ')).toEqual([]);
  });

  test('the slow diagnosis waits for the namespace to be seen Terminating, too', async () => {
    const { clock, running, lines, see } = start(force('off', 0), { seen: false });
    await clock.advance(SLOW_AFTER_MS + 2_000);
    expect(lines(': diagnosed (')).toEqual([]);
    see();
    await clock.advance(1_000);
    await until(() => lines(': diagnosed (').length > 0);
    await running;
    expect(lines(': diagnosed (')).toEqual([
      expect.stringMatching(/^pr-1: diagnosed \(still Terminating after 33s\)/),
    ]);
  });

  test('seen Terminating only when forcing is due, the slow diagnosis is left to the forcing pass', async () => {
    const { clock, lines, see, endAfterPass } = start(force('dry-run', 40_000), { seen: false });
    await clock.advance(39_500);
    see();
    await clock.advance(1_000);
    await endAfterPass();
    expect(lines(': diagnosed (')).toEqual([
      expect.stringContaining('pr-1: diagnosed (diagnosed before forcing, Terminating for 40s)'),
    ]);
  });
});
