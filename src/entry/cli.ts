/** The same engine behind a command line: flags named like the action's inputs, summary on stdout. */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { safeLog } from '../report/escape.js';
import { reportJsonText } from '../report/json.js';
import { Inputs } from '../settings/action-names.js';
import { readSettings } from '../settings/settings.js';
import { ConfigError, messageOf } from '../shared/errors.js';
import { systemClock, type Logger } from '../shared/ports.js';
import { lazyGitHub, runOnCluster } from './engine.js';
import { explain } from '../kube/explain.js';
import { chooseOutput, renderOutput } from './output.js';
import { cancelOnSignals } from './signals.js';
import { createStatus } from './status.js';

const HELP = `namespace-teardown: delete namespaces, wait until they are gone, report what blocks them.

Usage: namespace-teardown [--namespaces a,b] [--selector key=value] [options]
       namespace-teardown --scope all-terminating [--selector key=value] [options]
       namespace-teardown --sweep plan|on --sweep-pr-label KEY [--sweep-repository owner/name] [options]

  --namespaces LIST            names separated by commas, spaces or newlines
  --selector SELECTOR          label selector, e.g. preview.example.com/pr=123
  --scope SCOPE                targets (default) | all-terminating: every namespace already Terminating,
                               narrowed by --selector; deletes nothing, never writes to an Active namespace
  --kubeconfig FILE            kubeconfig file (default: KUBECONFIG, ~/.kube/config, in-cluster)
  --context NAME               kubeconfig context
  --no-delete                  only watch namespaces someone else deleted
  --timeout DURATION           e.g. 90s, 5m (default 5m)
  --teardown-order ORDER       custom-resources-first | namespace (default custom-resources-first)
  --custom-resources-timeout DURATION  share of the timeout for custom resources (default half)
  --protected-namespaces LIST  extra names or globs never touched
  --fail-on MODE               leaked | stuck | never (default leaked)
  --force MODE                 off | dry-run | on (default off)
  --force-after DURATION       how long Terminating before forcing (default 1m)
  --force-finalizers GLOB      finalizer glob that may be removed; repeat the flag for more
  --force-finalize-namespace   allow the last resort PUT .../finalize
  --sweep MODE                 off | plan | on: choose the targets by asking GitHub which PRs are closed
  --sweep-pr-label KEY         namespace label whose value is the pull request number
  --sweep-closed-for DURATION  how long a PR must have been closed (default 1h)
  --sweep-max-age DURATION     unlabelled candidates go once older than this (default: never)
  --sweep-repository REPO      owner/name to ask (default: GITHUB_REPOSITORY)
  --keep-label LABEL           a PR with this label keeps its preview in the sweep (default keep-preview;
                               '' for none)
  --max-age DURATION           the sweep removes candidates older than this, e.g. 7d, even while their PR is open
  --gitops-owners POLICY       report (default) | suspend | delete: a Flux or Argo CD owner that would apply a
                               target again goes first; one that also targets other namespaces is left alone
                               The sweep reads the token from GITHUB_TOKEN (GITHUB_API_URL, GITHUB_GRAPHQL_URL for GHES).
  --report FILE                write the JSON report there
  --output FORMAT              text | markdown | json (default: text on a terminal, else markdown);
                               text is coloured only on a terminal and never when NO_COLOR is set
  --help                       this text

Ctrl-C stops the run and prints the state so far (marked cancelled); a second Ctrl-C quits at once.
Exit status: 0 when the check passes, 1 when it fails or is cancelled, 2 on bad input.`;

/**
 * Ctrl-C (SIGINT) or SIGTERM stops the run the way a runner's cancel stops the action: nothing new is sent, and the
 * summary and report show the state so far. A second signal exits at once.
 */
function onCancel(cancel: AbortController, logger: Logger): () => void {
  return cancelOnSignals(
    cancel,
    (signal) =>
      logger.warning(
        `${signal} received: stopping; the summary and report show the state so far (again to quit at once).`,
      ),
    (signal) => process.exit(signal === 'SIGINT' ? 130 : 143),
  );
}

