/**
 * A CRD whose conversion webhook is gone, on the real server: objects stored at v1beta1, v1 preferred, the webhook's
 * Service missing. Every read at v1 fails with the measured 500; the diagnosis names the CRD, both versions and the
 * Service, lists the objects at v1beta1, and its command — pasted — lets the namespace go.
 */
import { apply, kubectl, namespace, raw, admin, runAction, uniqueName, waitGone } from './kit.js';

describe('a conversion webhook that is gone, on the real server', () => {
  const group = `${uniqueName('conv')}.example.com`;
  const crd = `gadgets.${group}`;
  const version = (storage: string): Record<string, unknown> => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crd },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
      versions: ['v1beta1', 'v1'].map((name) => ({
        name,
        served: true,
        storage: name === storage,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
    },
  });

  beforeAll(async () => {
    await apply(version('v1beta1'));
    await kubectl(['wait', '--for=condition=Established', '--timeout=30s', `crd/${crd}`]);
  });
  afterAll(() => kubectl(['delete', 'crd', crd, '--ignore-not-found', '--wait=false']));

  async function gadgets(ns: string, finalizers?: string[]): Promise<void> {
    await apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    for (const name of ['g1', 'g2'])
      await apply({
        apiVersion: `${group}/v1beta1`,
        kind: 'Gadget',
        metadata: { namespace: ns, name, ...(finalizers ? { finalizers } : {}) },
      });
    const withWebhook = version('v1beta1') as { spec: Record<string, unknown> };
    withWebhook.spec.conversion = {
      strategy: 'Webhook',
      webhook: {
        conversionReviewVersions: ['v1'],
        clientConfig: {
          service: { namespace: 'conv-system', name: 'conv-webhook', path: '/convert', port: 443 },
        },
      },
    };
    await apply(withWebhook);
  }

  test('named with its versions and Service; the command it prints, pasted, lets the namespace go', async () => {
    const ns = uniqueName('conv');
    await gadgets(ns);
    const list = await raw(admin(), 'GET', `/apis/${group}/v1/namespaces/${ns}/gadgets`);
    expect(list.status).toBe(500);
    expect(list.json.message).toBe(
      `conversion webhook for ${group}/v1beta1, Kind=Gadget failed: Post "https://conv-webhook.conv-system.svc:443/convert?timeout=30s": service "conv-webhook" not found`,
    );
    const run = await runAction({ namespaces: ns, timeout: '15s', 'fail-on': 'stuck' });
    expect(run.outputs.result).toBe('stuck');
    const v = run.report!.targets[0]!.findings[0]!;
    expect(v.id).toBe('conversion-failed');
    expect(v.summary).toBe(
      `${crd} cannot be listed or deleted: objects stored at v1beta1 must be converted to v1 and its conversion webhook's service conv-system/conv-webhook does not exist; 2 object(s) found by listing at v1beta1, which needs no conversion`,
    );
    const fix = v.remedy.commands[0]!;
    expect(fix).toBe(`kubectl delete gadgets.v1beta1.${group} --all -n ${ns} --wait=false`);
    await kubectl(fix.split(' ').slice(1));
    expect(await waitGone(ns, 60_000)).toBe(true);
  });

  test('with /finalize allowed the namespace goes, and the report lists what it leaves of that type', async () => {
    const ns = uniqueName('convf');
    await gadgets(ns, [`${group}/cleanup`]);
    const run = await runAction({
      namespaces: ns,
      timeout: '20s',
      force: 'on',
      'force-after': '8s',
      'force-finalize-namespace': 'true',
      'fail-on': 'stuck',
    });
    expect(run.outputs.result).toBe('forced');
    expect(await namespace(ns)).toBeUndefined();
    const step = run.report!.targets[0]!.force!.plan.steps.find((s) => s.kind === 'namespace-finalize');
    const orphans = step && 'orphans' in step ? step.orphans : [];
    expect(orphans).toEqual(
      expect.arrayContaining([
        `gadgets.${group}/g1 (never marked for deletion; keeps ${group}/cleanup)`,
        `${crd}: 2 object(s) found by listing at v1beta1, which needs no conversion`,
      ]),
    );
    // They are in storage, as the report says: readable at v1beta1 without a namespace.
    const left = await raw(admin(), 'GET', `/apis/${group}/v1beta1/namespaces/${ns}/gadgets`);
    expect(left.json.items.map((i: { metadata: { name: string } }) => i.metadata.name).sort()).toEqual([
      'g1',
      'g2',
    ]);
  });
});
