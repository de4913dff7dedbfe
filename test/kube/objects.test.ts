import type { KubeClient } from '../../src/kube/client.js';
import { KubeError, type ObjectEvent } from '../../src/kube/port.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { connectKube } from '../helpers/harness.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };

describe('deleteObject and watchObjects over real HTTPS', () => {
  let cluster: FakeCluster;
  let kube: KubeClient;

  beforeEach(async () => {
    cluster = new FakeCluster();
    cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
    cluster.addNamespace('pr-1');
    cluster.addObject(WIDGETS, { namespace: 'pr-1', name: 'held', finalizers: ['acme.io/cleanup'] });
    cluster.addObject(WIDGETS, { namespace: 'pr-1', name: 'free' });
    kube = await connectKube(cluster);
  });
  afterEach(async () => {
    await kube.close();
    await cluster.stop();
  });

  test('a DELETE with Background propagation and the UID precondition; the finalizer keeps it, marked', async () => {
    const uid = cluster.get(WIDGETS, 'pr-1', 'held').metadata.uid;
    // The answer is the object, marked and still held by its finalizer: not removed.
    await expect(kube.deleteObject(WIDGETS, 'pr-1', 'held', { uid })).resolves.toMatchObject({
      removed: false,
      answer: { meta: { finalizers: ['acme.io/cleanup'], deletionTimestamp: expect.any(String) } },
    });
    const sent = cluster.requests.find((r) => r.method === 'DELETE')!;
    expect(sent.path).toBe('/apis/widgets.acme.io/v1/namespaces/pr-1/widgets/held');
    expect(sent.body).toEqual({
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      propagationPolicy: 'Background',
      preconditions: { uid },
    });
    expect(cluster.get(WIDGETS, 'pr-1', 'held').metadata.deletionTimestamp).toBeDefined();
  });

  test('another UID is refused with 409 and nothing changes; a missing object is gone', async () => {
    const err = await kube
      .deleteObject(WIDGETS, 'pr-1', 'free', { uid: 'not-its-uid' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(KubeError);
    expect((err as KubeError).code).toBe(409);
    expect(cluster.get(WIDGETS, 'pr-1', 'free')).toBeDefined();
    await expect(kube.deleteObject(WIDGETS, 'pr-1', 'nope', { uid: 'x' })).resolves.toBe('gone');
  });

  test('a metadata-only watch from a list resourceVersion sees the DELETED event of an object', async () => {
    const list = await kube.listMetadata(WIDGETS, { namespace: 'pr-1' });
    expect(list.resourceVersion).toMatch(/^\d+$/);
    const events: ObjectEvent[] = [];
    const handle = await kube.watchObjects(WIDGETS, 'pr-1', list.resourceVersion!, (e) => events.push(e));
    const free = cluster.get(WIDGETS, 'pr-1', 'free');
    // Nothing holds it: the answer is a Status Success, removed in that request.
    await expect(kube.deleteObject(WIDGETS, 'pr-1', 'free', { uid: free.metadata.uid })).resolves.toEqual({
      removed: true,
    });
    for (let i = 0; i < 100 && !events.some((e) => e.type === 'DELETED'); i++)
      await new Promise((r) => setTimeout(r, 20));
    handle.stop();
    await handle.done;
    expect(events).toContainEqual({
      type: 'DELETED',
      object: expect.objectContaining({ name: 'free', uid: free.metadata.uid }),
    });
    const watch = cluster.requests.find((r) => /watch=1/.test(r.query))!;
    expect(watch.path).toBe('/apis/widgets.acme.io/v1/namespaces/pr-1/widgets');
    expect(watch.accept).toMatch(/^application\/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1/);
  });
});
