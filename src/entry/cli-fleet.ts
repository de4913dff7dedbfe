/**
 * `--context a,b,c`: the teardown against several kubeconfig contexts in one process, each cluster bounded and
 * isolated (src/fleet/isolate.ts), then the merged answer printed as `merge` prints it.
 */
import type { GitHubApi } from '../github/port.js';
import { commentOnPullRequest } from '../github/post-comment.js';
import { explain } from '../kube/explain.js';
import { runIsolated } from '../fleet/isolate.js';
import { mergeFleet } from '../fleet/merge.js';
import type { RunContext } from '../model/run.js';
import { renderFleetComment } from '../report/fleet-comment.js';
import type { Settings } from '../settings/settings.js';
import { ConfigError } from '../shared/errors.js';
import { systemClock, type Logger } from '../shared/ports.js';
import type { Progress } from '../teardown/progress.js';
import { failedReport, runDeadline } from '../teardown/run-teardown.js';
import { pullRequestOf } from './context.js';
import { runOnCluster } from './engine.js';
import { fleetExitCode, renderFleetOutput, writeFleetReport } from './fleet-output.js';
import { EXIT, unreached } from './help.js';
import type { OutputChoice } from './output.js';
import type { Status } from './status.js';

/** Past its own deadline, how long a cluster's run has to close its connections before it is left behind. */
const CLOSE_MARGIN_MS = 5_000;

/** The contexts of a `--context` value: one (the usual run) or several separated by commas, each once. */
export function contextsOf(flag: unknown): string[] {
  if (typeof flag !== 'string') return [];
  const contexts = flag.split(',').map((c) => c.trim());
  // `a,` would run the one context named "a," (there is none): an empty name is a typo, said before any call.
  if (contexts.length > 1 && contexts.includes(''))
    throw new ConfigError(
      `--context is ${JSON.stringify(flag)}: an empty context name; list contexts as a,b,c.`,
      'context',
    );
  const twice = contexts.find((c, i) => contexts.indexOf(c) !== i);
  if (twice !== undefined) throw new ConfigError(`--context names "${twice}" twice.`, 'context');
  return contexts.filter(Boolean);
}

/** What the CLI has parsed and set up before the clusters are called. */
export interface ContextsRun {
  settings: Settings;
  contexts: readonly string[];
  /** The kubeconfig's text; undefined = KUBECONFIG or ~/.kube/config. */
  kubeconfig: string | undefined;
  output: OutputChoice;
  reportPath?: string;
  status: Status;
  signal: AbortSignal;
  github: () => Promise<GitHubApi>;
  /** The workflow the command line runs in, if any (GITHUB_* variables): every cluster's and the fleet's. */
  context: RunContext;
}

/** Each line of a cluster's log, marked with its cluster. */
function prefixed(logger: Logger, name: string): Logger {
  return {
    info: (m) => logger.info(`[${name}] ${m}`),
    warning: (m) => logger.warning(`[${name}] ${m}`),
    debug: (m) => logger.debug(`[${name}] ${m}`),
    group: (title, fn) => logger.group(`[${name}] ${title}`, fn),
  };
}

/** One status line for every cluster: their counts added up, the Terminating ones named with their cluster. */
function combinedProgress(onProgress: (p: Progress) => void): (name: string) => (p: Progress) => void {
  const latest = new Map<string, Progress>();
  return (name) => (p) => {
    latest.set(name, p);
    const all = [...latest].map(([cluster, q]) => ({ cluster, q }));
    onProgress({
      total: all.reduce((n, { q }) => n + q.total, 0),
      gone: all.reduce((n, { q }) => n + q.gone, 0),
      terminating: all.flatMap(({ cluster, q }) =>
        q.terminating.map((t) => ({ ...t, name: `${cluster}/${t.name}` })),
      ),
      waitingOther: all.reduce((n, { q }) => n + q.waitingOther, 0),
      elapsedMs: Math.max(...all.map(({ q }) => q.elapsedMs)),
    });
  };
}

/** Run the teardown in every context at once and print the merged answer; returns the exit status. */
export async function runContexts(run: ContextsRun): Promise<number> {
  if (run.settings.clusterName !== undefined)
    throw new ConfigError(
      '--cluster-name names one cluster; with several contexts each is named by its context.',
      'cluster-name',
    );
  // Every context must be in the kubeconfig before any cluster is called.
  const { loadKubeConfig } = await import('../kube/config.js');
  for (const context of run.contexts)
    loadKubeConfig({ kubeconfig: run.kubeconfig, context, env: process.env });
  const started = systemClock.now();
  const settingsOf = (context: string): Settings => ({ ...run.settings, context, clusterName: context });
  const progress = combinedProgress(run.status.onProgress);
  const jobs = run.contexts.map((name) => ({
    name,
    run: (signal: AbortSignal) => {
      const logger = prefixed(run.status.logger, name);
      return runOnCluster(
        settingsOf(name),
        {
          kubeconfig: run.kubeconfig,
          logger,
          pluginLog: (line) => logger.warning(line),
          pluginLogName: 'the log on stderr',
          onProgress: progress(name),
          signal,
          started,
          github: run.github,
          env: process.env,
        },
        run.context,
      );
    },
  }));
  const results = await runIsolated(jobs, {
    boundMs: runDeadline(started, run.settings.timeoutMs) - started + CLOSE_MARGIN_MS,
    clock: systemClock,
    signal: run.signal,
    failed: (name, why, cancelled) =>
      failedReport(
        settingsOf(name),
        { ...run.context, cluster: { name, context: name } },
        started,
        typeof why === 'string' ? why : explain(why),
        cancelled,
        systemClock,
      ),
  });
  const fleet = mergeFleet({
    expected: run.contexts,
    found: results.map((r) => ({ source: `--context ${r.name}`, checked: { report: r.report } })),
    failOn: run.settings.failOn,
    context: run.context,
    now: systemClock.now(),
  });
  if (run.reportPath) writeFleetReport(fleet, run.reportPath);
  run.status.done();
  process.stdout.write(renderFleetOutput(fleet, run.output, run.reportPath));
  if (run.settings.prComment && !run.signal.aborted) {
    const pr = pullRequestOf(run.context);
    if (pr)
      await commentOnPullRequest(renderFleetComment(fleet), pr, run.github, run.status.logger, systemClock);
    else run.status.logger.info('--pr-comment: no pull request in GITHUB_EVENT_PATH; no comment written.');
  }
  // Not one cluster reached: the same status as one run that could not reach its cluster.
  const none = fleet.clusters.every((c) => c.report !== undefined && unreached(c.report));
  return fleet.failures.length > 0 && none ? EXIT.unreachable : fleetExitCode(fleet);
}
