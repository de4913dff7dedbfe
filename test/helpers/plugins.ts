/** Exec credential plugins for tests: small Node scripts run as the kubeconfig's `exec` command. */
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp.js';

/** A directory for one test's plugins and the files they write (removed after the test file). */
export function pluginDir(): string {
  return tempDir('nt-plugin-');
}

/** An executable script `name` in `dir` running `body` as an ES module under this Node; returns its path. */
export function writePlugin(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!${process.execPath}\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

/** A plugin body that starts a grandchild (in the plugin's process group), writes both pids to `pidFile`, then `then`. */
export function withGrandchild(pidFile: string, then: string): string {
  return [
    "import { spawn } from 'node:child_process';",
    "import { writeFileSync } from 'node:fs';",
    `const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });`,
    // Not waited for, as a helper left running would not be: the plugin itself may exit.
    'child.unref();',
    `writeFileSync(${JSON.stringify(pidFile)}, JSON.stringify([process.pid, child.pid]));`,
    then,
  ].join('\n');
}

/** The fake cluster's kubeconfig with its user replaced by an exec plugin (and `extraUsers` appended). */
export function execKubeconfig(
  kubeconfig: string,
  command: string,
  args: string[] = [],
  extraUsers = '',
): string {
  return (
    kubeconfig.replace(
      /user:\n {4}token: .*/,
      [
        'user:',
        '    exec:',
        '      apiVersion: client.authentication.k8s.io/v1beta1',
        `      command: ${JSON.stringify(command)}`,
        `      args: ${JSON.stringify(args)}`,
        '      interactiveMode: Never',
      ].join('\n'),
    ) + extraUsers
  );
}

/** The pids a plugin wrote, or [] when it never ran. */
export function pidsIn(file: string): number[] {
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as number[]) : [];
}

/** Whether `pid` is a running process (a zombie, exited and not yet reaped, is not running). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    // Field 3 of /proc/PID/stat is the state; Z = exited, waiting to be reaped.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] !== 'Z';
  } catch {
    return true;
  }
}

/** The pids of `pids` still running after up to `ms` (a killed process takes a moment to go). */
export async function stillRunning(pids: number[], ms = 2_000): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const left = pids.filter(running);
    if (left.length === 0 || Date.now() >= until) return left;
    await new Promise((r) => setTimeout(r, 50));
  }
}
