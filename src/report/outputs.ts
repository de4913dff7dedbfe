/** Step outputs computed from the run report. Pure. */
import { Outputs, type OutputName } from '../settings/action-names.js';
import type { RunReport } from '../model/run.js';
import { visible } from './escape.js';

/** Output name → value. */
export function outputsOf(report: RunReport, reportPath: string): Record<OutputName, string> {
  // Names come from the server: JSON leaves C1 and bidirectional controls raw, `visible` writes their escapes.
  const names = (pred: (o: string) => boolean): string =>
    visible(JSON.stringify(report.targets.filter((t) => pred(t.outcome)).map((t) => t.name)));
  return {
    [Outputs.result]: report.result,
    [Outputs.deleted]: names((o) => ['gone', 'already-gone', 'recreated', 'forced'].includes(o)),
    [Outputs.forced]: names((o) => o === 'forced'),
    [Outputs.stuck]: names((o) => o === 'stuck' || o === 'active'),
    [Outputs.refused]: names((o) => o === 'refused'),
    [Outputs.report]: reportPath,
  };
}

/**
 * The report's file name: readable (the step id, or "report" for the runner's generated ids such as `__self`)
 * and unique, so that two runs sharing RUNNER_TEMP and a step id never overwrite each other's report.
 */
export function reportFileName(stepId: string | undefined, now: Date, random: string): string {
  const step = stepId && !stepId.startsWith('__') ? stepId.replace(/[^A-Za-z0-9_.-]+/g, '-') : 'report';
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `namespace-teardown-${step}-${stamp}-${random}.json`;
}
