/**
 * The merge action (merge/action.yml): read every cluster's report, merge them into one answer, publish it, and
 * optionally update the one PR comment. Reads files and writes to GitHub only; never talks to a cluster.
 */
import * as core from '@actions/core';
import { explain } from '../kube/explain.js';
import { mergeFleet } from '../fleet/merge.js';
import { readReports } from '../fleet/read.js';
import { commentOnPullRequest } from '../github/post-comment.js';
import type { FleetReport } from '../model/fleet.js';
import { safeLines } from '../report/escape.js';
import { renderFleetComment } from '../report/fleet-comment.js';
import { publishFleet } from '../report/publish-fleet.js';
import { readMergeSettings } from '../settings/merge-settings.js';
import { systemClock } from '../shared/ports.js';
import { pullRequestOf, readRunContext } from './context.js';
import { coreLogger } from './core-logger.js';
import { lazyGitHub } from './engine.js';

/** Reports not used that the step log names one a line; all of them are counted in the summary and in the report. */
const PROBLEMS_IN_LOG = 20;

/**
 * One log line per cluster and per report not used (the first PROBLEMS_IN_LOG, then their count), so the step log
 * alone says what was merged. Plain lines: the annotations are planned within GitHub's budget (fleet-annotations.ts),
 * so 10,000 unusable files never make 10,000 warnings.
 */
function logFleet(fleet: FleetReport): void {
  for (const c of fleet.clusters)
    coreLogger.info(`${c.name}: ${c.result}${c.source ? ` (${c.source})` : ''}${c.why ? `: ${c.why}` : ''}`);
  for (const p of fleet.problems.slice(0, PROBLEMS_IN_LOG))
    coreLogger.info(`report ${p.source} not used: ${p.problem}`);
  const more = fleet.problems.length - PROBLEMS_IN_LOG;
  if (more > 0)
    coreLogger.info(
      `and ${more.toLocaleString('en-US')} more reports not used: all are named in the JSON report`,
    );
  for (const note of fleet.notes) coreLogger.info(note);
}

/** The merge action's entry point. */
export async function runMerge(): Promise<void> {
  try {
    const settings = readMergeSettings((name) => core.getInput(name));
    if (settings.githubToken) core.setSecret(settings.githubToken);
    const started = systemClock.now();
    const found = await readReports(settings.reports);
    const context = readRunContext(process.env);
    const fleet = mergeFleet({
      expected: settings.clusters,
      found,
      failOn: settings.failOn,
      context,
      now: systemClock.now(),
    });
    logFleet(fleet);
    await publishFleet(fleet, started);
    if (!settings.prComment) return;
    const pr = pullRequestOf(context);
    if (!pr) {
      coreLogger.info('pr-comment: the run was not triggered by a pull request; no comment written.');
      return;
    }
    const github = lazyGitHub(settings, process.env, systemClock, coreLogger);
    await commentOnPullRequest(renderFleetComment(fleet), pr, github, coreLogger, systemClock);
  } catch (error) {
    core.setFailed(safeLines(explain(error)));
  }
}
