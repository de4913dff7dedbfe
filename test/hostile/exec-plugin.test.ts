/**
 * Exec credential plugins run as a runner runs the action (node dist/index.js) and as a person runs the CLI: a
 * failing plugin's error output reaches the log only (masked, the last lines, each cut), never the summary, the
 * annotations or the report; and no plugin process, nor anything it started, outlives the run.
 */
import { jest } from '@jest/globals';
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle, runCli, runMs } from '../helpers/harness.js';
import {
  execKubeconfig,
  pidsIn,
  pluginDir,
  stillRunning,
  withGrandchild,
  writePlugin,
} from '../helpers/plugins.js';

jest.setTimeout(60_000);

/** A value shaped like a service-account token, kept in a file the plugin reads. */
const TOKEN_FILE_CONTENT = 'eyJhbGciOiJSUzI1NiJ9.c2VjcmV0LWZyb20tdGhlLXRva2VuLWZpbGU.c2lnbmF0dXJlLXZhbHVl';
/** A credential the kubeconfig itself holds (another user's token): known, so masked wherever it shows. */
const KNOWN_TOKEN = 'kubeconfig-known-credential-0123456789';

/** A plugin that reads the token file, prints 8 lines of error output (the token in the 7th) and exits 3. */
function failingPlugin(dir: string): { command: string; args: string[]; pidFile: string } {
  const tokenFile = join(dir, 'token');
  writeFileSync(tokenFile, `${TOKEN_FILE_CONTENT}\n`);
  const pidFile = join(dir, 'pids.json');
  const command = writePlugin(
    dir,
    'cloud-auth',
    withGrandchild(
      pidFile,
      [
        "import { readFileSync } from 'node:fs';",
        "const token = readFileSync(process.argv[3], 'utf8').trim();",
        'for (let i = 1; i <= 5; i++) process.stderr.write(`cloud-auth: step ${i}\\n`);',
        `process.stderr.write('cloud-auth: the cached credential ${KNOWN_TOKEN} is stale\\n');`,
        'process.stderr.write(`cloud-auth: refusing token ${token}\\n`);',
        "process.stderr.write(`cloud-auth: ${'x'.repeat(500)}\\n`);",
        'process.exit(3);',
      ].join('\n'),
    ),
  );
  return { command, args: ['--token-file', tokenFile], pidFile };
}

const OTHER_USER = ['- name: other', '  user:', `    token: ${KNOWN_TOKEN}`, ''].join('\n');

/** Workflow-command lines: annotations and the like. */
const commands = (stdout: string): string[] =>
  stdout.split('\n').filter((l) => /^::(error|warning|notice)/.test(l));

/** The plugin's lines as the log shows them. */
const shown = (log: string): string[] => log.split('\n').filter((l) => l.includes('  | '));

function expectLogCut(log: string): void {
  const lines = shown(log).map((l) => l.slice(l.indexOf('  | ') + 4));
  expect(lines).toEqual([
    'cloud-auth: step 4',
    'cloud-auth: step 5',
    'cloud-auth: the cached credential *** is stale',
    `cloud-auth: refusing token ${TOKEN_FILE_CONTENT}`,
    `cloud-auth: ${'x'.repeat(187)}…`,
  ]);
  expect(log).toContain(
    'exec credential plugin cloud-auth exited with status 3; the last 5 line(s) of its error output:',
  );
}

describe('a failing exec credential plugin (node dist/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
  });
  afterEach(() => cluster.stop());

  test('says which plugin and its status; its output goes to the step log only, masked and cut', async () => {
    const { kubeconfig } = await cluster.start();
    const dir = pluginDir();
    const plugin = failingPlugin(dir);
    const run = await runBundle({
      namespaces: 'pr-1',
      kubeconfig: execKubeconfig(kubeconfig, plugin.command, plugin.args, OTHER_USER),
      timeout: '10s',
    });
    const reportText = readFileSync(run.outputs.report!, 'utf8');
    const said = 'the exec credential plugin cloud-auth exited with status 3; its output is in the step log';
    expect(run.report?.targets[0]?.note).toContain(said);
    expect(run.summary).toContain(said);
    expect(commands(run.stdout).join('\n')).toContain(said);
    for (const secret of [TOKEN_FILE_CONTENT, KNOWN_TOKEN, '--token-file', join(dir, 'token'), 'step 4']) {
      expect(run.summary).not.toContain(secret);
      expect(reportText).not.toContain(secret);
      expect(commands(run.stdout).join('\n')).not.toContain(secret);
    }
    expect(run.stdout).toContain(`::add-mask::${KNOWN_TOKEN}`);
    expect(run.stdout.replaceAll(`::add-mask::${KNOWN_TOKEN}`, '')).not.toContain(KNOWN_TOKEN);
    expectLogCut(run.stdout);
    // The plugin ran once for the run, not once per request.
    expect(shown(run.stdout).filter((l) => l.includes('refusing token'))).toHaveLength(1);
    expect(cluster.requests).toEqual([]);
    // What it started in its process group is gone with the run.
    expect(pidsIn(plugin.pidFile)).toHaveLength(2);
    expect(await stillRunning(pidsIn(plugin.pidFile))).toEqual([]);
  });
});

