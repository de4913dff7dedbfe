import type { Kube, NamespaceEvent, WatchHandle } from '../../src/kube/port.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { waitUntilGone } from '../../src/teardown/wait.js';
import { FakeClock } from '../helpers/clock.js';

const ns = (over: Partial<NamespaceState> = {}): NamespaceState => ({
  name: 'pr-1',
  uid: 'uid-1',
  resourceVersion: '10',
  phase: 'Terminating',
  deletionTimestamp: '2026-11-22T10:00:00Z',
  labels: {},
  metadataFinalizers: [],
  specFinalizers: ['kubernetes'],
  conditions: [],
  ...over,
});

/** A Kube whose watch never delivers anything and whose GET answers from `current`. */
function silentKube(current: {
  state: NamespaceState | undefined;
}): Kube & { watches: number; gets: number } {
  const kube = {
    watches: 0,
    gets: 0,
    async getNamespace() {
      kube.gets++;
      return current.state;
    },
    async watchNamespace(_n: string, _rv: string, _on: (e: NamespaceEvent) => void): Promise<WatchHandle> {
      kube.watches++;
      let end!: (v: { error?: Error }) => void;
      const done = new Promise<{ error?: Error }>((r) => (end = r));
      return { stop: () => end({}), done };
    },
  };
  return kube as unknown as Kube & { watches: number; gets: number };
}

describe('waitUntilGone with a fake clock', () => {
  test('the poll finds the namespace gone when the watch stays silent', async () => {
    const clock = new FakeClock();
    const current = { state: ns() as NamespaceState | undefined };
    const kube = silentKube(current);
    const waiting = waitUntilGone(kube, ns(), {
      deadline: clock.now() + 60_000,
      clock,
      logger: new RecordingLogger(),
      pollMs: 10_000,
    });
    await clock.advance(5_000);
    current.state = undefined;
    await clock.advance(6_000);
    const record = await waiting;
    expect(record.goneAt).toBe(clock.now() - 1_000);
    expect(kube.gets).toBe(1);
  });

  test('the deadline ends the wait with the last state seen, not gone', async () => {
    const clock = new FakeClock();
    const current = {
      state: ns({
        resourceVersion: '11',
        conditions: [{ type: 'NamespaceContentRemaining', status: 'True' }],
      }),
    };
    const kube = silentKube(current);
    const waiting = waitUntilGone(kube, ns(), {
      deadline: clock.now() + 35_000,
      clock,
      logger: new RecordingLogger(),
      pollMs: 10_000,
    });
    await clock.advance(36_000);
    const record = await waiting;
    expect(record.goneAt).toBeUndefined();
    expect(record.last.conditions).toEqual([{ type: 'NamespaceContentRemaining', status: 'True' }]);
    expect(kube.gets).toBe(3);
  });

  test('a new UID under the same name is reported as recreated', async () => {
    const clock = new FakeClock();
    const current = {
      state: ns({ uid: 'uid-2', phase: 'Active', deletionTimestamp: undefined }) as
        NamespaceState | undefined,
    };
    const waiting = waitUntilGone(silentKube(current), ns(), {
      deadline: clock.now() + 60_000,
      clock,
      logger: new RecordingLogger(),
      pollMs: 10_000,
    });
    await clock.advance(10_000);
    const record = await waiting;
    expect(record.recreatedUid).toBe('uid-2');
  });
});
