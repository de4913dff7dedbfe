/** Start and stop the control plane's processes by PID, with their output in log files. */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** How to start one process again (the command line and where its output goes). */
export interface ProcessSpec {
  name: string;
  command: string;
  args: string[];
  log: string;
}

/** A free TCP port on 127.0.0.1 (closed again, so the caller's process can bind it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as { port: number }).port;
      server.close(() => resolve(port));
    });
  });
}

/** Start a process with its output appended to its log file; returns its PID. */
export function startProcess(spec: ProcessSpec): number {
  const fd = openSync(spec.log, 'a');
  try {
    // Same process group as the test runner, so a Ctrl-C in the terminal reaches these too.
    const child = spawn(spec.command, spec.args, { stdio: ['ignore', fd, fd] });
    if (child.pid === undefined) throw new Error(`could not start ${spec.command}`);
    child.unref();
    return child.pid;
  } finally {
    closeSync(fd);
  }
}

/** True while `pid` runs the given program (a reused PID or a zombie does not count). */
export function isRunning(pid: number, command: string): boolean {
  const proc = `/proc/${pid}`;
  if (!existsSync(proc)) return false;
  try {
    const stat = readFileSync(join(proc, 'stat'), 'utf8');
    if (/\) Z /.test(stat)) return false;
    return readFileSync(join(proc, 'cmdline'), 'utf8').split('\0')[0] === command;
  } catch {
    return false;
  }
}

/** Send SIGTERM to `pid` if it still runs `command`; nothing else is ever signalled. */
export function signal(pid: number, command: string, sig: NodeJS.Signals = 'SIGTERM'): void {
  if (!isRunning(pid, command)) return;
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone between the check and the signal.
  }
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
export async function stopProcess(pid: number, command: string, graceMs = 10_000): Promise<void> {
  signal(pid, command);
  const deadline = Date.now() + graceMs;
  while (isRunning(pid, command)) {
    if (Date.now() > deadline) {
      signal(pid, command, 'SIGKILL');
      await sleep(100);
      if (Date.now() > deadline + 5_000) return;
    }
    await sleep(50);
  }
}

/** Last lines of a log file, for error messages. */
export function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return '';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