describe('no plugin process outlives the run (node dist/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
  });
  afterEach(() => cluster.stop());

  test('success: a plugin that answers and leaves a helper running', async () => {
    const { kubeconfig, token } = await cluster.start();
    const dir = pluginDir();
    const pidFile = join(dir, 'pids.json');
    const credential = {
      apiVersion: 'client.authentication.k8s.io/v1beta1',
      kind: 'ExecCredential',
      status: { token },
    };
    const command = writePlugin(
      dir,
      'token-helper',
      withGrandchild(pidFile, `process.stdout.write(${JSON.stringify(JSON.stringify(credential))});`),
    );
    const run = await runBundle({
      namespaces: 'pr-1',
      kubeconfig: execKubeconfig(kubeconfig, command),
      timeout: '20s',
    });
    expect(run.outputs.result).toBe('clean');
    expect(pidsIn(pidFile)).toHaveLength(2);
    expect(await stillRunning(pidsIn(pidFile))).toEqual([]);
  });

  test('deadline: a plugin that never answers is stopped, with its child, and named', async () => {
    const { kubeconfig } = await cluster.start();
    const dir = pluginDir();
    const pidFile = join(dir, 'pids.json');
    const command = writePlugin(dir, 'slow-auth', withGrandchild(pidFile, 'setInterval(() => {}, 1000);'));
    const run = await runBundle({
      namespaces: 'pr-1',
      kubeconfig: execKubeconfig(kubeconfig, command),
      timeout: '5s',
    });
    expect(run.outputs.result).toBe('error');
    expect(run.report?.targets[0]?.note).toMatch(
      /exec credential plugin slow-auth.*(took until|before) the run's deadline/,
    );
    expect(runMs(run)).toBeLessThan(14_000);
    expect(pidsIn(pidFile)).toHaveLength(2);
    expect(await stillRunning(pidsIn(pidFile))).toEqual([]);
  });

  test('cancel: SIGTERM while the plugin hangs', async () => {
    const { kubeconfig } = await cluster.start();
    const dir = pluginDir();
    const pidFile = join(dir, 'pids.json');
    const command = writePlugin(dir, 'slow-auth', withGrandchild(pidFile, 'setInterval(() => {}, 1000);'));
    const onStart = (child: ChildProcess): void => {
      const timer = setInterval(() => {
        if (!existsSync(pidFile)) return;
        clearInterval(timer);
        child.kill('SIGTERM');
      }, 50);
      child.on('exit', () => clearInterval(timer));
    };
    const run = await runBundle(
      { namespaces: 'pr-1', kubeconfig: execKubeconfig(kubeconfig, command), timeout: '5m' },
      {},
      { onStart },
    );
    expect(run.report?.cancelled).toBe(true);
    expect(runMs(run)).toBeLessThan(15_000);
    expect(pidsIn(pidFile)).toHaveLength(2);
    expect(await stillRunning(pidsIn(pidFile))).toEqual([]);
  });
});

describe('the same in the CLI (node dist/cli/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
  });
  afterEach(() => cluster.stop());

  test('a failing plugin: its output on stderr only, masked and cut; the summary and report name it', async () => {
    const { kubeconfig } = await cluster.start();
    const dir = pluginDir();
    const plugin = failingPlugin(dir);
    writeFileSync(join(dir, 'config'), execKubeconfig(kubeconfig, plugin.command, plugin.args, OTHER_USER));
    const report = join(dir, 'report.json');
    const run = await runCli([
      '--kubeconfig',
      join(dir, 'config'),
      '--namespaces',
      'pr-1',
      '--target-label',
      'none',
      '--timeout',
      '10s',
      '--report',
      report,
    ]);
    expect(run.code).toBe(1);
    const said =
      'the exec credential plugin cloud-auth exited with status 3; its output is in the log on stderr';
    // The text wraps in its column: read it with the line breaks taken out.
    expect(run.stdout.replace(/\s+/g, ' ')).toContain(said);
    expect(readFileSync(report, 'utf8')).toContain(said);
    for (const secret of [TOKEN_FILE_CONTENT, KNOWN_TOKEN, '--token-file', 'step 4']) {
      expect(run.stdout).not.toContain(secret);
      expect(readFileSync(report, 'utf8')).not.toContain(secret);
    }
    expect(run.stderr).not.toContain(KNOWN_TOKEN);
    expectLogCut(run.stderr);
    expect(await stillRunning(pidsIn(plugin.pidFile))).toEqual([]);
  });

  test('a plugin that never answers is stopped at the deadline, with its child', async () => {
    const { kubeconfig } = await cluster.start();
    const dir = pluginDir();
    const pidFile = join(dir, 'pids.json');
    const command = writePlugin(dir, 'slow-auth', withGrandchild(pidFile, 'setInterval(() => {}, 1000);'));
    writeFileSync(join(dir, 'config'), execKubeconfig(kubeconfig, command));
    const run = await runCli([
      '--kubeconfig',
      join(dir, 'config'),
      '--namespaces',
      'pr-1',
      '--target-label',
      'none',
      '--timeout',
      '5s',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout.replace(/\s+/g, ' ')).toMatch(/exec credential plugin slow-auth/);
    expect(pidsIn(pidFile)).toHaveLength(2);
    expect(await stillRunning(pidsIn(pidFile))).toEqual([]);
  });
});
