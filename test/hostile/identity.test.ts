/** A server whose answers name other objects: only the targets are ever written, and success is observed. */
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle, runMs } from '../helpers/harness.js';

const KIALI = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };

function deletes(cluster: FakeCluster): string[] {
  return cluster.requests.filter((r) => r.method === 'DELETE').map((r) => r.path);
}

describe('identity is checked, not assumed (node dist/index.js)', () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('pr-1');
    cluster.addNamespace('pr-2');
    cluster.addNamespace('prod');
  });
  afterEach(() => cluster.stop());

  test.each([
    { name: 'another namespace', body: () => cluster.namespace('prod'), why: 'with namespace "prod"' },
    { name: 'a protected namespace', body: () => cluster.namespace('kube-system'), why: '"kube-system"' },
    { name: '{}', body: () => ({}), why: 'an object without metadata.name' },
  ])(
    'a GET of pr-1 answered with $name: pr-1 is an error, nothing else is deleted',
    async ({ body, why }) => {
      const { kubeconfig } = await cluster.start();
      cluster.failNext(
        { method: 'GET', path: /^\/api\/v1\/namespaces\/pr-1$/ },
        { status: 200, body: body() },
      );
      const run = await runBundle({ namespaces: 'pr-1 pr-2', kubeconfig, timeout: '10s' });

      expect(deletes(cluster)).toEqual(['/api/v1/namespaces/pr-2']);
      expect(cluster.namespace('prod')).toBeDefined();
      expect(cluster.namespace('kube-system')).toBeDefined();
      expect(run.code).toBe(1);
      expect(run.outputs.result).toBe('error');
      expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-2']);
      expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([
        ['pr-1', 'error'],
        ['pr-2', 'gone'],
      ]);
      expect(run.report?.targets[0]!.note).toContain(why);
      expect(run.summary).toContain('Namespace teardown: 1 error, 1 gone of 2 namespaces');
      expect(run.summary).toMatch(
        /^\| pr-1 \| .* \| ❌ error \| the server answered a request for namespace/m,
      );
      expect(run.stdout).toContain('::error::Namespace teardown failed: 1 namespace(s) ended in error: pr-1');
    },
  );

  test('a selector list that returns an unlabelled namespace: only real matches are deleted', async () => {
    cluster.addNamespace('pr-3', { labels: { preview: 'true' } });
    const { kubeconfig } = await cluster.start();
    const prod = cluster.namespace('prod');
    const pr3 = cluster.namespace('pr-3');
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /labelSelector=preview/ },
      {
        status: 200,
        body: { kind: 'NamespaceList', apiVersion: 'v1', metadata: {}, items: [prod, pr3, {}] },
      },
    );
    const run = await runBundle({ selector: 'preview=true', kubeconfig, timeout: '10s' });

    expect(deletes(cluster)).toEqual(['/api/v1/namespaces/pr-3']);
    expect(cluster.namespace('prod')).toBeDefined();
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-3']);
    expect(run.report?.targets.map((t) => t.name)).toEqual(['pr-3']);
  });

  test('watch events of another namespace or another UID are not taken as "gone"', async () => {
    cluster.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    cluster.addObject(KIALI, {
      metadata: { namespace: 'pr-1', name: 'kiali', finalizers: ['kiali.io/finalizer'] },
    });
    const { kubeconfig } = await cluster.start();
    const other = { ...cluster.namespace('prod'), metadata: { ...cluster.namespace('prod')!.metadata } };
    const sameNameOtherUid = {
      ...cluster.namespace('pr-1'),
      metadata: { ...cluster.namespace('pr-1')!.metadata, uid: 'ffffffff-0000-0000-0000-000000000000' },
    };
    const lines = [
      { type: 'DELETED', object: other },
      { type: 'ADDED', object: sameNameOtherUid },
      { type: 'DELETED', object: {} },
      {},
    ]
      .map((e) => JSON.stringify(e))
      .join('\n');
    cluster.failNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /watch=1/ },
      { status: 200, body: `${lines}\n`, headers: { 'Content-Type': 'application/json' }, times: 3 },
    );
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '3s', 'fail-on': 'stuck' });

    expect(run.report?.targets.map((t) => t.outcome)).toEqual(['stuck']);
    expect(run.report?.targets[0]!.recreatedUid).toBeUndefined();
    expect(run.outputs.result).toBe('stuck');
    expect(JSON.parse(run.outputs.stuck!)).toEqual(['pr-1']);
    expect(run.summary).toMatch(/^\| pr-1 \| .* \| ❌ stuck/m);
    expect(run.code).toBe(1);
  });

  test('a deleted namespace is reported gone even when the watch never answers (one last read decides)', async () => {
    const { kubeconfig } = await cluster.start();
    cluster.misbehaveNext(
      { method: 'GET', path: /^\/api\/v1\/namespaces$/, query: /watch=1/ },
      'hang',
      Infinity,
    );
    const run = await runBundle({ namespaces: 'pr-1', kubeconfig, timeout: '2s' });

    expect(run.report?.targets.map((t) => t.outcome)).toEqual(['gone']);
    expect(run.outputs.result).toBe('clean');
    expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-1']);
    expect(run.summary).not.toContain('not deleted');
    expect(run.code).toBe(0);
    expect(runMs(run)).toBeLessThan(15_000);
  });
});

