/**
 * Thin publishing of the fleet's answer to the workflow, as publish.ts does for one run: the JSON report, one job
 * summary, annotations within GitHub's budget, the outputs, and a failed check when the fleet's `fail-on` says so.
 */
import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import type { FleetReport } from '../model/fleet.js';
import { briefReason } from './brief.js';
import { safeLog } from './escape.js';
import { planFleetAnnotations } from './fleet-annotations.js';
import { fleetJson } from './fleet-json.js';
import { renderFleetSummary } from './fleet-markdown.js';
import { fleetOutputsOf } from './fleet-outputs.js';
import { reportFileName } from './outputs.js';
import { writeReport, writeSummary } from './publish.js';

/** Reasons in the step's failure line; all of them are in the summary. */
const REASONS_IN_FAILURE = 10;

/** Publish the merged answer; a write that fails is a warning, the outputs are always set. */
export async function publishFleet(fleet: FleetReport, started: number): Promise<void> {
  const name = reportFileName(process.env.GITHUB_ACTION, new Date(started), randomBytes(3).toString('hex'));
  const reportPath = await writeReport(
    () => fleetJson(fleet),
    name.replace(/^namespace-teardown-/, 'namespace-teardown-fleet-'),
    process.env.RUNNER_TEMP,
  );
  const { emit, overflow } = planFleetAnnotations(fleet);
  for (const a of emit) core[a.level](a.message, { title: a.title });
  if (overflow > 0) core.info(`${overflow} more annotation(s) are in the job summary and ${reportPath}.`);
  await writeSummary(renderFleetSummary(fleet, reportPath || undefined, { overflow }));
  for (const [output, value] of Object.entries(fleetOutputsOf(fleet, reportPath)))
    core.setOutput(output, value);
  if (fleet.failures.length > 0) {
    const shown = fleet.failures.slice(0, REASONS_IN_FAILURE).map((f) => briefReason(f, REASONS_IN_FAILURE));
    const more = fleet.failures.length - shown.length;
    core.setFailed(
      `Namespace teardown failed in the fleet: ${safeLog(shown.join('; '))}${more > 0 ? `; and ${more} more` : ''}`,
    );
  }
}
