import { parseConditions } from '../../src/diagnosis/conditions.js';
import { controllerConditions } from '../../src/diagnosis/rules/controller-conditions.js';
import type { Finding } from '../../src/model/findings.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import { TEXT, ago, conditions, namespace, snapshot } from './fixtures.js';

interface Row {
  name: string;
  given: Snapshot;
  expect: Partial<Finding>;
}

const rows: Row[] = [
  {
    name: 'all OK',
    given: snapshot(),
    expect: {
      id: 'controller-conditions',
      severity: 'notice',
      summary: 'Namespace controller on preview-42: no failing condition',
      evidence: [],
    },
  },
  {
    name: 'kiali CR remaining (field report 004)',
    given: snapshot({
      namespace: namespace({
        conditions: conditions({
          NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
          NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
        }),
      }),
    }),
    expect: {
      severity: 'warning',
      summary:
        'Namespace controller on preview-42: remaining: 1 kialis.kiali.io; finalizers remaining: kiali.io/finalizer on 1',
      evidence: [
        {
          object: 'namespace/preview-42',
          field: 'status.conditions[NamespaceContentRemaining]',
          value: `True SomeResourcesRemain: ${TEXT.kialiRemaining}`,
        },
        {
          object: 'namespace/preview-42',
          field: 'status.conditions[NamespaceFinalizersRemaining]',
          value: `True SomeFinalizersRemain: ${TEXT.kialiFinalizers}`,
        },
      ],
      remedy: {
        commands: ['kubectl get namespace preview-42 -o yaml'],
        note: expect.any(String) as unknown as string,
      },
      leaked: false,
    },
  },
  {
    name: 'discovery failure is an error',
    given: snapshot({
      namespace: namespace({
        conditions: conditions({
          NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryLegacy],
        }),
      }),
    }),
    expect: {
      severity: 'error',
      summary: 'Namespace controller on preview-42: discovery failing for metrics.k8s.io/v1beta1',
    },
  },
  {
    name: 'no conditions 10 minutes after the DELETE: is kube-controller-manager running?',
    given: snapshot({ namespace: namespace({ conditions: [] }) }),
    expect: {
      severity: 'warning',
      summary: 'Namespace controller on preview-42: the namespace controller has written no condition yet',
      remedy: expect.objectContaining({
        note: 'Deleted 10m00s ago without conditions: is kube-controller-manager running?',
      }) as never,
    },
  },
  {
    name: 'unknown and unparseable conditions are shown verbatim',
    given: snapshot({
      namespace: namespace({
        deletionTimestamp: ago(30),
        conditions: [
          { type: 'NamespaceFromTheFuture', status: 'True', reason: 'New', message: 'something <b>new</b>' },
          {
            type: 'NamespaceContentRemaining',
            status: 'True',
            reason: 'SomeResourcesRemain',
            message: 'garbled',
          },
        ],
      }),
    }),
    expect: {
      severity: 'warning',
      summary:
        'Namespace controller on preview-42: remaining: some resources; 2 condition(s) not fully understood (text kept verbatim)',
      evidence: [
        {
          object: 'namespace/preview-42',
          field: 'status.conditions[NamespaceFromTheFuture] (not fully parsed)',
          value: 'True New: something <b>new</b>',
        },
        {
          object: 'namespace/preview-42',
          field: 'status.conditions[NamespaceContentRemaining] (not fully parsed)',
          value: 'True SomeResourcesRemain: garbled',
        },
      ],
    },
  },
];

describe('controller-conditions', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = controllerConditions(given, parseConditions(given.namespace.conditions));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatchObject(want);
  });
});

describe('controller-conditions: what its note leaves to the other findings', () => {
  const kiali = (readErrors: Snapshot['readErrors']): Snapshot =>
    snapshot({
      namespace: namespace({
        conditions: conditions({
          NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
          NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
        }),
      }),
      readErrors,
    });
  const note = (s: Snapshot): string | undefined =>
    controllerConditions(s, parseConditions(s.namespace.conditions))[0]!.remedy.note;

  it('everything read: the other findings name the culprits', () => {
    expect(note(kiali([]))).toBe(
      'These are the namespace controller’s own words; the other findings name the culprits.',
    );
  });

  it('a type it could not list: never that the other findings name the culprits; what it could not read, named', () => {
    const said = note(
      kiali([
        { what: 'list kialis.kiali.io', error: '403 Forbidden' },
        { what: 'list widgets.example.com', error: '403 Forbidden' },
      ]),
    );
    expect(said).not.toContain('the other findings name the culprits');
    expect(said).toBe(
      'These are the namespace controller’s own words. This run could not read list kialis.kiali.io and 1 more: a ' +
        'culprit there, and whether anything will release it, is unknown to it; the other findings name only what it read.',
    );
  });
});
