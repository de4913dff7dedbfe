/** The action's run in the worker thread, step by step (`run`), then each step's wiring for the action. */
import * as core from '@actions/core';
import { ConfigError } from '../shared/errors.js';
import { explain } from '../kube/explain.js';
import { cancelOnSignals } from './signals.js';
import { CANCEL_BUDGET_MS } from './budgets.js';
import { parentPort } from 'node:worker_threads';
import type { EngineMessage, SupervisorMessage } from './supervise.js';
import { markPublished } from './published-flag.js';
import { pullRequestOf, readRunContext } from './context.js';
import { lazyGitHub, runOnCluster } from './engine.js';
import type { GitHubApi } from '../github/port.js';
import { answerComment, commentOnPullRequest } from '../github/post-comment.js';
import type { RunContext, RunReport } from '../model/run.js';
import { systemClock } from '../shared/ports.js';
import { safeLines, safeLog } from '../report/escape.js';
import { coreLogger } from './core-logger.js';
import { namedContext } from '../fleet/cluster-identity.js';
import { publishRun } from '../report/publish.js';
import { renderComment } from '../report/comment.js';
import { failedReport } from '../teardown/run-teardown.js';
import { readSettings, type Settings } from '../settings/settings.js';

export { CANCEL_BUDGET_MS };

/**
 * The action's run, in order:
 * 1. the inputs, every one checked before any cluster call: a bad one fails the step, naming it, with no report;
 * 2. what the run is for: the event, its pull request or comment, and the cluster's name;
 * 3. the run on the cluster (`runOnCluster`): connect, the gate, the targets, then the teardown (delete, watch,
 *    diagnose, force what the policy allows, verify); whatever fails there is still a report;
 * 4. publish: the job summary, annotations, outputs and the report file; the step fails here when the check does;
 * 5. answer on the pull request: the comment, or the reaction to the `/teardown` comment that asked.
 *
 * A cancel (SIGINT/SIGTERM, passed on by the main thread) stops the run, which then publishes the state so far.
 * After 4 the result stands: a later failure is a warning, never a second verdict, and the main thread is told so.
 */
export async function run(): Promise<void> {
  const cancel = new AbortController();
  const release = onCancel(cancel);
  let published = false;
  try {
    const settings = readSettings((name) => core.getInput(name));
    if (settings.githubToken) core.setSecret(settings.githubToken);
    const started = systemClock.now();
    // Named before connecting: a run that cannot connect still says which cluster it was for.
    const context = namedContext(readRunContext(process.env), settings.clusterName);
    const github = lazyGitHub(settings, process.env, systemClock, coreLogger, cancel.signal);
    const report = await teardown(settings, cancel, started, context, github);
    await publishRun(report, started);
    published = true;
    tellPublished();
    await answer(settings, report, cancel.signal, github);
  } catch (error) {
    if (published) core.warning(`after the report was published: ${safeLines(explain(error))}`);
    else core.setFailed(safeLines(explain(error)));
  } finally {
    release();
    // The run ended as it should (published, or refused its input): the main thread has nothing to add.
    parentPort?.postMessage({ type: 'done' } satisfies EngineMessage);
  }
}

/** At once after publishing: from here on the main thread never publishes, whatever becomes of this thread. */
function tellPublished(): void {
  const exitCode = Number(process.exitCode ?? 0);
  markPublished(exitCode);
  parentPort?.postMessage({ type: 'published', exitCode } satisfies EngineMessage);
}

/**
 * Step 3 of `run`: the run on the cluster with the action's wiring (credentials masked as they are made). Any failure
 * after the inputs were accepted still makes a report; a run that does not stop in time after a cancel, too.
 */
async function teardown(
  settings: Settings,
  cancel: AbortController,
  started: number,
  context: RunContext,
  github: () => Promise<GitHubApi>,
): Promise<RunReport> {
  // Exec plugins and auth providers make credentials at run time: mask each new one once.
  const masked = new Set<string>();
  const mask = (secret: string): void => {
    if (masked.has(secret)) return;
    masked.add(secret);
    core.setSecret(secret);
  };
  const wiring = {
    kubeconfig: settings.kubeconfig,
    logger: coreLogger,
    // A plugin's error output may hold what it read: the step log only (masked), never the summary or report.
    pluginLog: (line: string) => coreLogger.info(line),
    onSecret: mask,
    signal: cancel.signal,
    started,
    github,
    env: process.env,
  };
  const late = (): RunReport =>
    failedReport(
      settings,
      context,
      started,
      'the run did not stop in time after cancellation',
      true,
      systemClock,
    );
  try {
    return await runOnCluster(settings, wiring, context, async (run) => {
      const result = await Promise.race([run, budgetAfter(cancel.signal)]);
      return result === 'late' ? late() : result;
    });
  } catch (error) {
    // A bad kubeconfig is bad input: one clear line, no result to report.
    if (error instanceof ConfigError) throw error;
    return failedReport(settings, context, started, explain(error), cancel.signal.aborted, systemClock);
  }
}

/**
 * After publishing: a comment that asked for the teardown gets its reaction and the pull-request comment as the
 * answer; otherwise the pull-request comment when `pr-comment` is on.
 */
async function answer(
  settings: Settings,
  report: RunReport,
  signal: AbortSignal,
  github: () => Promise<GitHubApi>,
): Promise<void> {
  if (signal.aborted) return;
  const pr = pullRequestOf(report.context);
  const comment = report.context.comment;
  if (comment) {
    // A comment that did not ask (another word, an edit, a bot) gets no answer: the thread stays quiet.
    if (!pr || !report.lifecycle?.request) return;
    const ok = !report.lifecycle.skipped && report.failures.length === 0;
    await answerComment(
      renderComment(report),
      pr,
      { id: comment.id, kind: comment.kind, ok },
      github,
      coreLogger,
      systemClock,
    );
  } else if (settings.prComment) {
    if (pr) await commentOnPullRequest(renderComment(report), pr, github, coreLogger, systemClock);
    else coreLogger.info('pr-comment: the run was not triggered by a pull request; no comment written.');
  }
}

/**
 * Turn SIGINT/SIGTERM (how the runner cancels a step) into an abort of the run: in the worker thread the main thread
 * passes them on (signals reach only the main thread).
 */
function onCancel(cancel: AbortController): () => void {
  const stop = (signal: string): void => {
    if (cancel.signal.aborted) return;
    core.warning(
      `${safeLog(signal)} received: stopping; the summary, outputs and report show the state so far.`,
    );
    cancel.abort();
  };
  const port = parentPort;
  if (!port) return cancelOnSignals(cancel, stop);
  const onMessage = (m: SupervisorMessage): void => {
    if (m?.type === 'cancel') stop(m.signal);
  };
  port.on('message', onMessage);
  // The port must not keep the thread alive once the run is over.
  port.unref();
  return () => port.off('message', onMessage);
}

/** Resolves `CANCEL_BUDGET_MS` after `signal` aborts (never, if it does not). */
function budgetAfter(signal: AbortSignal): Promise<'late'> {
  return new Promise((resolve) =>
    signal.addEventListener('abort', () => setTimeout(() => resolve('late'), CANCEL_BUDGET_MS).unref(), {
      once: true,
    }),
  );
}
