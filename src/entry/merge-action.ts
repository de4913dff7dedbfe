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

/** One log line per cluster and per report not used, so the step log alone says what was merged. */
function logFleet(fleet: FleetReport): void {
  for (const c of fleet.clusters)
    coreLogger.info(`${c.name}: ${c.result}${c.source ? ` (${c.source})` : ''}${c.why ? `: ${c.why}` : ''}`);
  for (const p of fleet.problems) coreLogger.warning(`report ${p.source} not used: ${p.problem}`);
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
