import {
  admin,
  apply,
  createCRD,
  createNamespace,
  get,
  kubectl,
  namespace,
  raw,
  runAction,
  uniqueName,
} from './kit.js';
import { resultText } from '../../src/force/audit.js';

const GROUP = 'lastresort.example.com';
const minutesAgo = (n: number): string =>
  new Date(Date.now() - n * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');

describe('the last resort and lost nodes on the real server', () => {
  beforeAll(() => createCRD(GROUP, 'Gadget', 'gadgets'));

  test('a Fail webhook refuses the CR delete: /finalize goes ahead, the CR stays in storage and is listed', async () => {
    const ns = uniqueName('hooked');
    const hook = uniqueName('gadget-guard');
    await createNamespace(ns);
    await apply({
      apiVersion: `${GROUP}/v1`,
      kind: 'Gadget',
      metadata: { namespace: ns, name: 'g1', finalizers: [`${GROUP}/cleanup`] },
    });
    await apply({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: hook },
      webhooks: [
        {
          name: `${hook}.example.com`,
          clientConfig: { service: { namespace: 'nowhere', name: 'gone', port: 443 } },
          rules: [{ operations: ['DELETE'], apiGroups: [GROUP], apiVersions: ['*'], resources: ['gadgets'] }],
          failurePolicy: 'Fail',
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    try {
      // force-after leaves the controller time to record the refused delete in its conditions.
      const run = await runAction({
        namespaces: ns,
        timeout: '60s',
        force: 'on',
        'force-after': '10s',
        'force-finalizers': `${GROUP}/*`,
        'force-finalize-namespace': 'true',
        'fail-on': 'stuck',
      });
      expect(run.outputs.result).toBe('forced');
      const t = run.report!.targets[0]!;
      expect(t.findings.map((f) => f.id)).toContain('content-delete-refused');
      expect(t.force!.audit.map((a) => `${a.object}: ${resultText(a)}`)).toEqual([
        `gadgets.${GROUP}/g1: skipped: not being deleted yet`,
        `namespace/${ns}: finalized`,
      ]);
      const fin = t.force!.plan.steps.find((s) => s.kind === 'namespace-finalize');
      expect(fin?.kind === 'namespace-finalize' && fin.orphans).toContain(
        `gadgets.${GROUP}/g1 (never marked for deletion; keeps ${GROUP}/cleanup)`,
      );
      expect(await namespace(ns)).toBeUndefined();
      const left = await get(`/apis/${GROUP}/v1/namespaces/${ns}/gadgets/g1`);
      expect(left.metadata.deletionTimestamp).toBeUndefined();
      expect(left.metadata.finalizers).toEqual([`${GROUP}/cleanup`]);
    } finally {
      await kubectl(['delete', 'validatingwebhookconfiguration', hook]);
      await raw(admin(), 'PATCH', `/apis/${GROUP}/v1/namespaces/${ns}/gadgets/g1`, {
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: { metadata: { finalizers: null } },
      });
      await raw(admin(), 'DELETE', `/apis/${GROUP}/v1/namespaces/${ns}/gadgets/g1`);
    }
  });

  test('a pod bound to a node that stopped reporting: deleted with grace 0, the namespace goes without /finalize', async () => {
    const ns = uniqueName('lost');
    const node = uniqueName('spot');
    await createNamespace(ns);
    // A Node may be created with its status (as a kubelet registers): Ready Unknown for ten minutes.
    const since = minutesAgo(10);
    await apply({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: node },
      status: {
        conditions: [
          {
            type: 'Ready',
            status: 'Unknown',
            reason: 'NodeStatusUnknown',
            message: 'Kubelet stopped posting node status.',
            lastHeartbeatTime: since,
            lastTransitionTime: since,
          },
        ],
      },
    });
    await apply({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { namespace: ns, name: 'web-0' },
      spec: {
        nodeName: node,
        automountServiceAccountToken: false,
        containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.2' }],
      },
    });
    const uid = (await get(`/api/v1/namespaces/${ns}/pods/web-0`)).metadata.uid;
    try {
      // One forcing pass decides a dry-run: force-after leaves the controller time to mark the pod first.
      const dry = await runAction({
        namespaces: ns,
        timeout: '20s',
        force: 'dry-run',
        'force-after': '10s',
        'force-delete-pods': 'lost-nodes',
      });
      expect(dry.outputs.result).toBe('stuck');
      expect(dry.report!.targets[0]!.force!.audit.map((a) => [a.object, a.result, a.writes])).toEqual([
        ['pods/web-0', 'dry-run', 0],
      ]);
      expect((await get(`/api/v1/namespaces/${ns}/pods/web-0`)).metadata.uid).toBe(uid);

      const run = await runAction({
        namespaces: ns,
        timeout: '40s',
        force: 'on',
        'force-after': '1s',
        'force-delete-pods': 'lost-nodes',
        'fail-on': 'stuck',
      });
      expect(run.outputs.result).toBe('forced');
      const t = run.report!.targets[0]!;
      // The audit holds every pass; the plan is the last one (after the delete, nothing was left to force).
      expect(t.force!.audit).toMatchObject([
        { step: 'pod-delete', object: 'pods/web-0', result: 'deleted', writes: 1 },
      ]);
      expect(await namespace(ns)).toBeUndefined();
      expect(await get(`/api/v1/namespaces/${ns}/pods/web-0`)).toBeUndefined();
      // The node is outside the target: never changed.
      expect(await get(`/api/v1/nodes/${node}`)).toBeDefined();
    } finally {
      await kubectl(['delete', 'node', node]);
    }
  });
});
