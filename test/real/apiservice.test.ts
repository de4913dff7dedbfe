import {
  apply,
  condition,
  get,
  kubectl,
  namespace,
  runAction,
  uniqueName,
  waitCondition,
  waitGone,
} from './kit.js';

const APISERVICE = '/apis/apiregistration.k8s.io/v1/apiservices/v1beta1.metrics.k8s.io';

describe('a dead v1beta1.metrics.k8s.io APIService on the real server', () => {
  // While it exists every namespace deletion in the cluster is blocked: create it for this suite only.
  beforeAll(() =>
    apply({
      apiVersion: 'apiregistration.k8s.io/v1',
      kind: 'APIService',
      metadata: { name: 'v1beta1.metrics.k8s.io' },
      spec: {
        group: 'metrics.k8s.io',
        version: 'v1beta1',
        service: { namespace: 'kube-system', name: 'metrics-server', port: 443 },
        groupPriorityMinimum: 100,
        versionPriority: 100,
        insecureSkipTLSVerify: true,
      },
    }),
  );
  afterAll(() => kubectl(['delete', 'apiservice', 'v1beta1.metrics.k8s.io', '--ignore-not-found']));

  test('is diagnosed, nothing is forced without force-finalize-namespace, and /finalize finishes it when allowed', async () => {
    const ns = uniqueName('metrics');
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: ns, name: 'app-config' },
        data: { a: 'b' },
      },
    );
    const first = await runAction({
      namespaces: ns,
      timeout: '15s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'example.com/*',
      'fail-on': 'stuck',
    });
    expect(first.code).toBe(1);
    expect(first.outputs.result).toBe('stuck');
    const t = first.report!.targets[0]!;
    const finding = t.findings.find((f) => f.id === 'apiservice-unavailable');
    expect(finding).toBeDefined();
    expect(finding!.remedy.commands.join('\n')).toContain('kubectl delete apiservice v1beta1.metrics.k8s.io');
    expect(t.force!.plan.steps).toEqual([]);
    expect(first.summary).toContain('v1beta1.metrics.k8s.io');
    const stuck = await namespace(ns);
    expect(stuck.spec.finalizers).toEqual(['kubernetes']);
    expect(condition(stuck, 'NamespaceDeletionDiscoveryFailure')).toMatchObject({
      status: 'True',
      reason: 'DiscoveryFailed',
      message:
        'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request',
    });

    const forced = await runAction({
      namespaces: ns,
      timeout: '30s',
      force: 'on',
      'force-after': '1s',
      'force-finalize-namespace': 'true',
      'fail-on': 'stuck',
    });
    expect(forced.code).toBe(0);
    expect(forced.outputs.result).toBe('forced');
    expect(forced.report!.targets[0]!.force!.audit.map((a) => [a.field, a.result])).toContainEqual([
      'spec.finalizers',
      'finalized',
    ]);
    expect(await namespace(ns)).toBeUndefined();
    // The APIService is outside the target: reported, never changed.
    expect((await get(APISERVICE)).spec.service.name).toBe('metrics-server');
  });

  test('the remedy the report gives (delete the APIService) lets the controller finish on its own', async () => {
    const ns = uniqueName('metrics');
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    await kubectl(['delete', 'namespace', ns, '--wait=false']);
    expect((await waitCondition(ns, 'NamespaceDeletionDiscoveryFailure')).reason).toBe('DiscoveryFailed');
    await kubectl(['delete', 'apiservice', 'v1beta1.metrics.k8s.io']);
    expect(await waitGone(ns, 60_000)).toBe(true);
  });
});