/** Flags taking a value (named like the action's inputs), and those that are a switch. */
const VALUE_FLAGS = [
  'namespaces',
  'selector',
  'scope',
  'kubeconfig',
  'context',
  'timeout',
  'teardown-order',
  'custom-resources-timeout',
  'protected-namespaces',
  'fail-on',
  'force',
  'force-after',
  'sweep',
  'sweep-pr-label',
  'sweep-closed-for',
  'sweep-max-age',
  'sweep-repository',
  'keep-label',
  'max-age',
  'gitops-owners',
  'report',
  'output',
] as const;
const SWITCHES = ['no-delete', 'force-finalize-namespace', 'help'] as const;

const OPTIONS: ParseArgsConfig['options'] = {
  ...Object.fromEntries(VALUE_FLAGS.map((f) => [f, { type: 'string' as const }])),
  ...Object.fromEntries(SWITCHES.map((f) => [f, { type: 'boolean' as const }])),
  // The only flag that may be given more than once.
  'force-finalizers': { type: 'string', multiple: true },
};

function parse(argv: string[]): { values: Record<string, string | boolean | string[] | undefined> } {
  try {
    return parseArgs({
      args: argv,
      options: OPTIONS,
      strict: true,
    });
  } catch (error) {
    throw new ConfigError(`${messageOf(error)}. See --help.`);
  }
}

/** Run the CLI; returns the exit status. */
export async function cli(argv: string[]): Promise<number> {
  const cancel = new AbortController();
  let release = (): void => undefined;
  let stopStatus = (): void => undefined;
  try {
    const { values } = parse(argv);
    if (values.help) {
      process.stdout.write(`${HELP}\n`);
      return 0;
    }
    const read = (name: string): string => {
      if (name === Inputs.delete) return values['no-delete'] ? 'false' : 'true';
      if (name === Inputs.kubeconfig) return '';
      // The token comes from the environment only, never from a flag that `ps` would show.
      if (name === Inputs.githubToken) return process.env.GITHUB_TOKEN ?? '';
      if (name === Inputs.sweepRepository && values[name] === undefined)
        return process.env.GITHUB_REPOSITORY ?? '';
      // action.yml's default; `--keep-label ''` sets none.
      if (name === Inputs.keepLabel && values[name] === undefined) return 'keep-preview';
      const v = values[name];
      if (Array.isArray(v)) return v.join('\n');
      if (typeof v === 'boolean') return String(v);
      return typeof v === 'string' ? v : '';
    };
    const settings = readSettings(read);
    const output = chooseOutput(values.output as string | undefined, process.stdout, process.env);
    const file = values.kubeconfig as string | undefined;
    const content = file !== undefined ? readKubeconfigFile(file) : undefined;
    const status = createStatus(process.stderr, process.env);
    stopStatus = status.done;
    release = onCancel(cancel, status.logger);
    const github = lazyGitHub(settings, process.env, systemClock, status.logger, cancel.signal);
    const report = await runOnCluster(
      settings,
      {
        kubeconfig: content,
        logger: status.logger,
        // Shown above the status line: a plugin's failure must be readable where the message says it is.
        pluginLog: (line) => status.logger.warning(line),
        pluginLogName: 'the log on stderr',
        onProgress: status.onProgress,
        signal: cancel.signal,
        started: systemClock.now(),
        github,
        env: process.env,
      },
      {},
    );
    if (typeof values.report === 'string') writeFileSync(values.report, reportJsonText(report) + '\n');
    status.done();
    process.stdout.write(renderOutput(report, output, values.report as string | undefined));
    return report.failures.length > 0 ? 1 : 0;
  } catch (error) {
    stopStatus();
    process.stderr.write(`namespace-teardown: ${safeLog(explain(error))}\n`);
    return error instanceof ConfigError ? 2 : 1;
  } finally {
    stopStatus();
    release();
  }
}

function readKubeconfigFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `--kubeconfig "${file}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}.`,
      'kubeconfig',
    );
  }
}
