/** One deadline rules everything: a 10 s run ends by timeout + its finishing grace, whatever the server does. */
import { jest } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster, silentServer } from '../fake-apiserver/index.js';
import { FAST, runBundle, runMs } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

/**
 * `timeout: 10s` may run 10 s + 5 s of grace, by the run's own clock (its report's startedAt to finishedAt), which
 * leaves out the process's start-up and publishing, whose time is only the machine's speed. Anything that waited
 * for the server past the deadline would wait for the 60 s request timeout or for ever: 5 s more tells them apart
 * however late a busy machine fires the timers.
 */
const BOUND_MS = 15_000 + 5_000;

jest.setTimeout(60_000);

describe('a 10 s timeout holds (node dist/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
    cluster.addNamespace('pr-2');
  });
  afterEach(() => cluster.stop());

  test('a server that accepts and never answers (no TLS handshake)', async () => {
    const silent = await silentServer();
    try {
      const run = await runBundle({ namespaces: 'pr-1 pr-2', kubeconfig: silent.kubeconfig, timeout: '10s' });
      expect(runMs(run)).toBeLessThan(BOUND_MS);
      expect(run.code).toBe(1);
      expect(run.outputs.result).toBe('error');
      expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([
        ['pr-1', 'error'],
        ['pr-2', 'error'],
      ]);
      expect(run.report?.targets[0]?.note).toContain("before the run's deadline");
      expect(run.summary).toContain('Namespace teardown: 2 error of 2 namespaces');
    } finally {
      await silent.stop();
    }
  });

  test('a hang on one DELETE: that namespace is an error by the deadline, the other is gone', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.misbehaveNext({ method: 'DELETE', path: /\/pr-2$/ }, 'hang');
    const run = await runBundle({ namespaces: 'pr-1 pr-2', kubeconfig, timeout: '10s' });
    expect(runMs(run)).toBeLessThan(BOUND_MS);
    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1', 'gone'],
      ['pr-2', 'error'],
    ]);
    expect(run.report?.targets[1]?.note).toMatch(/the delete request failed: .*deadline/);
    expect(run.outputs.result).toBe('error');
    expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-1']);
    expect(run.summary).toMatch(/^\| pr-2 \| .* \| ❌ error/m);
  });

  test('Retry-After: 3600 stops at once and reports, instead of waiting', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.throttle({ times: 1_000, retryAfterSeconds: 3600 });
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '10s' });
    expect(runMs(run)).toBeLessThan(8_000);
    expect(run.outputs.result).toBe('error');
    expect(run.report?.targets[0]?.note).toMatch(/throttled \(429\), asked to wait 3600 s with \d+ s left/);
    expect(cluster.requests.length).toBe(1);
    expect(cluster.namespace('pr-1')?.metadata.deletionTimestamp).toBeUndefined();
  });

  test('a list whose continue token repeats is an error, not an endless loop', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /labelSelector=/ },
      {
        status: 200,
        body: { kind: 'NamespaceList', apiVersion: 'v1', metadata: { continue: 'again' }, items: [] },
        times: Infinity,
      },
    );
    const run = await runBundle({ namespaces: 'pr-1', selector: 'preview=true', kubeconfig, timeout: '10s' });
    expect(run.outputs.result).toBe('error');
    expect(run.report?.error).toMatch(/repeated the continue token of the namespace list after 1 page/);
    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([['pr-1', 'gone']]);
    expect(run.summary).toContain('repeated the continue token');
    expect(cluster.requests.filter((r) => r.query.includes('labelSelector')).length).toBe(2);
  });

  test('an exec credential plugin that never returns', async () => {
    const { kubeconfig } = await cluster.start();
    const hanging = kubeconfig.replace(
      /user:\n {4}token: .*/,
      [
        'user:',
        '    exec:',
        '      apiVersion: client.authentication.k8s.io/v1beta1',
        `      command: ${process.execPath}`,
        '      args: ["-e", "setInterval(() => {}, 1000)"]',
        '      interactiveMode: Never',
      ].join('\n'),
    );
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig: hanging, timeout: '10s' });
    expect(runMs(run)).toBeLessThan(BOUND_MS);
    expect(run.outputs.result).toBe('error');
    // The credential bound and the request's own deadline fire together: either may word the reason.
    expect(run.report?.targets[0]?.note).toMatch(/(took until|before) the run's deadline/);
    expect(cluster.requests).toEqual([]);
  });

  test('a watch line that never ends is cut at 4 MiB; the wait goes on and sees the namespace gone', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.misbehaveNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /watch=1/ },
      'endless-line',
    );
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '30s' });
    expect(run.outputs.result).toBe('clean');
    expect(run.report?.targets[0]).toMatchObject({ outcome: 'gone', watchRestarts: { reset: 1 } });
    const endless = cluster.requests.find((r) => r.query.includes('watch=1'))!;
    expect(endless.bytesOut).toBeGreaterThan(4 * 1024 * 1024);
    expect(endless.bytesOut).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('credentials from an exec plugin are masked', () => {
  test('a server that echoes the Authorization header: the token is masked in the log and cut from the result', async () => {
    const cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
    const { kubeconfig, token } = await cluster.start();
    try {
      const dir = tempDir('nt-exec-');
      const plugin = join(dir, 'plugin.mjs');
      const credential = {
        apiVersion: 'client.authentication.k8s.io/v1beta1',
        kind: 'ExecCredential',
        status: { token },
      };
      writeFileSync(plugin, `process.stdout.write(${JSON.stringify(JSON.stringify(credential))});\n`);
      const exec = kubeconfig.replace(
        /user:\n {4}token: .*/,
        [
          'user:',
          '    exec:',
          '      apiVersion: client.authentication.k8s.io/v1beta1',
          `      command: ${process.execPath}`,
          `      args: [${JSON.stringify(plugin)}]`,
          '      interactiveMode: Never',
        ].join('\n'),
      );
      cluster.failNext(
        { method: 'DELETE', path: /\/pr-1$/ },
        {
          status: 500,
          body: {
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Failure',
            message: `bad request headers: Authorization: Bearer ${token}`,
            reason: 'InternalError',
            code: 500,
          },
        },
      );
      const run = await runBundle({ namespaces: 'pr-1', kubeconfig: exec, timeout: '10s' });
      expect(run.outputs.result).toBe('error');
      expect(run.stdout).toContain(`::add-mask::${token}`);
      expect(run.stdout.replaceAll(`::add-mask::${token}`, '')).not.toContain(token);
      expect(run.summary).not.toContain(token);
      expect(JSON.stringify(run.report)).not.toContain(token);
      expect(run.report?.targets[0]?.note).toContain('Authorization: Bearer ***');
    } finally {
      await cluster.stop();
    }
  });
});
