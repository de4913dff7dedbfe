/** Wiring: read inputs, build the real adapters, run the teardown, publish. The one catch → setFailed. */
import * as core from '@actions/core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explain } from './explain.js';
import { readRunContext, serverUrlOf } from './context.js';
import { lazyGitHub, runEngine } from './engine.js';
import { commentOnPullRequest } from '../github/post-comment.js';
import { systemClock, type Logger } from '../shared/ports.js';
import { breakCommands } from '../report/escape.js';
import { publish } from '../report/publish.js';
import { readSettings } from '../settings/settings.js';

/** A Logger on @actions/core; every line is kept from forming a workflow command. */
export const coreLogger: Logger = {
  info: (m) => core.info(breakCommands(m)),
  warning: (m) => core.warning(breakCommands(m)),
  debug: (m) => core.debug(breakCommands(m)),
  group: (title, fn) => core.group(breakCommands(title), fn),
};

/** The action's entry point. */
export async function run(): Promise<void> {
  try {
    const settings = readSettings((name) => core.getInput(name));
    if (settings.githubToken) core.setSecret(settings.githubToken);
    // client-node is most of the bundle's load time: load it only once the inputs are known to be good.
    const [{ loadKubeConfig, clusterIdentity }, { createKube }] = await Promise.all([
      import('../kube/config.js'),
      import('../kube/client.js'),
    ]);
    const loaded = loadKubeConfig({
      kubeconfig: settings.kubeconfig,
      context: settings.context,
      env: process.env,
    });
    for (const secret of loaded.secrets) core.setSecret(secret);
    const kube = createKube(loaded.kc);
    const context = readRunContext(process.env);
    const github = lazyGitHub(settings, process.env, systemClock, coreLogger);
    const report = await runEngine(
      settings,
      { kube, logger: coreLogger, clock: systemClock, github, serverUrl: serverUrlOf(process.env) },
      { ...context, cluster: clusterIdentity(loaded.kc) },
    );
    const reportPath = join(
      process.env.RUNNER_TEMP || tmpdir(),
      `namespace-teardown-${process.env.GITHUB_ACTION || 'report'}.json`,
    );
    await publish(report, reportPath);
    if (settings.prComment) await commentOnPullRequest(report, context, github, coreLogger);
  } catch (error) {
    core.setFailed(breakCommands(explain(error)));
  }
}
