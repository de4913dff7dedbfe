/**
 * Exec credential plugins, run here instead of by client-node: each in its own process group, stopped (with anything
 * it started) at the deadline, on cancellation and when the run ends; its error output goes to the log only, masked
 * and cut, because it may hold what the plugin read (a token file). Errors name the plugin by its command's base
 * name, never its arguments or environment.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { KubeConfig, User } from '@kubernetes/client-node';
import { KubeError } from './port.js';
import { cutOutput, lastLines, parseCredential, type Credential, type ExecConfig } from './exec-output.js';

export type { Credential } from './exec-output.js';

/** What a plugin run needs from the client: the time left, cancellation, masking and the log. */
export interface ExecPluginOptions {
  /** Per-run bound besides the deadline (the per-request timeout). */
  timeoutMs: number;
  /** Milliseconds left before the run's deadline (Infinity without one). */
  left: () => number;
  signal?: AbortSignal;
  /** Known credentials replaced by `***` in what is logged. */
  redact: (text: string) => string;
  /** Where a failed plugin's error output goes: log lines, already masked and cut. */
  log?: (lines: string[]) => void;
  /** Where the log is, for messages: "the step log", "the log on stderr". */
  logName: string;
}

/** A failure is returned again, without running the plugin, for this long: thousands of requests, one run. */
const FAILURE_REUSE_MS = 10_000;
/** How long a plugin may take to stop after SIGTERM before its group gets SIGKILL. */
const KILL_GRACE_MS = 1_000;
/** Most of a plugin's standard output kept: an ExecCredential is a few KiB. */
const MAX_STDOUT = 1024 * 1024;
/** Most of its error output kept (the end of it, which says why it failed). */
const MAX_STDERR = 64 * 1024;

/** The exec section of a kubeconfig user (`user.exec`, or the legacy `auth-provider` `exec`), if any. */
export function execOf(user: User | null | undefined): ExecConfig | undefined {
  const provider = user?.authProvider as { name?: string; config?: { exec?: ExecConfig } } | undefined;
  const exec = (user?.exec as ExecConfig | undefined) ?? provider?.config?.exec;
  return exec && typeof exec === 'object' ? exec : undefined;
}

/** The name a plugin is shown by: the base name of its command, never its arguments. */
export function pluginName(exec: ExecConfig): string {
  const base = path.basename(String(exec.command ?? '')).slice(0, 60);
  return base || '(no command)';
}

/** Runs the exec credential plugins of one client, caches their credentials, and stops every process they start. */
export class ExecPlugins {
  private readonly cache = new Map<string, Credential>();
  private readonly pending = new Map<string, Promise<Credential>>();
  private readonly failed = new Map<string, { error: KubeError; at: number }>();
  /** Process groups started (the plugin's pid is its group id): stopped at the end, whatever is left in them. */
  private readonly groups = new Set<number>();
  private readonly onExit = (): void => this.stopAll();

  constructor(private readonly o: ExecPluginOptions) {}

  /** Replace client-node's exec authenticator of `kc` with this one. */
  install(kc: KubeConfig): void {
    const list = (kc as unknown as { authenticators?: unknown[] }).authenticators;
    const probe = { name: 'probe', exec: { command: 'probe' } } as unknown as User;
    const i = list?.findIndex((a) =>
      (a as { isAuthProvider?: (u: User) => boolean }).isAuthProvider?.(probe),
    );
    if (!list || i === undefined || i < 0)
      throw new Error('client-node has no exec authenticator to replace');
    list[i] = { isAuthProvider: (u: User) => execOf(u) !== undefined, applyAuthentication: this.apply };
  }

  /** client-node's Authenticator call: the plugin's token and client certificate into the request options. */
  private readonly apply = async (user: User, opts: Record<string, unknown>): Promise<void> => {
    const credential = await this.credential(user);
    if (credential.clientCertificateData) opts.cert = credential.clientCertificateData;
    if (credential.clientKeyData) opts.key = credential.clientKeyData;
    if (credential.token)
      opts.headers = { ...(opts.headers as object), Authorization: `Bearer ${credential.token}` };
  };

  /** The user's credential: cached until it expires; one plugin run at a time per user. */
  async credential(user: User): Promise<Credential> {
    const key = user.name;
    const cached = this.cache.get(key);
    if (cached && (cached.expiresAt === undefined || cached.expiresAt > Date.now())) return cached;
    const failure = this.failed.get(key);
    if (failure && Date.now() - failure.at < FAILURE_REUSE_MS) throw failure.error;
    let running = this.pending.get(key);
    if (!running) {
      running = this.run(execOf(user)!).finally(() => this.pending.delete(key));
      this.pending.set(key, running);
    }
    try {
      const credential = await running;
      this.cache.set(key, credential);
      this.failed.delete(key);
      return credential;
    } catch (error) {
      if (error instanceof KubeError && error.reason === 'ExecPluginFailed')
        this.failed.set(key, { error, at: Date.now() });
      throw error;
    }
  }

