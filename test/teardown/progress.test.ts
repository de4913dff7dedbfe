import type { Kube, WatchHandle } from '../../src/kube/port.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { readSettings } from '../../src/settings/settings.js';
import { formatDuration } from '../../src/shared/duration.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { deleteAndWait } from '../../src/teardown/delete-and-wait.js';
import { resolveTargets } from '../../src/targets/resolve.js';
import { ProgressTracker, progressWords, type Progress } from '../../src/teardown/progress.js';
import type { WaitRecord } from '../../src/teardown/wait.js';
import { FakeClock } from '../helpers/clock.js';

const terminating = (name: string, since: string): NamespaceState => ({
  name,
  uid: `uid-${name}`,
  resourceVersion: '10',
  phase: 'Terminating',
  deletionTimestamp: since,
  labels: {},
  metadataFinalizers: [],
  specFinalizers: ['kubernetes'],
  conditions: [],
});

/** Namespaces answered by GET from `states`; the watch stays silent, so only the poll sees changes. */
function pollOnlyKube(states: Map<string, NamespaceState>): Kube {
  return {
    getNamespace: async (name: string) => states.get(name),
    watchNamespace: async (): Promise<WatchHandle> => {
      let end!: (v: { error?: Error }) => void;
      return { stop: () => end({}), done: new Promise((r) => (end = r)) };
    },
  } as unknown as Kube;
}

describe('progress while waiting, with a fake clock', () => {
  const cases = [
    {
      name: 'two namespaces, one goes after 40 s',
      names: ['pr-1', 'pr-2'],
      goneAfterS: 40,
      progressMs: undefined,
    },
    {
      name: 'three, asked for a line every 2 min (capped)',
      names: ['a', 'b', 'c'],
      goneAfterS: 65,
      progressMs: 120_000,
    },
  ];

  test.each(cases)('$name: the log names what is still Terminating at least every 30 s', async (c) => {
    const clock = new FakeClock();
    const started = clock.now();
    const since = new Date(clock.now() - 3_600_000).toISOString();
    const states = new Map(c.names.map((n) => [n, terminating(n, since)]));
    const logger = new RecordingLogger();
    const at: number[] = [];
    const info = logger.info.bind(logger);
    logger.info = (m: string) => {
      if (m.startsWith('waiting: ')) at.push(clock.now() - started);
      info(m);
    };
    const seen: Progress[] = [];
    const settings = readSettings(
      (k) => ({ namespaces: c.names.join(' '), delete: 'false', timeout: '2m' })[k] ?? '',
    );
    const kube = pollOnlyKube(states);
    const run = deleteAndWait(
      settings,
      {
        kube,
        logger,
        clock,
        pollMs: 5_000,
        progressMs: c.progressMs,
        onProgress: (p) => seen.push(p),
      },
      await resolveTargets(settings, kube),
      started + 120_000,
    );
    await clock.advance(c.goneAfterS * 1000, 500);
    states.delete(c.names[0]!);
    await clock.advance(90_000, 500);
    const result = await run;
    expect(result.targets.find((t) => t.name === c.names[0])!.outcome).toBe('gone');
    const lines = logger.lines.filter((l) => l.startsWith('waiting: '));
    // Two minutes of waiting: a line at least every 30 s, until the timeout.
    // (The run itself starts within the clock's first 500 ms step.)
    const gaps = [...at, 120_000].map((t, i) => t - (i === 0 ? 500 : at[i - 1]!));
    expect(Math.max(...gaps)).toBeLessThanOrEqual(30_000);
    const rest = c.names.slice(1);
    // Before the first went, every name; after, only the rest; always how long (the deletion was an hour ago).
    expect(lines[0]).toContain(`0 of ${c.names.length} gone · ${c.names.length} Terminating`);
    for (const n of c.names) expect(lines[0]).toMatch(new RegExp(`${n} \\(1h 0\\dm\\)`));
    expect(lines.at(-1)).toContain(`1 of ${c.names.length} gone · ${rest.length} Terminating`);
    expect(lines.at(-1)).not.toContain(`${c.names[0]} (`);
    // The listener heard the change the moment the poll saw it, and the end.
    expect(seen.map(progressWords)).toContain(
      `1 of ${c.names.length} gone · ${rest.length} Terminating · ${formatDuration(c.goneAfterS * 1000)}`,
    );
    expect(seen.at(-1)!.terminating).toEqual([]);
  });
});

describe('ProgressTracker', () => {
  test('tells the listener when a target it waits on turns Terminating (the wait mutates one record)', () => {
    const clock = new FakeClock();
    const told: Progress[] = [];
    const tracker = new ProgressTracker(clock, clock.now(), (p) => told.push(p));
    tracker.begin(1);
    const active: NamespaceState = { ...terminating('pr-1', '2026-11-22T10:00:00Z'), phase: 'Active' };
    delete (active as { deletionTimestamp?: string }).deletionTimestamp;
    const record: WaitRecord = {
      transitions: [{ phase: 'Active', at: clock.now() }],
      last: active,
      restarts: { expired: 0, reset: 0 },
    };
    tracker.update('pr-1', record);
    expect(told.at(-1)).toMatchObject({ waitingOther: 1, terminating: [] });
    record.last = terminating('pr-1', '2026-11-22T10:00:00Z');
    tracker.update('pr-1', record);
    expect(told.at(-1)).toMatchObject({ waitingOther: 0, terminating: [{ name: 'pr-1' }] });
  });
});
