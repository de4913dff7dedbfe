/** The CLI in a real terminal: tmux runs the bundle against the fake cluster, and the pane is read back. */
import { KubeConfig } from '@kubernetes/client-node';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createKube } from '../../src/kube/client.js';
import { FakeCluster, GVR } from '../fake-apiserver/index.js';
import { FAST } from './harness.js';
import { tempDir } from './temp.js';

/** Whether tmux is installed. */
export function hasTmux(): boolean {
  try {
    execFileSync('tmux', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A cluster as a preview cluster looks after a bad week: `pr-7` held by a leaked custom-resource finalizer,
 * `ks-old` by a namespace metadata finalizer, and `pr-9` that goes. Started; the caller stops it. With `hung`,
 * `pr-7` and `ks-old` are already Terminating and the namespace controller has been through them: what a run
 * then shows of them at its timeout does not depend on how fast a busy machine deletes them.
 */
export async function stuckCluster(
  opts: { hung?: boolean } = {},
): Promise<{ cluster: FakeCluster; kubeconfigFile: string }> {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
  cluster.addNamespace('pr-7', { labels: { 'preview.example.com/pr': '7' } });
  cluster.addObject(GVR.kialis, { namespace: 'pr-7', name: 'kiali', finalizers: ['kiali.io/finalizer'] });
  cluster.addNamespace('ks-old', {
    labels: { 'preview.example.com/pr': '3' },
    metadataFinalizers: ['finalizers.kubesphere.io/namespaces'],
  });
  cluster.addNamespace('pr-9', { labels: { 'preview.example.com/pr': '9' } });
  const { kubeconfig } = await cluster.start();
  if (opts.hung) await hang(cluster, kubeconfig, ['pr-7', 'ks-old']);
  const dir = tempDir('nt-term-');
  const kubeconfigFile = join(dir, 'config');
  writeFileSync(kubeconfigFile, kubeconfig);
  return { cluster, kubeconfigFile };
}

/** Delete the namespaces and wait until the namespace controller has been through each. */
async function hang(cluster: FakeCluster, kubeconfig: string, names: string[]): Promise<void> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  const settled = cluster.settled(names);
  await Promise.all(names.map((n) => kube.deleteNamespace(n)));
  await kube.close();
  await settled;
}

const END = '__nt_exit__';

/**
 * Run `command` (a shell line) in a detached tmux session `width` columns wide and return the whole pane (history
 * included) once it exits, with `-e` the escape codes kept, and the exit status. The fake cluster keeps answering
 * meanwhile, because waiting here never blocks the event loop.
 */
export async function inTmux(
  command: string,
  opts: { width?: number; height?: number; escapes?: boolean; timeoutMs?: number } = {},
): Promise<{ screen: string; code: number }> {
  const socket = `nt-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
  const tmux = (...args: string[]): string =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const shell = `${command}; echo ${END}$?; sleep 600`;
  tmux(
    'new-session',
    '-d',
    '-s',
    'cli',
    '-x',
    String(opts.width ?? 120),
    '-y',
    String(opts.height ?? 50),
    shell,
  );
  try {
    const deadline = Date.now() + (opts.timeoutMs ?? 60_000);
    for (;;) {
      const plain = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'cli');
      const exit = new RegExp(`${END}(\\d+)`).exec(plain);
      if (exit) {
        // -J joins what the terminal wrapped, so a line wider than the pane shows as one long line.
        const raw = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'cli', ...(opts.escapes ? ['-e'] : []));
        const screen = raw.slice(0, raw.indexOf(END)).replace(/\s+$/, '');
        return { screen, code: Number(exit[1]) };
      }
      if (Date.now() > deadline) throw new Error(`the command did not finish in tmux:\n${plain}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    tmux('kill-server');
  }
}
