/**
 * The cause one step removed, over the fake API server: an APIService or a webhook whose backend is down because the
 * backend's own namespace is being deleted (its provider uninstalled) says so, and that the backend is not coming
 * back; with that namespace not being deleted, the same backend is only down, and may come back. A load-balancer
 * finalizer names the load balancer it guards, from the Service's status.loadBalancer.
 */
import { diagnose } from '../../src/diagnosis/index.js';
import { takeSnapshot } from '../../src/diagnosis/snapshot/take.js';
import type { Finding } from '../../src/model/findings.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, connectKube, runEngine } from '../helpers/harness.js';

const GVR_CM = { group: '', version: 'v1', resource: 'configmaps' };

/** preview-1 (a ConfigMap), and `monitoring` holding the backend's Service with no ready endpoint; `uninstalling`: monitoring is being deleted, kept Terminating by a finalizer. */
function world(o: { uninstalling: boolean; via: 'apiservice' | 'webhook' }): FakeCluster {
  const c = new FakeCluster({ controller: FAST });
  c.addNamespace('preview-1');
  c.addObject(GVR_CM, { namespace: 'preview-1', name: 'app' });
  c.addNamespace('monitoring');
  c.addService('monitoring', 'adapter', 0);
  c.addObject(GVR_CM, { namespace: 'monitoring', name: 'held', finalizers: ['example.com/hold'] });
  if (o.via === 'apiservice')
    c.addAPIService({
      group: 'metrics.k8s.io',
      version: 'v1beta1',
      service: { namespace: 'monitoring', name: 'adapter', port: 443 },
      available: false,
    });
  else
    c.addWebhook({
      kind: 'Validating',
      name: 'guard.example.com',
      failurePolicy: 'Fail',
      resources: ['configmaps'],
      operations: ['DELETE'],
      service: { namespace: 'monitoring', name: 'adapter' },
      down: true,
    });
  return c;
}

/** Delete monitoring (when uninstalling) and preview-1, wait until preview-1's controller has said why it waits. */
async function findingsOf(o: { uninstalling: boolean; via: 'apiservice' | 'webhook' }): Promise<Finding[]> {
  const cluster = world(o);
  const kube = await connectKube(cluster);
  try {
    if (o.uninstalling) await kube.deleteNamespace('monitoring');
    await kube.deleteNamespace('preview-1');
    for (let i = 0; i < 200; i++) {
      const ns = await kube.getNamespace('preview-1');
      const said = ns?.conditions.some((c) => c.status === 'True' && /Failure$/.test(c.type));
      if (ns && said) return diagnose(await takeSnapshot(kube, ns));
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('preview-1 never said why it waits');
  } finally {
    await kube.close();
    await cluster.stop();
  }
}

const GOING =
  /its namespace monitoring is itself being deleted \(since [^)]+\): the backend is not coming back/;

describe('an APIService whose backend’s namespace is being deleted', () => {
  test('says its namespace is going, first: leaked, and deleting the APIService is the fix', async () => {
    const f = (await findingsOf({ uninstalling: true, via: 'apiservice' })).find(
      (x) => x.id === 'apiservice-unavailable',
    )!;
    expect(f.summary).toMatch(
      new RegExp(`^APIService v1beta1\\.metrics\\.k8s\\.io is unavailable \\([^)]*\\): ${GOING.source}`),
    );
    expect(f).toMatchObject({ verdict: 'leaked', leaked: true });
    expect(f.remedy.commands).toEqual(['kubectl delete apiservice v1beta1.metrics.k8s.io']);
    expect(f.remedy.note).toMatch(/being uninstalled/);
    expect(f.evidence).toContainEqual(
      expect.objectContaining({ object: 'namespace/monitoring', field: 'metadata.deletionTimestamp' }),
    );
  }, 30_000);

  test('flipped — monitoring not being deleted: backend-down, its deletion a last resort, nothing said of it', async () => {
    const f = (await findingsOf({ uninstalling: false, via: 'apiservice' })).find(
      (x) => x.id === 'apiservice-unavailable',
    )!;
    expect(f.summary).not.toMatch(/being deleted/);
    expect(f).toMatchObject({ verdict: 'backend-down', leaked: false });
    expect(f.remedy.lastResort?.commands).toEqual(['kubectl delete apiservice v1beta1.metrics.k8s.io']);
  }, 30_000);
});

