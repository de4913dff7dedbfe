/** The same engine behind a command line: flags named like the action's inputs, the result on stdout. */
import { writeFileSync } from 'node:fs';
import { commentOnPullRequest } from '../github/post-comment.js';
import { renderComment } from '../report/comment.js';
import { safeLog } from '../report/escape.js';
import { reportJsonText } from '../report/json.js';
import { Inputs } from '../settings/action-names.js';
import { Problems } from '../settings/naming.js';
import { readSettings, type Settings } from '../settings/settings.js';
import { ConfigError } from '../shared/errors.js';
import { systemClock, type Logger } from '../shared/ports.js';
import { explain } from '../kube/explain.js';
import { pullRequestOf, readRunContext, serverUrlOf } from './context.js';
import type { RunContext } from '../model/run.js';
import { lazyGitHub, runOnCluster } from './engine.js';
import { CLI_NAMING } from './flags.js';
import { parseFlags, type FlagValues } from './parse-flags.js';
import { EXIT, exitStatus, helpText, wrapIndented } from './help.js';
import pkg from '../../package.json' with { type: 'json' };
import { chooseOutput, renderOutput, terminalWidth, type OutputChoice } from './output.js';
import { cancelOnSignals } from './signals.js';
import { createStatus, type Status } from './status.js';
import { readKubeconfigFile } from './connect.js';
import { contextsOf, runContexts } from './cli-fleet.js';
import { mergeCommand } from './cli-merge.js';
import { rbacCommand } from './cli-rbac.js';

/** The exit status of a run stopped by a signal, as shells report it: 128 + the signal's number. */
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGTERM: 143 };

/**
 * Ctrl-C (SIGINT) or SIGTERM stops the run the way a runner's cancel stops the action: nothing new is sent, and the
 * summary and report show the state so far. A second signal exits at once. Returns the stop function and the
 * signal that came, if one did.
 */
function onCancel(
  cancel: AbortController,
  logger: Logger,
): { release: () => void; signal: () => string | undefined } {
  let got: string | undefined;
  const release = cancelOnSignals(
    cancel,
    (signal) => {
      got = signal;
      logger.warning(
        `${signal} received: stopping; the result shows the state so far (again to quit at once).`,
      );
    },
    (signal) => process.exit(SIGNAL_EXIT[signal] ?? 1),
  );
  return { release, signal: () => got };
}

/** The input `name` as the flags give it (the token only from the environment: `ps` would show a flag). */
function reader(values: FlagValues, env: NodeJS.ProcessEnv): (name: string) => string {
  return (name) => {
    if (name === Inputs.delete) return values['no-delete'] ? 'false' : 'true';
    if (name === Inputs.kubeconfig) return '';
    if (name === Inputs.githubToken) return env.GITHUB_TOKEN ?? '';
    if (name === Inputs.sweepRepository && values[name] === undefined) return env.GITHUB_REPOSITORY ?? '';
    // action.yml's default; `--keep-label ''` sets none.
    if (name === Inputs.keepLabel && values[name] === undefined) return 'keep-preview';
    const v = values[name];
    if (Array.isArray(v)) return v.join('\n');
    if (typeof v === 'boolean') return String(v);
    return v ?? '';
  };
}

interface Prepared {
  settings: Settings;
  output: OutputChoice;
  kubeconfig: string | undefined;
}

/** Every flag checked before any cluster call; every problem found is reported at once. */
function prepare(values: FlagValues, problems: Problems): Prepared {
  const settings = problems.take(() => readSettings(reader(values, process.env), CLI_NAMING), undefined);
  const output = problems.take(
    () => ({
      ...chooseOutput(values.output as string | undefined, process.stdout, process.env),
      showLabels: values['show-labels'] === true,
    }),
    undefined,
  );
  const file = values.kubeconfig as string | undefined;
  const kubeconfig =
    file !== undefined ? problems.take(() => readKubeconfigFile(file), undefined) : undefined;
  problems.throwAny();
  return { settings: settings!, output: output!, kubeconfig };
}

