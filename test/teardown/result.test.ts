import type { Finding } from '../../src/model/findings.js';
import { failuresOf, resultOf } from '../../src/teardown/run-teardown.js';
import { targetReport } from '../helpers/reports.js';

const finding = (verdict: Finding['verdict']): Finding =>
  ({ id: 'will-recreate', severity: 'error', cause: 'a live owner applies it again', verdict }) as Finding;

describe('the result output agrees with the check', () => {
  test.each([
    { name: 'every target gone', targets: [targetReport('a'), targetReport('b')], want: 'clean' },
    {
      name: 'gone, but a live owner applies it again: stuck (it is present again), as the failing check says',
      targets: [targetReport('a'), targetReport('b', { findings: [finding('will-recreate')] })],
      want: 'stuck',
    },
    {
      name: 'recreated while its owner is suspended (the verdict says down): clean',
      targets: [targetReport('a', { outcome: 'recreated', findings: [finding('down')] })],
      want: 'clean',
    },
    {
      name: 'forced, and one that comes back: stuck wins',
      targets: [
        targetReport('a', { outcome: 'forced' }),
        targetReport('b', { findings: [finding('will-recreate')] }),
      ],
      want: 'stuck',
    },
  ])('$name', ({ targets, want }) => {
    expect(resultOf(targets)).toBe(want);
    // Whenever a target comes back, the check fails too (fail-on stuck or leaked).
    const back = targets.some((t) => t.findings.some((f) => f.verdict === 'will-recreate'));
    expect(failuresOf({ failOn: 'stuck' }, targets).length > 0).toBe(back || want === 'stuck');
  });
});
