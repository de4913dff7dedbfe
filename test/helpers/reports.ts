/** Run reports built by hand for the renderers' tests: one base, each test overriding what it is about. */
import type { RunReport, TargetReport } from '../../src/model/run.js';

/** A target gone without trouble; `over` says what the test is about. */
export function targetReport(name: string, over: Partial<TargetReport> = {}): TargetReport {
  return {
    name,
    outcome: 'gone',
    transitions: [],
    conditions: [],
    watchRestarts: { expired: 0, reset: 0 },
    findings: [],
    ...over,
  };
}

/** A run over `targets` with the default inputs; `settings` overrides some inputs, the rest of `over` the report. */
export function runReport(
  targets: TargetReport[],
  over: Partial<Omit<RunReport, 'settings'>> & { settings?: Partial<RunReport['settings']> } = {},
): RunReport {
  const { settings, ...rest } = over;
  return {
    version: 1,
    context: { repository: 'acme/shop' },
    startedAt: '2026-11-22T10:00:00.000Z',
    finishedAt: '2026-11-22T10:05:00.000Z',
    settings: {
      delete: true,
      timeout: '5m',
      failOn: 'leaked',
      namespaces: [],
      force: {
        mode: 'off',
        afterMs: 60_000,
        finalizerPatterns: [],
        finalizeNamespace: false,
        deletePods: 'off',
      },
      ...settings,
    },
    targets,
    result: targets.some((t) => t.outcome === 'stuck') ? 'stuck' : 'clean',
    failures: [],
    ...rest,
  };
}
