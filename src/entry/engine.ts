/** Which engine runs: the sweep (targets chosen by asking GitHub) or the named targets and selector. */
import { apiBaseUrl, createGitHub, graphqlUrl, type GitHubLimits } from '../github/client.js';
import type { GitHubApi } from '../github/port.js';
import type { Settings } from '../settings/settings.js';
import type { Clock, Logger } from '../shared/ports.js';
import { runSweep } from '../sweep/run.js';
import type { TeardownDeps } from '../teardown/delete-and-wait.js';
import type { RunContext, RunReport } from '../model/run.js';
import { runTeardown } from '../teardown/run.js';

/** One GitHub client per run, built on first use (so @actions/github loads only when needed). */
export function lazyGitHub(
  settings: Pick<Settings, 'githubToken'>,
  env: NodeJS.ProcessEnv,
  clock: Clock,
  logger: Logger,
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
    }));
}

/** Run the sweep when it is on or planned, else the teardown of the named targets. */
export async function runEngine(
  settings: Settings,
  deps: TeardownDeps & { github: () => Promise<GitHubApi>; serverUrl: string },
  context: RunContext,
): Promise<RunReport> {
  if (!settings.sweep) return runTeardown(settings, deps, context);
  return runSweep(settings, { ...deps, github: await deps.github() }, context);
}
