/** The namespace DELETE is requested only when its answer shows it: marked with a deletionTimestamp, or removed. */
import type { DeleteAnswer, Kube } from '../../src/kube/port.js';
import { requestDeletion } from '../../src/targets/resolve.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import type { NamespaceState } from '../../src/model/cluster.js';

const target: NamespaceState = {
  name: 'pr-1',
  uid: 'u-1',
  resourceVersion: '5',
  phase: 'Active',
  labels: {},
  metadataFinalizers: [],
  specFinalizers: ['kubernetes'],
  conditions: [],
};

const answered = (deletionTimestamp?: string): DeleteAnswer => ({
  removed: false,
  answer: {
    meta: {
      name: 'pr-1',
      uid: 'u-1',
      resourceVersion: '6',
      finalizers: [],
      ownerReferences: [],
      labels: {},
      ...(deletionTimestamp ? { deletionTimestamp } : {}),
    },
    specFinalizers: ['kubernetes'],
    specFinalizerManagers: [],
    object: {},
  },
});

const kubeAnswering = (a: DeleteAnswer | 'gone'): Kube =>
  ({ deleteNamespace: async () => a }) as unknown as Kube;

const table = [
  { name: 'marked Terminating', given: answered('2026-11-22T10:00:00Z'), expect: { state: target } },
  { name: 'removed in that request', given: { removed: true } as DeleteAnswer, expect: { state: target } },
  { name: 'already gone', given: 'gone' as const, expect: { outcome: 'already-gone' } },
  {
    name: 'answered, but not marked',
    given: answered(),
    expect: {
      outcome: 'error',
      note: 'the delete request was answered, but the answer shows the namespace not being deleted (no deletionTimestamp)',
    },
  },
];

test.each(table)('$name', async ({ given, expect: want }) => {
  const got = await requestDeletion(kubeAnswering(given), target, new RecordingLogger());
  expect(got).toMatchObject(want);
});
