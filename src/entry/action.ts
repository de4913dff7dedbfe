/** Wiring: read inputs, build the real adapters, run the teardown, publish. The one catch → setFailed. */
import * as core from '@actions/core';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from './connect.js';
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
    const { kube, cluster, secrets } = await connect(settings.kubeconfig, settings.context);
    for (const secret of secrets) core.setSecret(secret);
    const context = readRunContext(process.env);
    const github = lazyGitHub(settings, process.env, systemClock, coreLogger);
    const report = await runEngine(
      settings,
      { kube, logger: coreLogger, clock: systemClock, github, serverUrl: serverUrlOf(process.env) },
      { ...context, cluster },
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
