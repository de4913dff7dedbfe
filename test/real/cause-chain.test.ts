/**
 * The cause one step removed, on the real kube-apiserver 1.20: an APIService whose backend's namespace is itself being
 * deleted (its provider being uninstalled) says so and that the backend is not coming back; a Service held by the
 * load-balancer finalizer names its load balancer from status.loadBalancer.
 */
import {
  admin,
  apply,
  clearFinalizers,
  createNamespace,
  get,
  kubectl,
  raw,
  runAction,
  uniqueName,
  waitFor,
  waitGone,
} from './kit.js';

describe('the cause one step removed', () => {
  test('an APIService whose backend’s namespace is Terminating: leaked, the namespace named first, its deletion the fix', async () => {
    const mon = uniqueName('mon');
    const app = uniqueName('app');
    const group = `${uniqueName('metrics')}.example.com`;
    const name = `v1beta1.${group}`;
    await createNamespace(mon);
    await createNamespace(app);
    await apply(
      {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { namespace: mon, name: 'adapter' },
        spec: { ports: [{ port: 443 }] },
      },
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace: mon, name: 'held', finalizers: ['example.com/hold'] },
      },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { namespace: app, name: 'app' } },
      {
        apiVersion: 'apiregistration.k8s.io/v1',
        kind: 'APIService',
        metadata: { name },
        spec: {
          group,
          version: 'v1beta1',
          service: { namespace: mon, name: 'adapter', port: 443 },
          groupPriorityMinimum: 100,
          versionPriority: 100,
          insecureSkipTLSVerify: true,
        },
      },
    );
    try {
      // kube-apiserver's availability controller marks it: no endpoints behind the Service.
      await waitFor(
        async () => {
          const a = await get(`/apis/apiregistration.k8s.io/v1/apiservices/${name}`);
          const c = (a?.status?.conditions ?? []).find((x: { type: string }) => x.type === 'Available');
          return c?.status === 'False' || undefined;
        },
        30_000,
        250,
      );
      await kubectl(['delete', 'namespace', mon, '--wait=false']);
      const run = await runAction({ namespaces: app, timeout: '12s', 'fail-on': 'stuck' });
      const f = run.report!.targets[0]!.findings.find((x) => x.id === 'apiservice-unavailable')!;
      expect(f.summary).toMatch(
        new RegExp(
          `^APIService ${name.replace(/\./g, '\\.')} is unavailable \\([^)]*\\): its namespace ${mon} is itself being deleted \\(since [^)]+\\): the backend is not coming back`,
        ),
      );
      expect(f).toMatchObject({ verdict: 'leaked', leaked: true });
      expect(f.remedy.commands).toEqual([`kubectl delete apiservice ${name}`]);
    } finally {
      await kubectl(['delete', 'apiservice', name, '--ignore-not-found']);
      await clearFinalizers(`/api/v1/namespaces/${mon}/configmaps/held`).catch(() => undefined);
    }
    expect(await waitGone(app)).toBe(true);
    expect(await waitGone(mon)).toBe(true);
  });

  test('a Service held by load-balancer-cleanup: the finding names the load balancer of its status', async () => {
    const ns = uniqueName('lb');
    await createNamespace(ns);
    await apply({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { namespace: ns, name: 'edge', finalizers: ['service.kubernetes.io/load-balancer-cleanup'] },
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
    });
    await raw(admin(), 'PATCH', `/api/v1/namespaces/${ns}/services/edge/status`, {
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: { status: { loadBalancer: { ingress: [{ ip: '203.0.113.9' }] } } },
    });
    const run = await runAction({ namespaces: ns, timeout: '12s', 'fail-on': 'stuck' });
    const f = run.report!.targets[0]!.findings.find((x) => x.id === 'finalizer-owner-gone')!;
    expect(f.summary).toMatch(
      /^service\.kubernetes\.io\/load-balancer-cleanup on services\/edge \(load balancer 203\.0\.113\.9\): /,
    );
    expect(f.evidence).toContainEqual({
      object: 'service/edge',
      field: 'status.loadBalancer.ingress',
      value: '203.0.113.9',
    });
    await clearFinalizers(`/api/v1/namespaces/${ns}/services/edge`);
    expect(await waitGone(ns)).toBe(true);
  });
});
