/** What the settle watch says of a namespace the wait ended before any look. Pure, on a clock that stands still. */
import type { Inspector } from '../../src/teardown/inspect.js';
import { SettleWatch } from '../../src/teardown/settle-watch.js';
import type { NamespaceState } from '../../src/model/cluster.js';

const at = (ms: number) => ({ now: () => ms, sleep: () => Promise.resolve() });

describe('SettleWatch.notSettled, with no look taken', () => {
  test('the timeout came 4 s after the last write: says 4s, short of the 10s a settled answer needs', () => {
    let now = 1_000_000;
    const clock = { now: () => now, sleep: () => Promise.resolve() };
    const watch = new SettleWatch({} as Inspector, clock);
    watch.observe({ name: 'pr-1', resourceVersion: '7' } as NamespaceState);
    now += 4_000;
    expect(watch.notSettled).toBe(
      'it had been unchanged for 4s when the wait ended, short of the 10s a settled answer needs (a write of the namespace or its controller restarts that)',
    );
    // Flipped: a write just before the end restarts the quiet period.
    watch.observe({ name: 'pr-1', resourceVersion: '8' } as NamespaceState);
    expect(watch.notSettled).toMatch(/^it had been unchanged for 0ms when the wait ended/);
  });

  test('never "never unchanged": the words hold whatever the clock', () => {
    expect(new SettleWatch({} as Inspector, at(5)).notSettled).not.toMatch(/never/);
  });
});