  /** Stop every process group a plugin started (SIGKILL); safe to call more than once, and at process exit. */
  stopAll(): void {
    for (const group of this.groups) signalGroup(group, 'SIGKILL');
    this.groups.clear();
    process.off('exit', this.onExit);
  }

  /** One run of the plugin, bounded by the per-request timeout, the deadline and cancellation. */
  private run(exec: ExecConfig): Promise<Credential> {
    const name = pluginName(exec);
    const { signal } = this.o;
    if (!exec.command) return Promise.reject(this.failure(name, 'has no command in the kubeconfig'));
    if (signal?.aborted) return Promise.reject(stoppedError(name, 'the run was cancelled', 'Cancelled'));
    const env = { ...process.env };
    for (const e of exec.env ?? []) if (e && typeof e.name === 'string') env[e.name] = String(e.value ?? '');
    // Its own process group (detached), so that it and whatever it starts can be stopped together; no stdin, as
    // client-go gives a plugin that is not interactive.
    const child = spawn(exec.command, (exec.args ?? []).map(String), {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (child.pid !== undefined) this.track(child.pid);
    return new Promise<Credential>((resolve, reject) => {
      let stdout = '';
      let stderr = '';
      let stopped: KubeError | undefined;
      let spawnError: NodeJS.ErrnoException | undefined;
      child.stdout.setEncoding('utf8').on('data', (d: string) => {
        if (stdout.length < MAX_STDOUT) stdout += d;
      });
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-MAX_STDERR)));
      const stop = (why: KubeError): void => {
        stopped ??= why;
        if (child.pid !== undefined) stopGroup(child.pid);
      };
      const limit = Math.max(0, Math.min(this.o.timeoutMs, this.o.left()));
      const timer = setTimeout(() => stop(this.timeoutError(name, limit)), limit);
      const onAbort = (): void => stop(stoppedError(name, 'the run was cancelled', 'Cancelled'));
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => (spawnError = e));
      child.on('close', (code, sig) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (child.pid !== undefined) this.forgetIfEmpty(child.pid);
        if (spawnError)
          return reject(this.failure(name, `could not be started (${spawnError.code ?? 'error'})`));
        if (stopped) {
          this.logOutput(`${stopped.message}`, stderr);
          return reject(stopped);
        }
        if (code !== 0) {
          const how = sig ? `was ended by ${sig}` : `exited with status ${code}`;
          this.logOutput(`exec credential plugin ${name} ${how}`, stderr);
          return reject(this.failure(name, how));
        }
        const credential = parseCredential(stdout);
        if (!credential)
          return reject(this.failure(name, 'printed no ExecCredential with a token or a client certificate'));
        resolve(credential);
      });
    });
  }

  private track(group: number): void {
    if (this.groups.size === 0) process.on('exit', this.onExit);
    this.groups.add(group);
  }

  /** A plugin that exited and left nothing running in its group needs no stopping later. */
  private forgetIfEmpty(group: number): void {
    if (!signalGroup(group, 0)) this.groups.delete(group);
  }

  /** The plugin's error output, to the log only: the last lines, each cut, credentials masked. */
  private logOutput(headline: string, stderr: string): void {
    const lines = lastLines(stderr).map((l) => cutOutput(this.o.redact(l)));
    if (!this.o.log) return;
    this.o.log(
      lines.length
        ? [
            `${headline}; the last ${lines.length} line(s) of its error output:`,
            ...lines.map((l) => `  | ${l}`),
          ]
        : [`${headline}; it wrote no error output`],
    );
  }

  private failure(name: string, what: string): KubeError {
    const where = this.o.log ? `; its output is in ${this.o.logName}` : '';
    return new KubeError(`the exec credential plugin ${name} ${what}${where}`, 0, 'ExecPluginFailed');
  }

  private timeoutError(name: string, limit: number): KubeError {
    if (limit >= this.o.timeoutMs)
      return new KubeError(
        `the exec credential plugin ${name} gave no answer within ${Math.round(limit / 1000)} s; it was stopped`,
        0,
        'ExecPluginFailed',
      );
    return stoppedError(
      name,
      "it gave no answer before the run's deadline; it was stopped",
      'DeadlineExceeded',
    );
  }
}

function stoppedError(name: string, why: string, reason: 'Cancelled' | 'DeadlineExceeded'): KubeError {
  return new KubeError(`the exec credential plugin ${name}: ${why}`, 0, reason);
}

/** Send `signal` to a process group; false when the group no longer exists. */
function signalGroup(group: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-group, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the group, SIGKILL to whatever is left of it a moment later. */
function stopGroup(group: number): void {
  if (signalGroup(group, 'SIGTERM')) setTimeout(() => signalGroup(group, 'SIGKILL'), KILL_GRACE_MS).unref();
}
