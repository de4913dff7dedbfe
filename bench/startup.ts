/** Scenario 4: start-up of the bundle `node dist/index.js`, and its size. Reads dist/, never builds it. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { gzipSync } from 'node:zlib';

export interface StartupResult {
  bundle: string;
  /** Undefined when dist/index.js is missing. */
  bytes?: number;
  gzipBytes?: number;
  /** Other .js files next to it: chunks the entry loads lazily (ncc code splitting), with their sizes. */
  chunks: { name: string; bytes: number; gzipBytes: number }[];
  cliBytes?: number;
  node: string;
  /** `node -e 0`: Node's own start-up, the part that is not ours. */
  nodeBaselineMs: number[];
  /** INPUT_NAMESPACES=Bad_Name: load the bundle, parse inputs, fail the step, exit. */
  badInputMs: number[];
  badInputOk: boolean;
  /** Valid inputs, server = a local TCP port: spawn → the first connection to the API server. */
  firstRequestMs: number[];
}

export interface Child {
  code: number | null;
  stdout: string;
  ms: number;
}

/** Spawn Node with `args`: its exit code, its stdout (when `stdout`, else ignored), spawn → exit; killed after 10 min. */
export function timeChild(args: string[], env: NodeJS.ProcessEnv, stdout = true): Promise<Child> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, {
      env,
      stdio: ['ignore', stdout ? 'pipe' : 'ignore', 'ignore'],
    });
    const guard = setTimeout(() => child.kill('SIGKILL'), 10 * 60_000);
    let out = '';
    child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout: out, ms: performance.now() - t0 });
    });
  });
}

/** What every child gets from the environment: PATH, and `home` as HOME and RUNNER_TEMP. */
export function baseEnv(home: string): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: home, RUNNER_TEMP: home };
}

/**
 * A run of an action's bundle as a runner starts it, in `home`: the empty job summary and output files it writes to,
 * the file the RSS probe writes the peak to, and the environment naming them.
 */
export function runnerFiles(home: string): {
  files: { summary: string; output: string; rss: string };
  env: NodeJS.ProcessEnv;
} {
  const files = {
    summary: join(home, 'summary.md'),
    output: join(home, 'output.txt'),
    rss: join(home, 'rss'),
  };
  writeFileSync(files.summary, '');
  writeFileSync(files.output, '');
  return {
    files,
    env: {
      ...baseEnv(home),
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_OUTPUT: files.output,
      NT_RSS_FILE: files.rss,
    },
  };
}

/** Spawn with valid inputs against a TCP listener; resolve at its first connection, then kill the child. */
async function timeFirstRequest(bundle: string, home: string): Promise<number> {
  const sockets: Socket[] = [];
  let onConnect: () => void = () => undefined;
  const server = createServer((socket) => {
    sockets.push(socket);
    onConnect();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const kubeconfig = [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: bench',
    '  cluster:',
    `    server: https://127.0.0.1:${port}`,
    '    insecure-skip-tls-verify: true',
    'contexts:',
    '- name: bench',
    '  context: { cluster: bench, user: bench }',
    'current-context: bench',
    'users:',
    '- name: bench',
    '  user: { token: not-a-secret }',
    '',
  ].join('\n');
  const env = {
    ...baseEnv(home),
    INPUT_NAMESPACES: 'preview-1',
    INPUT_KUBECONFIG: kubeconfig,
    INPUT_TIMEOUT: '30s',
    'INPUT_TARGET-LABEL': 'none',
  };
  const t0 = performance.now();
  const child = spawn(process.execPath, [bundle], { env, stdio: 'ignore' });
  try {
    return await new Promise<number>((resolve, reject) => {
      onConnect = () => resolve(performance.now() - t0);
      child.on('exit', (code) => reject(new Error(`dist/index.js exited ${code} before it connected`)));
      setTimeout(() => reject(new Error('dist/index.js did not connect within 20 s')), 20_000).unref();
    });
  } finally {
    child.kill('SIGKILL');
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function runStartup(
  root: string,
  reps: number,
  log: (line: string) => void,
): Promise<StartupResult> {
  const bundle = join(root, 'dist', 'index.js');
  const result: StartupResult = {
    bundle: 'dist/index.js',
    node: process.version,
    nodeBaselineMs: [],
    badInputMs: [],
    badInputOk: true,
    firstRequestMs: [],
    chunks: [],
  };
  const home = mkdtempSync(join(tmpdir(), 'nt-bench-startup-'));
  try {
    for (let i = 0; i < reps; i++)
      result.nodeBaselineMs.push((await timeChild(['-e', '0'], baseEnv(home))).ms);
    if (!existsSync(bundle)) {
      log('start-up: dist/index.js is missing (run npm run build); only Node itself was timed');
      return result;
    }
    result.bytes = statSync(bundle).size;
    result.gzipBytes = gzipSync(readFileSync(bundle), { level: 9 }).length;
    for (const name of readdirSync(join(root, 'dist')).sort()) {
      if (!name.endsWith('.js') || name === 'index.js') continue;
      const body = readFileSync(join(root, 'dist', name));
      result.chunks.push({ name, bytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length });
    }
    const cli = join(root, 'dist', 'cli', 'index.js');
    if (existsSync(cli)) result.cliBytes = statSync(cli).size;
    for (let i = 0; i < reps; i++) {
      const run = await timeChild([bundle], { ...baseEnv(home), INPUT_NAMESPACES: 'Bad_Name' });
      result.badInputMs.push(run.ms);
      if (run.code !== 1 || !run.stdout.includes('::error::Input "namespaces"')) result.badInputOk = false;
    }
    for (let i = 0; i < reps; i++) result.firstRequestMs.push(await timeFirstRequest(bundle, home));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return result;
}
