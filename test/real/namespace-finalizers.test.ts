import { apply, namespace, runAction, uniqueName } from './kit.js';

describe('a namespace metadata.finalizers entry on the real server', () => {
  test('is diagnosed and left alone without an allowance, then removed by a glob and the namespace goes', async () => {
    const ns = uniqueName('kubesphere');
    const finalizer = 'finalizers.kubesphere.io/namespaces';
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, finalizers: [finalizer] } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: ns, name: 'ks-console-config' } },
    );
    const first = await runAction({ namespaces: ns, timeout: '12s', 'fail-on': 'stuck' });
    expect(first.code).toBe(1);
    expect(first.outputs.result).toBe('stuck');
    const t = first.report!.targets[0]!;
    expect(t.findings.map((f) => f.id)).toContain('namespace-metadata-finalizers');
    expect(first.summary).toContain(finalizer);
    const held = await namespace(ns);
    expect(held.metadata.finalizers).toEqual([finalizer]);
    // The controller has done its part (spec.finalizers emptied): only the metadata finalizer holds it.
    expect(held.spec.finalizers ?? []).toEqual([]);

    const forced = await runAction({
      namespaces: ns,
      timeout: '30s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'finalizers.kubesphere.io/*',
      'fail-on': 'stuck',
    });
    expect(forced.code).toBe(0);
    expect(forced.outputs.result).toBe('forced');
    expect(forced.report!.targets[0]!.force!.audit).toMatchObject([
      { field: 'metadata.finalizers', before: [finalizer], after: [], result: 'removed' },
    ]);
    expect(await namespace(ns)).toBeUndefined();
  });
});
