/**
 * Thin publishing of a run's report to the workflow: summary, annotations, outputs, failed check. Two more places
 * write to GitHub: the entry point (entry/action.ts masks credentials and fails a run that cannot start) and
 * github/post-comment.ts (the optional pull request comment).
 */
import * as core from '@actions/core';
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { messageOf } from '../shared/errors.js';
import type { RunReport } from '../model/run.js';
import { planAnnotations } from './annotations.js';
import { briefReason } from './brief.js';
import { safeLines, safeLog } from './escape.js';
import { reportJson } from './json.js';
import { renderSummary } from './markdown.js';
import { outputsOf, reportFileName } from './outputs.js';

const reasonOf = (error: unknown): string => safeLog(messageOf(error));
/** Names in the step's failure line (an annotation); all of them are in the summary and the report. */
const NAMES_IN_FAILURE = 10;

/**
 * Write a JSON report (`pieces` makes its text) in `dir`, else in the OS temp dir; the path written, or '' when
 * neither worked.
 */
export async function writeReport(
  pieces: () => Iterable<string>,
  name: string,
  dir: string | undefined,
): Promise<string> {
  for (const where of [...new Set([dir, tmpdir()])]) {
    if (!where) continue;
    const path = join(where, name);
    try {
      await writeJson(path, pieces());
      return path;
    } catch (error) {
      core.warning(`could not write the report to ${safeLog(path)}: ${reasonOf(error)}`);
    }
  }
  return '';
}

/** The job summary, or the log when there is no summary file (a write that fails is a warning). */
export async function writeSummary(summary: string): Promise<void> {
  try {
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(summary).write();
    else core.info(safeLines(summary));
  } catch (error) {
    core.warning(`could not write the job summary: ${reasonOf(error)}`);
  }
}

/** Write the pieces to a new file (never over an existing one), about 64 KiB at a time. */
async function writeJson(path: string, pieces: Iterable<string>): Promise<void> {
  const file = await open(path, 'wx');
  try {
    let batch = '';
    for (const piece of pieces) {
      batch += piece;
      if (batch.length >= 65_536) {
        await file.writeFile(batch);
        batch = '';
      }
    }
    await file.writeFile(`${batch}\n`);
  } finally {
    await file.close();
  }
}

/**
 * Write the JSON report (named `name`, in `dir` or the OS temp dir), the job summary, annotations and outputs;
 * mark the step failed when it should. A write that fails is a warning: the outputs are always set.
 */
export async function publish(report: RunReport, name: string, dir: string | undefined): Promise<void> {
  const reportPath = await writeReport(() => reportJson(report), name, dir);
  const { emit, overflow } = planAnnotations(report);
  for (const a of emit) core[a.level](a.message, { title: a.title });
  if (overflow > 0) core.info(`${overflow} more annotation(s) are in the job summary and ${reportPath}.`);
  await writeSummary(renderSummary(report, reportPath || undefined, { overflow }));
  for (const [output, value] of Object.entries(outputsOf(report, reportPath))) core.setOutput(output, value);
  if (report.failures.length > 0)
    core.setFailed(
      `Namespace teardown failed: ${safeLog(report.failures.map((f) => briefReason(f, NAMES_IN_FAILURE)).join('; '))}`,
    );
  // A cancelled run never passes, whatever fail-on says.
  else if (report.cancelled) core.setFailed('Namespace teardown was cancelled.');
}

/** Publish the action's report under a name of its own: the step id, when the run started and 3 random bytes. */
export async function publishRun(report: RunReport, started: number): Promise<void> {
  const name = reportFileName(process.env.GITHUB_ACTION, new Date(started), randomBytes(3).toString('hex'));
  await publish(report, name, process.env.RUNNER_TEMP);
}
