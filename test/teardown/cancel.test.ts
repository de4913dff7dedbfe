import { refuseWritesOn } from '../../src/teardown/cancel.js';
import type { Kube } from '../../src/kube/port.js';

/** A Kube whose every method records its name and resolves. */
function recording(): { kube: Kube; calls: string[] } {
  const calls: string[] = [];
  const kube = new Proxy({} as Kube, {
    get: (_, name: string) => async () => {
      calls.push(name);
      return 'ok';
    },
  });
  return { kube, calls };
}

describe('after cancellation no new write starts', () => {
  const guard = { uid: 'u', resourceVersion: '1' };
  const res = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };
  test.each([
    { name: 'delete of a namespace', write: (k: Kube) => k.deleteNamespace('pr-1', { uid: 'u' }) },
    { name: 'finalizer patch', write: (k: Kube) => k.patchFinalizers(res, 'pr-1', 'kiali', guard, []) },
    { name: 'pod delete', write: (k: Kube) => k.deletePod('pr-1', 'web', 'u') },
    {
      name: 'delete of a custom resource',
      write: (k: Kube) => k.deleteObject(res, 'pr-1', 'kiali', { uid: 'u' }),
    },
    { name: '/finalize', write: (k: Kube) => k.finalizeNamespace('pr-1', guard, []) },
  ])('$name is refused once cancelled, sent before', async ({ write }) => {
    const { kube, calls } = recording();
    const cancel = new AbortController();
    const guarded = refuseWritesOn(kube, cancel.signal);
    await write(guarded);
    expect(calls).toHaveLength(1);
    cancel.abort();
    await expect(write(guarded)).rejects.toThrow(/the run was cancelled; no .* was sent/);
    expect(calls).toHaveLength(1);
  });

  test('reads still pass after cancellation', async () => {
    const { kube, calls } = recording();
    const cancel = new AbortController();
    cancel.abort();
    await refuseWritesOn(kube, cancel.signal).getNamespace('pr-1');
    expect(calls).toEqual(['getNamespace']);
  });
});
