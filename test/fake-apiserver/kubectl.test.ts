/** The real kubectl against the fake: get, delete (with its wait), wait --for=delete, raw get and raw finalize. */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type StartedCluster, cleanNamespaces, FakeCluster, kialiStuck } from './index.js';
import { FAST } from './testkit.js';

const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].find((p) => existsSync(p));
if (!KUBECTL) console.warn('kubectl not found: skipping test/fake-apiserver/kubectl.test.ts');
const maybe = KUBECTL ? test : test.skip;

let dir: string;
let cluster: FakeCluster;
let stuck: FakeCluster;
let s: StartedCluster;
let st: StartedCluster;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function kubectl(started: StartedCluster, ...args: string[]): Promise<Run> {
  const config = join(dir, `${new URL(started.url).port}.kubeconfig`);
  writeFileSync(config, started.kubeconfig);
  return new Promise((resolve) => {
    execFile(
      KUBECTL ?? 'kubectl',
      ['--kubeconfig', config, '--cache-dir', join(dir, 'cache'), ...args],
      { env: { PATH: process.env.PATH ?? '', HOME: dir }, timeout: 20_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'fake-kubectl-'));
  cluster = cleanNamespaces(3, { controller: FAST }).cluster;
  s = await cluster.start();
  stuck = kialiStuck({ controller: FAST }).cluster;
  st = await stuck.start();
});

afterAll(async () => {
  await cluster?.stop();
  await stuck?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

maybe('kubectl get ns prints the server-side table', async () => {
  const r = await kubectl(s, 'get', 'ns');
  expect(r.code).toBe(0);
  const lines = r.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^NAME\s+STATUS\s+AGE$/);
  expect(lines.some((l) => /^preview-1\s+Active\s+\d+s$/.test(l))).toBe(true);
});

maybe('kubectl get --raw returns the stored object', async () => {
  const r = await kubectl(s, 'get', '--raw', '/api/v1/namespaces/preview-1');
  expect(r.code).toBe(0);
  const obj = JSON.parse(r.stdout);
  expect(obj).toEqual(cluster.namespace('preview-1'));
});

maybe('kubectl delete ns waits until the namespace is gone', async () => {
  const r = await kubectl(s, 'delete', 'ns', 'preview-1');
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).toBe('namespace "preview-1" deleted');
  expect(cluster.namespace('preview-1')).toBeUndefined();
  const gone = await kubectl(s, 'get', 'ns', 'preview-1');
  expect(gone.code).not.toBe(0);
  expect(gone.stderr.trim()).toBe('Error from server (NotFound): namespaces "preview-1" not found');
});

maybe('kubectl wait --for=delete returns once the controller is done', async () => {
  expect((await kubectl(s, 'delete', 'ns', 'preview-2', '--wait=false')).code).toBe(0);
  const r = await kubectl(s, 'wait', '--for=delete', 'ns/preview-2', '--timeout=10s');
  expect(r.code).toBe(0);
  expect(cluster.namespace('preview-2')).toBeUndefined();
});

maybe('kubectl wait times out on a stuck namespace; replace --raw /finalize frees it', async () => {
  expect((await kubectl(st, 'delete', 'ns', 'istio-system', '--wait=false')).code).toBe(0);
  const wait = await kubectl(st, 'wait', '--for=delete', 'ns/istio-system', '--timeout=1s');
  expect(wait.code).not.toBe(0);
  expect(wait.stderr).toContain('timed out waiting for the condition on namespaces/istio-system');
  const json = JSON.parse((await kubectl(st, 'get', 'ns', 'istio-system', '-o', 'json')).stdout);
  expect(json.status.phase).toBe('Terminating');
  json.spec.finalizers = [];
  const file = join(dir, 'istio-system.json');
  writeFileSync(file, JSON.stringify(json));
  const r = await kubectl(st, 'replace', '--raw', '/api/v1/namespaces/istio-system/finalize', '-f', file);
  expect(r.code).toBe(0);
  expect(JSON.parse(r.stdout).metadata.name).toBe('istio-system');
  expect(stuck.namespace('istio-system')).toBeUndefined();
});