describe("one failed DELETE is that namespace's error; the others go on (node dist/index.js)", () => {
  let cluster: FakeCluster;
  beforeEach(() => {
    cluster = new FakeCluster({ controller: FAST });
    for (const n of ['pr-1', 'pr-2', 'pr-3']) cluster.addNamespace(n);
  });
  afterEach(() => cluster.stop());

  test.each([
    {
      name: '500',
      inject: (c: FakeCluster) => c.failNext({ method: 'DELETE', path: /\/pr-2$/ }, { status: 500 }),
      note: 'injected 500',
    },
    {
      name: 'a connection reset',
      inject: (c: FakeCluster) => c.misbehaveNext({ method: 'DELETE', path: /\/pr-2$/ }, 'reset'),
      note: 'the delete request failed',
    },
    {
      name: 'a 302 redirect',
      inject: (c: FakeCluster) =>
        c.failNext(
          { method: 'DELETE', path: /\/pr-2$/ },
          { status: 302, body: 'moved', headers: { Location: 'https://example.invalid/' } },
        ),
      note: 'HTTP 302',
    },
    {
      name: '403 (no delete permission)',
      inject: (c: FakeCluster) => c.denyRBAC({ verb: 'delete', resource: 'namespaces', namespace: 'pr-2' }),
      note: 'cannot delete resource "namespaces"',
    },
  ])('$name on pr-2', async ({ inject, note }) => {
    inject(cluster);
    const { kubeconfig } = await cluster.start();
    const run = await runBundle({ namespaces: 'pr-1 pr-2 pr-3', kubeconfig, timeout: '10s' });

    expect(run.report?.targets.map((t) => [t.name, t.outcome])).toEqual([
      ['pr-1', 'gone'],
      ['pr-2', 'error'],
      ['pr-3', 'gone'],
    ]);
    expect(run.report?.targets[1]!.note).toContain(note);
    expect(run.outputs.result).toBe('error');
    expect(JSON.parse(run.outputs.deleted!)).toEqual(['pr-1', 'pr-3']);
    expect(run.outputs.report).toMatch(/\.json$/);
    expect(run.summary).toContain('Namespace teardown: 1 error, 2 gone of 3 namespaces');
    expect(run.summary).toMatch(/^\| pr-2 \| .* \| ❌ error/m);
    expect(run.stdout).toMatch(/::error title=Namespace pr-2%3A error::/);
    expect(run.code).toBe(1);
    expect(cluster.namespace('pr-2')).toBeDefined();
  });
});