describe('a webhook whose backend’s namespace is being deleted', () => {
  test('its refusal names the namespace going, and the webhook’s removal as the fix', async () => {
    const found = await findingsOf({ uninstalling: true, via: 'webhook' });
    const f = found.find((x) => x.id === 'content-delete-refused')!;
    expect(f.summary).toMatch(GOING);
    expect(f.remedy.note).toMatch(
      /^Its service is down and its namespace monitoring is itself being deleted/,
    );
    expect(f.remedy.lastResort).toBeUndefined();
  }, 30_000);

  test('flipped — monitoring not being deleted: down, restore it, nothing said of its namespace', async () => {
    const found = await findingsOf({ uninstalling: false, via: 'webhook' });
    const f = found.find((x) => x.id === 'content-delete-refused')!;
    expect(f.summary).not.toMatch(/being deleted/);
    expect(f.remedy.note).toMatch(/^Its service is down \(read in this run\)\. Restore it/);
  }, 30_000);
});

describe('a load-balancer finalizer names its load balancer (status.loadBalancer)', () => {
  const LB = 'service.kubernetes.io/load-balancer-cleanup';
  const SERVICES = { group: '', version: 'v1', resource: 'services' };

  /** preview-1 holds Service edge with the finalizer and, when `ingress`, those status.loadBalancer.ingress entries. */
  function lbWorld(ingress?: unknown[]): FakeCluster {
    const c = new FakeCluster({ controller: FAST });
    c.addNamespace('preview-1');
    c.addObject(SERVICES, {
      namespace: 'preview-1',
      name: 'edge',
      finalizers: [LB],
      spec: { type: 'LoadBalancer', ports: [{ port: 80 }] },
      ...(ingress ? { status: { loadBalancer: { ingress } } } : {}),
    });
    return c;
  }

  async function forced(cluster: FakeCluster) {
    try {
      const { kubeconfig } = await cluster.start();
      const { report } = await runEngine(kubeconfig, {
        namespaces: 'preview-1',
        timeout: '10s',
        force: 'on',
        'force-after': '1s',
        'force-finalizers': LB,
        'fail-on': 'never',
      });
      return report.targets[0]!;
    } finally {
      await cluster.stop();
    }
  }

  test('forced: the risk names the load balancer by its IP and hostname; text that is no address is dropped', async () => {
    const t = await forced(
      lbWorld([
        { ip: '203.0.113.7' },
        { hostname: 'a1b2.elb.example.com' },
        { hostname: 'x](http://evil) `y`' },
      ]),
    );
    const removal = t.force!.plan.steps.flatMap((s) => (s.kind === 'object-finalizers' ? s.remove : []))[0];
    expect(removal?.risk).toBe(
      'the cloud load balancer 203.0.113.7, a1b2.elb.example.com is not deleted: it is leaked and keeps costing money',
    );
    expect(JSON.stringify(t)).not.toContain('evil');
    // The finding says it before forcing: the summary names it after the object, the evidence cites the status.
    const f = t.findings.find((x) => x.id === 'finalizer-owner-gone' && x.summary.startsWith(LB))!;
    expect(f.summary).toMatch(
      /^service\.kubernetes\.io\/load-balancer-cleanup on services\/edge \(load balancer 203\.0\.113\.7, a1b2\.elb\.example\.com\): /,
    );
    expect(f.evidence).toContainEqual({
      object: 'service/edge',
      field: 'status.loadBalancer.ingress',
      value: '203.0.113.7, a1b2.elb.example.com',
    });
  }, 30_000);

  test('flipped — no status.loadBalancer: the risk says a load balancer, none named', async () => {
    const t = await forced(lbWorld());
    const removal = t.force!.plan.steps.flatMap((s) => (s.kind === 'object-finalizers' ? s.remove : []))[0];
    expect(removal?.risk).toBe(
      'the cloud load balancer is not deleted: it is leaked and keeps costing money',
    );
  }, 30_000);
});
