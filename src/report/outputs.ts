/** Step outputs computed from the run report. Pure. */
import { Outputs, type OutputName } from '../settings/action-names.js';
import type { RunReport } from '../teardown/outcome.js';

/** Output name → value. */
export function outputsOf(report: RunReport, reportPath: string): Record<OutputName, string> {
  const names = (pred: (o: string) => boolean): string =>
    JSON.stringify(report.targets.filter((t) => pred(t.outcome)).map((t) => t.name));
  return {
    [Outputs.result]: report.result,
    [Outputs.deleted]: names((o) => ['gone', 'already-gone', 'recreated', 'forced'].includes(o)),
    [Outputs.forced]: names((o) => o === 'forced'),
    [Outputs.stuck]: names((o) => o === 'stuck' || o === 'active'),
    [Outputs.report]: reportPath,
  };
}
