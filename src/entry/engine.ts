/**
 * The run on one cluster, step by step, as both entry points tell it (`runOnCluster`), and what it needs from each of
 * them (`Wiring`, `lazyGitHub`).
 */
import type { GitHubLimits } from '../github/client-state.js';
import { apiBaseUrl, createGitHub, graphqlUrl } from '../github/create.js';
import type { GitHubApi } from '../github/port.js';
import type { KubeClient } from '../kube/client.js';
import type { RunContext, RunReport } from '../model/run.js';
import type { Settings } from '../settings/settings.js';
import { systemClock, type Clock, type Logger } from '../shared/ports.js';
import { sweepTargets } from '../sweep/sweep-targets.js';
import { resolveTargets } from '../targets/resolve.js';
import type { TeardownDeps } from '../teardown/delete-and-wait.js';
import { runDeadline, runTeardown, skippedReport } from '../teardown/run-teardown.js';
import { gateRun } from '../sweep/gate.js';
import { closeWithin, connect } from './connect.js';
import { serverUrlOf } from './context.js';
import { namedCluster } from '../fleet/cluster-identity.js';

/** How long closing the cluster connections may take before the result is published anyway. */
const CLOSE_BUDGET_MS = 1_000;

/** What differs between the action and the CLI: where lines go, and what a credential plugin's output is. */
export interface Wiring {
  /** The kubeconfig's text; undefined = KUBECONFIG, ~/.kube/config or in-cluster. */
  kubeconfig: string | undefined;
  logger: Logger;
  /** Where a credential plugin's error output goes (never the summary or the report), and its name in messages. */
  pluginLog: (line: string) => void;
  pluginLogName?: string;
  /** Told about every credential made at run time (the action masks each). */
  onSecret?: (secret: string) => void;
  onProgress?: TeardownDeps['onProgress'];
  signal: AbortSignal;
  /** When the run started (the deadline counts from it). */
  started: number;
  github: () => Promise<GitHubApi>;
  env: NodeJS.ProcessEnv;
}

/**
 * The run on one cluster, in order; both entry points tell it so:
 * 1. connect with the kubeconfig's context (a credential a plugin makes goes to `wiring.onSecret` before use);
 * 2. the gate, on a pull request's or a comment's event: a keep label, or a commenter without write access,
 *    deletes nothing and the run is `skipped`;
 * 3. the targets, decided before the teardown: by the sweep, or by name, selector and scope, whose reads count in
 *    the timeout (asking GitHub does not);
 * 4. the teardown (`runTeardown`): delete in an order that lets live controllers clean up, watch, diagnose, force
 *    what the policy allows, verify;
 * 5. close the connections and every credential plugin, whatever happened, waiting at most a second.
 *
 * Before: `settings` are parsed and checked. After: no connection of this run stays open.
 * Returns the report the publishers render. A throw means no report was made: a `ConfigError` (the kubeconfig) is
 * bad input; any other failure the caller turns into `failedReport`. `race` lets the action give up on a run that
 * does not stop after a cancel.
 */
export async function runOnCluster(
  settings: Settings,
  wiring: Wiring,
  context: RunContext,
  race: (run: Promise<RunReport>) => Promise<RunReport> = (run) => run,
): Promise<RunReport> {
  let kube: KubeClient | undefined;
  try {
    const connected = await connect(wiring.kubeconfig, settings.context, {
      deadline: runDeadline(wiring.started, settings.timeoutMs),
      signal: wiring.signal,
      onSecret: wiring.onSecret,
      log: wiring.pluginLog,
      logName: wiring.pluginLogName,
      // Plan mode: the adapter sends every write as a dry run, whichever step makes it.
      dryRun: settings.dryRun,
    });
    for (const secret of connected.secrets) wiring.onSecret?.(secret);
    kube = connected.kube;
    const deps = {
      kube,
      logger: wiring.logger,
      onProgress: wiring.onProgress,
      clock: systemClock,
      signal: wiring.signal,
      // GitHub is asked within the run's timeout; the grace after it is for finishing the teardown.
      github: async () => (await wiring.github()).until(wiring.started + settings.timeoutMs),
      serverUrl: serverUrlOf(wiring.env),
    };
    const cluster = namedCluster(connected.cluster, settings.clusterName);
    return await race(runEngine(settings, deps, { ...context, cluster }));
  } finally {
    await closeWithin(kube, CLOSE_BUDGET_MS);
  }
}

/**
 * Steps 2 to 4 of `runOnCluster` on a connected cluster: the gate, the targets, the teardown. Tests and benches
 * call it with a cluster and a GitHub of their own.
 */
export async function runEngine(
  settings: Settings,
  deps: TeardownDeps & { github: () => Promise<GitHubApi>; serverUrl: string },
  context: RunContext,
): Promise<RunReport> {
  // The GitHub server the report's links may point at, where the context does not say already (the CLI).
  const known = { serverUrl: deps.serverUrl, ...context };
  const gate = await gateRun(settings, deps, known);
  if (gate?.skipped) {
    deps.logger.info(`nothing deleted: ${gate.skipped.why}`);
    return skippedReport(settings, known, deps.clock, gate);
  }
  const readFrom = settings.sweep ? undefined : deps.clock.now();
  const targets = settings.sweep
    ? await sweepTargets(settings, { ...deps, github: await deps.github() })
    : await resolveTargets(settings, deps.kube);
  const report = await runTeardown(settings, deps, known, targets, readFrom ?? deps.clock.now());
  return gate ? { ...report, lifecycle: { ...report.lifecycle, ...gate } } : report;
}

/**
 * One GitHub client per run, built on first use (so @actions/github loads only when needed); `signal` (the run's
 * cancellation) stops its calls. Each use bounds it by its own deadline (`until`).
 */
export function lazyGitHub(
  settings: Pick<Settings, 'githubToken'>,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  logger: Logger,
  signal?: AbortSignal,
  limits?: GitHubLimits,
): () => Promise<GitHubApi> {
  let client: Promise<GitHubApi> | undefined;
  return () =>
    (client ??= createGitHub({
      token: settings.githubToken ?? '',
      baseUrl: apiBaseUrl(env),
      graphqlUrl: graphqlUrl(env),
      clock,
      logger,
      limits,
      signal,
    }));
}