/** Run the CLI; returns the exit status (EXIT_STATUS in help.ts): 0 passed, 1 failed, 2 bad input, 3 cluster not reached, 130 or 143 a signal. */
export async function cli(argv: string[]): Promise<number> {
  const cancel = new AbortController();
  let stopped: ReturnType<typeof onCancel> | undefined;
  let status: Status | undefined;
  try {
    if (argv[0] === 'merge') return await mergeCommand(argv.slice(1));
    if (argv[0] === 'rbac') return await rbacCommand(argv.slice(1));
    const problems = new Problems();
    const values = parseFlags(argv, problems);
    if (values.help) {
      process.stdout.write(`${helpText(terminalWidth(process.stdout, process.env))}\n`);
      return 0;
    }
    if (values.version) {
      process.stdout.write(`namespace-teardown ${pkg.version}\n`);
      return 0;
    }
    const { settings, output, kubeconfig } = prepare(values, problems);
    status = createStatus(process.stderr, process.env);
    stopped = onCancel(cancel, status.logger);
    const github = lazyGitHub(settings, process.env, systemClock, status.logger, cancel.signal);
    const context = withGitHubServer(readRunContext(process.env), settings, process.env);
    const contexts = contextsOf(values.context);
    if (contexts.length > 1) {
      const code = await runContexts({
        settings,
        contexts,
        kubeconfig,
        output,
        reportPath: values.report as string | undefined,
        status,
        signal: cancel.signal,
        github,
        context,
      });
      const signal = stopped.signal();
      return signal ? (SIGNAL_EXIT[signal] ?? 1) : code;
    }
    const report = await runOnCluster(
      settings,
      {
        kubeconfig,
        logger: status.logger,
        // Shown above the status line: a plugin's failure must be readable where the message says it is.
        pluginLog: (line) => status!.logger.warning(line),
        pluginLogName: 'the log on stderr',
        onProgress: status.onProgress,
        signal: cancel.signal,
        started: systemClock.now(),
        github,
        env: process.env,
      },
      context,
    );
    if (typeof values.report === 'string') writeFileSync(values.report, reportJsonText(report) + '\n');
    status.done();
    process.stdout.write(renderOutput(report, output, values.report as string | undefined));
    if (settings.prComment && !cancel.signal.aborted) {
      const pr = pullRequestOf(context);
      if (pr) await commentOnPullRequest(renderComment(report), pr, github, status.logger, systemClock);
      else status.logger.info('--pr-comment: no pull request in GITHUB_EVENT_PATH; no comment written.');
    }
    const signal = stopped.signal();
    if (signal) return SIGNAL_EXIT[signal] ?? EXIT.failed;
    return exitStatus(report);
  } catch (error) {
    status?.done();
    if (!(error instanceof ConfigError)) {
      process.stderr.write(`namespace-teardown: ${safeLog(explain(error))}\n`);
      return EXIT.failed;
    }
    // One problem a line, as the flags were given; on a terminal each wrapped to its width, never mid-word.
    const text = `namespace-teardown: ${error.message}\nSee namespace-teardown --help.`;
    const lines = text.split('\n').map((l) => safeLog(l));
    const width = process.stderr.isTTY ? process.stderr.columns : undefined;
    process.stderr.write(`${(width ? lines.flatMap((l) => wrapIndented(l, width)) : lines).join('\n')}\n`);
    return EXIT.badInput;
  } finally {
    status?.done();
    stopped?.release();
  }
}

/** The GitHub server of a run that asks GitHub (the sweep, the comment), where the environment names none. */
function withGitHubServer(context: RunContext, settings: Settings, env: NodeJS.ProcessEnv): RunContext {
  const asks = settings.sweep !== undefined || settings.prComment;
  return context.serverUrl || !asks ? context : { ...context, serverUrl: serverUrlOf(env) };
}
