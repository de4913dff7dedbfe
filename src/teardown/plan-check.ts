/** Plan mode's check (`fail-on`): what would be refused, and what the pre-mortem predicts will hang. Pure. */
import type { PlannedWrite } from '../model/plan.js';
import type { TargetReport } from '../model/run.js';
import type { Settings } from '../settings/settings.js';
import { compareText } from '../shared/compare.js';
import { admissionRefusals } from './plan-writes.js';

/** Whether forcing, as the policy stands, would get past every hang predicted for `t`. */
const forcedPast = (t: TargetReport): boolean =>
  (t.plan?.forcing.length ?? 0) > 0 && t.plan!.forcing.every((f) => f.would);

/**
 * Why the check fails in plan mode, beside the reasons every run has: under any `fail-on` but `never`, a write the
 * server refused (admission, RBAC: the run would fail there too); a predicted hang, under `leaked` (even one forcing
 * would get past: a forced teardown fails `leaked` too), under `stuck` only one forcing would not get past.
 */
export function planFailures(
  settings: Pick<Settings, 'failOn'>,
  targets: readonly TargetReport[],
  writes: readonly PlannedWrite[],
): string[] {
  if (settings.failOn === 'never') return [];
  const failures: string[] = [];
  const refused = admissionRefusals(writes)
    .map((w) => `${w.verb} ${w.object}`)
    .sort(compareText);
  if (refused.length)
    failures.push(`the server would refuse ${refused.length} write(s): ${refused.join(', ')}`);
  const hanging = targets.filter((t) => t.preMortem?.predictions.some((p) => p.hang));
  const stuck = settings.failOn === 'leaked' ? hanging : hanging.filter((t) => !forcedPast(t));
  if (stuck.length) {
    const words = settings.failOn === 'leaked' ? 'will hang' : 'will hang, forcing or not';
    failures.push(
      `the pre-mortem predicts ${stuck.length} namespace(s) ${words}: ${stuck.map((t) => t.name).join(', ')}`,
    );
  }
  return failures;
}
