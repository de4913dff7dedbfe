/** Wiring: read inputs, build the real adapters, run the teardown, publish. The one catch → setFailed. */
import * as core from '@actions/core';
import * as github from '@actions/github';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { explain } from './explain.js';
import type { RunContext } from './outcome.js';
import { systemClock, type Logger } from './ports.js';
import { breakCommands } from './report/escape.js';
import { publish } from './report/publish.js';
import { runTeardown } from './run.js';
import { readSettings } from './settings.js';

/** A Logger on @actions/core; every line is kept from forming a workflow command. */
export const coreLogger: Logger = {
  info: (m) => core.info(breakCommands(m)),
  warning: (m) => core.warning(breakCommands(m)),
  debug: (m) => core.debug(breakCommands(m)),
  group: (title, fn) => core.group(breakCommands(title), fn),
};

function runContext(): RunContext {
  const c = github.context;
  const pr = c.payload.pull_request;
  // `context.repo` throws without GITHUB_REPOSITORY (a run outside Actions): read it only when set.
  const repository = process.env.GITHUB_REPOSITORY ? `${c.repo.owner}/${c.repo.repo}` : undefined;
  return {
    repository,
    ref: c.ref || undefined,
    sha: c.sha || undefined,
    pullRequest: pr
      ? { number: pr.number, title: pr.title as string | undefined, url: pr.html_url }
      : undefined,
    runUrl: c.runId && repository ? `${c.serverUrl}/${repository}/actions/runs/${c.runId}` : undefined,
    workflow: c.workflow || undefined,
    job: c.job || undefined,
  };
}

/** The action's entry point. */
export async function run(): Promise<void> {
  try {
    const settings = readSettings((name) => core.getInput(name));
    // client-node is most of the bundle's load time: load it only once the inputs are known to be good.
    const [{ loadKubeConfig, clusterIdentity }, { createKube }] = await Promise.all([
      import('./kube/config.js'),
      import('./kube/client.js'),
    ]);
    const loaded = loadKubeConfig({
      kubeconfig: settings.kubeconfig,
      context: settings.context,
      env: process.env,
    });
    for (const secret of loaded.secrets) core.setSecret(secret);
    const kube = createKube(loaded.kc);
    const report = await runTeardown(
      settings,
      { kube, logger: coreLogger, clock: systemClock },
      { ...runContext(), cluster: clusterIdentity(loaded.kc) },
    );
    const reportPath = join(
      process.env.RUNNER_TEMP || tmpdir(),
      `namespace-teardown-${process.env.GITHUB_ACTION || 'report'}.json`,
    );
    await publish(report, reportPath);
  } catch (error) {
    core.setFailed(breakCommands(explain(error)));
  }
}
