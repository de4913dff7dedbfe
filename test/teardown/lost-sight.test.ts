/**
 * The run loses the right to look: its identity's only rights came from a RoleBinding inside the namespace it deleted,
 * and the namespace controller deletes that binding early. What happens next cannot be seen: `error`, naming the
 * binding, never `stuck` with a verdict read from forbidden requests.
 */
import { FakeCluster, kialiStuck } from '../fake-apiserver/index.js';
import { renderSummary } from '../../src/report/markdown.js';
import { FAST, runEngine } from '../helpers/harness.js';

describe('rights that came from inside the namespace', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('reads become forbidden after the DELETE: error, the binding named, no verdict from forbidden reads', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    cluster.rightsFromRoleBinding(s.namespace, 'ci-admin');
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: s.namespace, timeout: '3s' });
    const t = report.targets[0]!;
    expect(t.outcome).toBe('error');
    // The cause first, the server's words last: a table cell is cut after a few hundred characters.
    expect(t.note).toMatch(
      /^the outcome cannot be seen: the rights came from RoleBinding istio-system\/ci-admin in the namespace itself, which its deletion removed, so reading namespace istio-system became forbidden after its DELETE\. .* The API server said: .*403/,
    );
    const row = renderSummary(report)
      .split('\n')
      .find((l) => l.startsWith('| istio-system'));
    expect(row).toContain('RoleBinding istio-system/ci-admin');
    expect(t.findings).toEqual([]);
    expect(report.result).toBe('error');
    // It did hang (the Kiali CR's finalizer): the run only could not see it.
    expect(cluster.namespace(s.namespace)?.status?.phase).toBe('Terminating');
  });

  test('the same identity with rights that stay (a ClusterRole outside the namespace): stuck, with its verdict', async () => {
    const s = kialiStuck({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: s.namespace, timeout: '3s' });
    expect(report.targets[0]!.outcome).toBe('stuck');
    expect(report.targets[0]!.findings[0]).toMatchObject({ id: 'finalizer-owner-gone', verdict: 'leaked' });
  });
});
