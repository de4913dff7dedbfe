import {
  apply,
  clearFinalizers,
  createCRD,
  namespace,
  raw,
  admin,
  runAction,
  uniqueName,
  waitFor,
} from './kit.js';

describe('a namespace recreated under the same name during the wait, on the real server', () => {
  beforeAll(() => createCRD('example.com', 'Widget', 'widgets'));

  test('the new namespace (another UID) is never deleted or forced', async () => {
    const ns = uniqueName('recreated');
    await apply(
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } },
      {
        apiVersion: 'example.com/v1',
        kind: 'Widget',
        metadata: { namespace: ns, name: 'w1', finalizers: ['example.com/cleanup'] },
      },
    );
    const oldUid = (await namespace(ns)).metadata.uid as string;
    const running = runAction({
      namespaces: ns,
      timeout: '40s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'example.com/*',
      'fail-on': 'stuck',
    });
    await waitFor(async () => (await namespace(ns))?.metadata.deletionTimestamp, 20_000, 100);
    // Release the old namespace ourselves and take the name back as soon as the server lets us.
    await clearFinalizers(`/apis/example.com/v1/namespaces/${ns}/widgets/w1`);
    const created = await waitFor(
      async () => {
        const r = await raw(admin(), 'POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
        return r.status === 201 ? r.json : undefined;
      },
      30_000,
      20,
    );
    const run = await running;

    const t = run.report!.targets[0]!;
    expect(['gone', 'recreated', 'forced']).toContain(t.outcome);
    expect(t.uid).toBe(oldUid);
    // Which one the action sees first (the DELETED event or the new namespace) is a race on a real server.
    if (t.outcome === 'recreated') {
      expect(t.recreatedUid).toBe(created.metadata.uid);
      expect(run.stdout).toContain(`(new UID ${created.metadata.uid}); the new one was not touched`);
    }
    const now = await namespace(ns);
    expect(now.metadata.uid).toBe(created.metadata.uid);
    expect(now.metadata.deletionTimestamp).toBeUndefined();
    expect(now.status.phase).toBe('Active');
  });
});
