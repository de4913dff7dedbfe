import { apply, get, kubectl, namespace, runAction, uniqueName, waitFor } from './kit.js';

describe('a pod bound to a Node object that never reports, on the real server', () => {
  const node = uniqueName('node');
  afterAll(() => kubectl(['delete', 'node', node, '--ignore-not-found']));

  test('is diagnosed as a pod that cannot terminate; the namespace stays until the pod is force-deleted', async () => {
    const ns = uniqueName('deadnode');
    await apply({ apiVersion: 'v1', kind: 'Node', metadata: { name: node } });
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    // ServiceAccount admission refuses pods until the namespace's default ServiceAccount exists.
    await waitFor(() => get(`/api/v1/namespaces/${ns}/serviceaccounts/default`), 20_000, 200);
    await apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: ns, name: 'web-0' },
      spec: { nodeName: node, containers: [{ name: 'web', image: 'nginx' }] },
    });
    const run = await runAction({ namespaces: ns, timeout: '15s', 'fail-on': 'stuck' });
    expect(run.code).toBe(1);
    expect(run.outputs.result).toBe('stuck');
    const t = run.report!.targets[0]!;
    const finding = t.findings.find((f) => f.id === 'pods-not-terminating');
    expect(finding).toBeDefined();
    expect(JSON.stringify(finding)).toContain('web-0');
    expect(run.summary).toContain('web-0');
    const pod = await get(`/api/v1/namespaces/${ns}/pods/web-0`);
    expect(pod.metadata.deletionTimestamp).toBeDefined();
    expect(pod.spec.nodeName).toBe(node);

    await kubectl(['delete', 'pod', 'web-0', '-n', ns, '--grace-period=0', '--force']);
    await waitFor(async () => (await namespace(ns)) === undefined, 60_000, 250);
  });
});
