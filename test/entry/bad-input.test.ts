import { createServer } from 'node:net';
import { FakeCluster } from '../fake-apiserver/index.js';
import { runBundle, runMs } from '../helpers/harness.js';

/** A port on 127.0.0.1 that nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Every bad input fails the step with one clear `::error::` line naming the input, before any cluster call. */
describe('bad input is refused before any cluster call', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;
  beforeAll(async () => {
    cluster = new FakeCluster();
    cluster.addNamespace('pr-1');
    ({ kubeconfig } = await cluster.start());
  });
  afterAll(() => cluster.stop());
  beforeEach(() => cluster.requests.splice(0));

  const cases: { name: string; inputs: Record<string, string>; error: RegExp }[] = [
    { name: 'empty targets', inputs: {}, error: /No targets: set "namespaces"/ },
    {
      name: 'invalid name',
      inputs: { namespaces: 'pr-1 -bad' },
      error: /"namespaces": "-bad" is not a valid namespace name: a namespace name is a DNS-1123 label/,
    },
    {
      name: 'protected namespace',
      inputs: { namespaces: 'kube-system' },
      error: /protected namespace\(s\) "kube-system"/,
    },
    {
      name: 'selector that does not parse',
      inputs: { selector: 'a in (b' },
      error: /Input "selector" is "a in \(b", which does not parse/,
    },
    {
      name: 'unparsable duration',
      inputs: { namespaces: 'pr-1', timeout: 'soon' },
      error: /Input "timeout" is "soon", which is not a duration/,
    },
    {
      name: 'unknown fail-on',
      inputs: { namespaces: 'pr-1', 'fail-on': 'sometimes' },
      error: /Input "fail-on" is "sometimes"; allowed: leaked, stuck, never/,
    },
    {
      name: 'kubeconfig that does not parse',
      inputs: { namespaces: 'pr-1', kubeconfig: 'clusters: [unclosed' },
      error: /kubeconfig/i,
    },
    {
      name: 'context that does not exist',
      inputs: { namespaces: 'pr-1', context: 'nope' },
      error: /context "nope".*fake/i,
    },
  ];

  test.each(cases)('$name', async ({ inputs, error }) => {
    const run = await runBundle({ kubeconfig, ...inputs });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(error);
    expect(cluster.requests).toEqual([]);
  });

  test('an unreachable API server: bounded retries, then the target is an error and the result is kept', async () => {
    const port = await closedPort();
    const unreachable = kubeconfig.replace(
      /server: https:\/\/127\.0\.0\.1:\d+/,
      `server: https://127.0.0.1:${port}`,
    );
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig: unreachable, timeout: '30s' });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(`^::error title=Namespace pr-1%3A error::.*https://127\\.0\\.0\\.1:${port}.*ECONNREFUSED`),
      ),
      '::error::Namespace teardown failed: 1 namespace(s) ended in error: pr-1',
    ]);
    expect(run.outputs.result).toBe('error');
    expect(run.report?.targets[0]?.note).toMatch(/cannot reach the Kubernetes API server at .*ECONNREFUSED/);
    expect(run.summary).toMatch(/^\| pr-1 \| .* \| ❌ error/m);
    expect(runMs(run)).toBeLessThan(20_000);
  });

  test('a rejected token (401) says the credentials were rejected', async () => {
    const badToken = kubeconfig.replace(/token: .*/, 'token: wrong-token');
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig: badToken });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      /::error title=Namespace pr-1%3A error::.*Unauthorized.*The credentials were rejected/,
    );
    expect(run.outputs.result).toBe('error');
    // The runner consumes the add-mask command; nothing else may carry the token.
    expect(run.stdout).toContain('::add-mask::wrong-token');
    expect(run.stdout.replace('::add-mask::wrong-token', '')).not.toContain('wrong-token');
  });

  test('a missing permission (403) names the verb and resource and points to the RBAC manifest', async () => {
    cluster.denyRBAC({ verb: 'delete', resource: 'namespaces' });
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '5s' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      '::error title=Namespace pr-1%3A error::the delete request failed: namespaces "pr-1" is forbidden: User "system:serviceaccount:ci:namespace-teardown" cannot delete resource "namespaces" in API group "" in the namespace "pr-1". Grant the permissions in deploy/rbac.yaml',
    );
    expect(run.outputs.result).toBe('error');
    expect(run.summary).toMatch(/^\| pr-1 \| .* \| ❌ error/m);
    expect(cluster.namespace('pr-1')?.metadata?.deletionTimestamp).toBeUndefined();
  });
});
