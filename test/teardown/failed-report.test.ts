import { readSettings } from '../../src/settings/settings.js';
import { failedReport } from '../../src/teardown/run-teardown.js';
import { FakeClock } from '../helpers/clock.js';
import { UNFENCED } from '../helpers/inputs.js';

const settings = readSettings((name) => ({ ...UNFENCED, namespaces: 'preview-7' })[name] ?? '');

describe('the report of a run that failed as a whole', () => {
  test('its times come from the clock the run was given, like every other report', async () => {
    const clock = new FakeClock();
    const started = clock.now();
    await clock.advance(42_000, 42_000);
    const report = failedReport(settings, {}, started, 'the cluster could not be reached', false, clock);
    expect(report.startedAt).toBe('2026-11-22T10:00:00.000Z');
    expect(report.finishedAt).toBe('2026-11-22T10:00:42.000Z');
    expect(report.result).toBe('error');
    expect(report.targets).toEqual([]);
    expect(report.failures.join('\n')).toContain('the cluster could not be reached');
  });

  test('cancelled: said in the report, and the check fails', () => {
    const clock = new FakeClock();
    const report = failedReport(
      settings,
      {},
      0,
      'the run did not stop in time after cancellation',
      true,
      clock,
    );
    expect(report.cancelled).toBe(true);
    expect(report.failures.length).toBeGreaterThan(0);
  });
});
