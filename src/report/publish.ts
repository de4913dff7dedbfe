/**
 * Thin publishing of a run's report to the workflow: summary, annotations, outputs, failed check. Two more places
 * write to GitHub: the entry point (entry/action.ts masks credentials and fails a run that cannot start) and
 * github/post-comment.ts (the optional pull request comment).
 */
import * as core from '@actions/core';
import { writeFile } from 'node:fs/promises';
import type { RunReport } from '../teardown/outcome.js';
import { planAnnotations } from './annotations.js';
import { breakCommands, safeLog } from './escape.js';
import { renderSummary } from './markdown.js';
import { outputsOf } from './outputs.js';

/** Write the JSON report, the job summary, annotations and outputs; mark the step failed when it should. */
export async function publish(report: RunReport, reportPath: string): Promise<void> {
  await writeFile(reportPath, JSON.stringify(report, null, 2) + '\n');
  const { emit, overflow } = planAnnotations(report);
  for (const a of emit) core[a.level](a.message, { title: a.title });
  if (overflow > 0) core.info(`${overflow} more annotation(s) are in the job summary and ${reportPath}.`);
  const summary = renderSummary(report, reportPath, { overflow });
  if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summary).write();
  else core.info(breakCommands(summary));
  for (const [name, value] of Object.entries(outputsOf(report, reportPath))) core.setOutput(name, value);
  if (report.failures.length > 0)
    core.setFailed(`Namespace teardown failed: ${safeLog(report.failures.join('; '))}`);
}
