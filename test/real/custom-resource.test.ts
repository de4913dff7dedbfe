import {
  apply,
  createCRD,
  createNamespace,
  get,
  namespace,
  runAction,
  uniqueName,
  waitCondition,
} from './kit.js';

const WIDGETS = '/apis/example.com/v1/namespaces';

describe('a custom resource finalizer on the real server', () => {
  beforeAll(() => createCRD('example.com', 'Widget', 'widgets'));

  test('by selector: the clean namespace goes, the held one is stuck and diagnosed; by exact name it is forced', async () => {
    const label = uniqueName('pr');
    const clean = uniqueName('clean');
    const held = uniqueName('held');
    await createNamespace(clean, { preview: label });
    await createNamespace(held, { preview: label });
    await apply({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { namespace: held, name: 'w1', finalizers: ['example.com/cleanup'] },
    });

    const first = await runAction({ selector: `preview=${label}`, timeout: '25s', 'fail-on': 'stuck' });
    expect(first.code).toBe(1);
    expect(first.outputs.result).toBe('stuck');
    expect(JSON.parse(first.outputs.deleted!)).toEqual([clean]);
    expect(JSON.parse(first.outputs.stuck!)).toEqual([held]);
    const stuck = first.report!.targets.find((t) => t.name === held)!;
    expect(stuck.findings.map((f) => f.id)).toContain('object-finalizers');
    expect(first.summary).toContain('example.com/cleanup');
    expect(await namespace(clean)).toBeUndefined();
    expect((await namespace(held)).status.phase).toBe('Terminating');
    // The controller's own words, as 1.20 writes them.
    expect((await waitCondition(held, 'NamespaceFinalizersRemaining')).message).toBe(
      'Some content in the namespace has finalizers remaining: example.com/cleanup in 1 resource instances',
    );

    const forced = await runAction({
      namespaces: held,
      timeout: '40s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'example.com/cleanup',
      'fail-on': 'stuck',
    });
    expect(forced.code).toBe(0);
    expect(forced.outputs.result).toBe('forced');
    expect(JSON.parse(forced.outputs.forced!)).toEqual([held]);
    const t = forced.report!.targets[0]!;
    expect(t.force!.audit).toMatchObject([
      { object: 'widgets.example.com/w1', before: ['example.com/cleanup'], after: [], result: 'removed' },
    ]);
    expect(await namespace(held)).toBeUndefined();
    expect(await get(`${WIDGETS}/${held}/widgets/w1`)).toBeUndefined();
  });
});
