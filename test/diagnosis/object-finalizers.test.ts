import { objectFinalizers } from '../../src/diagnosis/rules/object-finalizers.js';
import { CONFIGMAPS, KIALIS, PVCS, ago, kialiCr, leftover, pod, snapshot, type RuleRow } from './fixtures.js';

const KIALI_PATCH =
  `kubectl patch kialis.kiali.io kiali -n preview-42 --type=json -p ` +
  `'[{"op":"test","path":"/metadata/uid","value":"kiali-uid"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;

const pvc = leftover(PVCS, {
  name: 'data-db-0',
  uid: 'pvc-uid',
  finalizers: ['kubernetes.io/pvc-protection', 'example.com/backup'],
  deletionTimestamp: ago(120),
});

const rows: RuleRow[] = [
  {
    name: 'the kiali CR of field report 004',
    given: snapshot({ leftovers: [kialiCr()] }),
    expect: [
      {
        id: 'object-finalizers',
        severity: 'warning',
        summary: 'kialis.kiali.io/kiali holds finalizer(s) kiali.io/finalizer (deleting for 10m00s)',
        evidence: [
          { object: 'kialis.kiali.io/kiali', field: 'metadata.finalizers', value: '["kiali.io/finalizer"]' },
          {
            object: 'kialis.kiali.io/kiali',
            field: 'metadata.deletionTimestamp',
            value: `${ago(600)} (10m00s ago)`,
          },
        ],
        // Whether removal is the fix depends on the controller: finalizer-owner-gone decides; here it is a last resort.
        remedy: {
          commands: [],
          lastResort: {
            commands: [KIALI_PATCH],
            bulk: [
              expect.stringContaining(
                'kubectl get kialis.kiali.io -n preview-42 -o name | xargs',
              ) as unknown as string,
            ],
            risk: expect.stringContaining('finalizer-owner-gone') as unknown as string,
          },
          policy: 'force-finalizers: kiali.io/finalizer',
          note: expect.stringContaining('finalizer-owner-gone') as unknown as string,
        },
        leaked: false,
        targets: [
          {
            kind: 'object-finalizers',
            resource: { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis', kind: 'Kiali' },
            name: 'kiali',
            uid: 'kiali-uid',
            resourceVersion: '7',
            deleting: true,
            finalizers: ['kiali.io/finalizer'],
            waiting: [],
          },
        ],
      },
    ],
  },
  {
    name: 'pvc-protection while a pod mounts the claim is waiting; only the other finalizer is removed',
    given: snapshot({ leftovers: [pvc], pods: [pod({ name: 'db-0', claims: ['data-db-0'] })] }),
    expect: [
      {
        severity: 'warning',
        summary:
          'persistentvolumeclaims/data-db-0 holds finalizer(s) kubernetes.io/pvc-protection, example.com/backup (deleting for 2m00s)',
        remedy: expect.objectContaining({
          commands: [],
          lastResort: expect.objectContaining({
            commands: [
              `kubectl patch persistentvolumeclaims data-db-0 -n preview-42 --type=json -p ` +
                `'[{"op":"test","path":"/metadata/uid","value":"pvc-uid"},{"op":"test","path":"/metadata/finalizers/1","value":"example.com/backup"},{"op":"remove","path":"/metadata/finalizers/1"}]'`,
            ],
          }) as unknown,
          policy: 'force-finalizers: example.com/backup',
        }) as never,
        targets: [
          expect.objectContaining({
            name: 'data-db-0',
            finalizers: ['kubernetes.io/pvc-protection', 'example.com/backup'],
            waiting: ['kubernetes.io/pvc-protection'],
          }) as never,
        ],
      },
    ],
  },
  {
    name: 'only waiting finalizers: a notice with nothing to run',
    given: snapshot({
      leftovers: [leftover(PVCS, { name: 'data', finalizers: ['kubernetes.io/pvc-protection'] })],
      pods: [pod({ name: 'app', claims: ['data'] })],
    }),
    expect: [
      {
        severity: 'notice',
        summary:
          'persistentvolumeclaims/data holds finalizer(s) kubernetes.io/pvc-protection (not deleted yet), all legitimately waiting',
        remedy: { commands: [], note: expect.any(String) as unknown as string },
      },
    ],
  },
  {
    name: 'owner references are shown; objects without finalizers are not reported',
    given: snapshot({
      leftovers: [
        leftover(CONFIGMAPS, { name: 'plain' }),
        leftover(CONFIGMAPS, {
          name: 'child',
          finalizers: ['example.com/x'],
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: 'parent',
              uid: 'p-uid',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        }),
      ],
    }),
    expect: [
      {
        summary: 'configmaps/child holds finalizer(s) example.com/x (not deleted yet)',
        evidence: [
          { object: 'configmaps/child', field: 'metadata.finalizers', value: '["example.com/x"]' },
          { object: 'configmaps/child', field: 'metadata.deletionTimestamp', value: '(not set)' },
          {
            object: 'configmaps/child',
            field: 'metadata.ownerReferences',
            value: 'ConfigMap/parent (v1, uid p-uid, controller, blockOwnerDeletion)',
          },
        ],
      },
    ],
  },
  {
    name: 'objects of one type with the same finalizers are one finding, sorted by reference and counted',
    given: snapshot({
      leftovers: [
        leftover(KIALIS, { name: 'b', finalizers: ['kiali.io/finalizer'] }),
        leftover(KIALIS, { name: 'a', finalizers: ['kiali.io/finalizer'] }),
      ],
    }),
    expect: [
      {
        summary:
          'kialis.kiali.io/a, kialis.kiali.io/b each holds finalizer(s) kiali.io/finalizer (not deleted yet)',
        objects: 2,
        cause: 'object-finalizers:kialis.kiali.io|kiali.io/finalizer|',
      },
    ],
  },
  {
    name: 'another finalizer list or another type is another finding',
    given: snapshot({
      leftovers: [
        leftover(KIALIS, { name: 'a', finalizers: ['kiali.io/finalizer'] }),
        leftover(KIALIS, { name: 'c', finalizers: ['kiali.io/finalizer', 'example.com/x'] }),
        leftover(CONFIGMAPS, { name: 'a', finalizers: ['kiali.io/finalizer'] }),
      ],
    }),
    expect: [
      { summary: 'configmaps/a holds finalizer(s) kiali.io/finalizer (not deleted yet)' },
      { summary: 'kialis.kiali.io/c holds finalizer(s) kiali.io/finalizer, example.com/x (not deleted yet)' },
      { summary: 'kialis.kiali.io/a holds finalizer(s) kiali.io/finalizer (not deleted yet)' },
    ],
  },
];

describe('object-finalizers', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = objectFinalizers(given);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});
