import { parseConditions } from '../../src/diagnosis/conditions.js';
import { stillProgressing } from '../../src/diagnosis/rules/still-progressing.js';
import {
  CONFIGMAPS,
  KIALIS,
  ago,
  conditions,
  kialiCr,
  leftover,
  namespace,
  pod,
  snapshot,
  type RuleRow,
} from './fixtures.js';

const rows: RuleRow[] = [
  {
    name: 'objects without finalizers and a pod inside its grace period: progress with an estimate',
    given: snapshot({
      leftovers: [
        leftover(CONFIGMAPS, { name: 'settings' }),
        leftover(CONFIGMAPS, { name: 'kube-root-ca.crt' }),
      ],
      pods: [pod({ name: 'web-1', deletionTimestamp: ago(-20), terminationGracePeriodSeconds: 30 })],
    }),
    expect: [
      {
        id: 'still-progressing',
        severity: 'notice',
        leaked: false,
        summary:
          'content is still being removed normally: 1 pods, 2 configmaps without finalizers; estimate ~50s',
        evidence: [
          { object: 'pods/web-1', field: 'metadata.deletionTimestamp', value: ago(-20) },
          { object: 'configmaps/settings', field: 'metadata.finalizers', value: '[]' },
          { object: 'configmaps/kube-root-ca.crt', field: 'metadata.finalizers', value: '[]' },
        ],
        remedy: {
          commands: ['kubectl wait --for=delete namespace/preview-42 --timeout=100s'],
          note: expect.stringContaining('Nothing to force') as unknown as string,
        },
      },
    ],
  },
  {
    name: 'deletes failing: still reported, pointing at content-delete-refused',
    given: snapshot({
      namespace: namespace({
        conditions: conditions({
          NamespaceDeletionContentFailure: [
            'ContentDeletionFailed',
            'Failed to delete all resource types, 1 remaining: x',
          ],
        }),
      }),
      leftovers: [leftover(CONFIGMAPS, { name: 'settings' })],
    }),
    expect: [
      {
        summary: expect.stringContaining(
          'estimate ~30s — and deletes are failing, see content-delete-refused',
        ) as unknown as string,
      },
    ],
  },
  {
    name: 'only objects holding finalizers: nothing progressing',
    given: snapshot({ leftovers: [kialiCr()] }),
    expect: [],
  },
  {
    name: 'deleted 3 s ago, no conditions yet: the first pass is pending',
    given: snapshot({ namespace: namespace({ deletionTimestamp: ago(3), conditions: [] }) }),
    expect: [
      {
        severity: 'notice',
        summary:
          'namespace preview-42 was deleted 3s ago; the namespace controller has not finished its first pass',
      },
    ],
  },
  { name: 'nothing left and conditions written: nothing to say', given: snapshot(), expect: [] },
  {
    name: 'healthy content behind a pod that cannot terminate: no estimate, points at pods-not-terminating',
    given: snapshot({
      leftovers: [leftover(CONFIGMAPS, { name: 'settings' })],
      pods: [pod({ name: 'web-0', deletionTimestamp: ago(600), terminationGracePeriodSeconds: 30 })],
    }),
    expect: [
      {
        summary:
          'content is still being removed normally: 1 configmaps without finalizers; but they wait behind 1 pod(s) that are not terminating (see pods-not-terminating)',
      },
    ],
  },
  {
    name: 'many objects: evidence capped with a count of the rest',
    given: snapshot({ leftovers: Array.from({ length: 15 }, (_, i) => leftover(KIALIS, { name: `k${i}` })) }),
    expect: [
      {
        summary:
          'content is still being removed normally: 15 kialis.kiali.io without finalizers; estimate ~30s',
        evidence: expect.arrayContaining([{ object: '…', field: 'more objects', value: '5' }]) as never,
      },
    ],
  },
];

describe('still-progressing', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = stillProgressing(given, parseConditions(given.namespace.conditions));
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});
