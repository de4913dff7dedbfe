import { podsNotTerminating } from '../../src/diagnosis/rules/pods-not-terminating.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import {
  CONFIGMAPS,
  PODS,
  TEXT,
  ago,
  conditions,
  leftover,
  namespace,
  node,
  pod,
  snapshot,
  type RuleRow,
} from './fixtures.js';

// A pod's deletionTimestamp is its deadline: DELETE time + grace period.
// Before 1.33 ContentRemaining names the pods; from 1.33 it misleadingly reads OK (a row below covers that).
const podsNamed = (over: Partial<Snapshot>): Snapshot =>
  snapshot({
    namespace: namespace({
      conditions: conditions({ NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.podsRemaining] }),
    }),
    ...over,
  });
const overdue = pod({
  name: 'web-0',
  nodeName: 'node-a',
  deletionTimestamp: ago(300),
  terminationGracePeriodSeconds: 30,
});

const rows: RuleRow[] = [
  {
    name: 'pod on a NotReady node: the kubelet cannot confirm; force delete only as a last resort, the partition risk stated',
    given: podsNamed({ pods: [overdue], nodes: [node('node-a', 'Unknown', true, ago(900))] }),
    expect: [
      {
        id: 'pods-not-terminating',
        severity: 'error',
        summary:
          'pod web-0 is not terminating: its node node-a is NotReady (Ready=Unknown), so the kubelet cannot confirm it stopped',
        evidence: [
          { object: 'pods/web-0', field: 'metadata.deletionTimestamp', value: ago(300) },
          { object: 'pods/web-0', field: 'grace period seconds', value: '30' },
          { object: 'pods/web-0', field: 'spec.nodeName', value: 'node-a' },
          { object: 'node/node-a', field: 'Ready', value: 'Unknown' },
        ],
        remedy: {
          commands: ['kubectl describe pod web-0 -n preview-42'],
          lastResort: {
            commands: ['kubectl delete pod web-0 -n preview-42 --force --grace-period=0'],
            risk: expect.stringContaining('only be partitioned') as unknown as string,
          },
          note: expect.stringContaining('StatefulSet') as unknown as string,
        },
        leaked: false,
        targets: [
          {
            kind: 'pod-on-lost-node',
            name: 'web-0',
            uid: 'uid-web-0',
            node: 'node-a',
            nodeExists: true,
            ready: 'Unknown',
            readySince: ago(900),
          },
        ],
      },
    ],
  },
  {
    name: 'pod on a node that no longer exists',
    given: podsNamed({ pods: [overdue], nodes: [node('node-a', 'Unknown', false)] }),
    expect: [
      {
        severity: 'error',
        summary:
          'pod web-0 is not terminating: its node node-a no longer exists, so no kubelet will ever confirm it stopped',
        targets: [
          {
            kind: 'pod-on-lost-node',
            name: 'web-0',
            uid: 'uid-web-0',
            node: 'node-a',
            nodeExists: false,
            ready: 'Unknown',
          },
        ],
      },
    ],
  },
  {
    name: 'pod past its grace period on a Ready node',
    given: podsNamed({ pods: [overdue], nodes: [node('node-a')] }),
    expect: [
      {
        severity: 'warning',
        summary: 'pod web-0 is not terminating: it is 5m00s past its grace period on node node-a',
      },
    ],
  },
  {
    name: 'pod with a very long grace period',
    given: podsNamed({
      pods: [
        pod({
          name: 'db-0',
          nodeName: 'node-a',
          deletionTimestamp: ago(-3000),
          terminationGracePeriodSeconds: 3600,
        }),
      ],
      nodes: [node('node-a')],
    }),
    expect: [
      {
        severity: 'warning',
        summary: 'pod db-0 is not terminating: it has a long grace period (3600s), 50m00s left',
      },
    ],
  },
  {
    name: 'pod inside a short grace period: not stuck (still-progressing reports it)',
    given: podsNamed({
      pods: [
        pod({
          name: 'web-1',
          nodeName: 'node-a',
          deletionTimestamp: ago(-10),
          terminationGracePeriodSeconds: 30,
        }),
      ],
      nodes: [node('node-a')],
    }),
    expect: [],
  },
  {
    name: 'pods first: other content waits, and ContentRemaining misleadingly says all removed (1.33+)',
    given: snapshot({
      namespace: namespace({ conditions: conditions() }),
      pods: [overdue],
      nodes: [node('node-a', 'False')],
      leftovers: [leftover(PODS, { name: 'web-0' }), leftover(CONFIGMAPS, { name: 'settings' })],
    }),
    expect: [
      { severity: 'error' },
      {
        severity: 'notice',
        summary:
          'NamespaceContentRemaining says "All content successfully removed" although 1 pod(s) remain (Kubernetes 1.33+ deletes pods first and reports the rest only afterwards); 1 other object(s) wait until 1 pod(s) are gone',
        evidence: expect.arrayContaining([
          {
            object: 'namespace/preview-42',
            field: 'status.conditions[NamespaceContentRemaining]',
            value: 'False ContentRemoved: All content successfully removed',
          },
        ]) as never,
      },
    ],
  },
  {
    name: 'pod bodies unreadable: metadata from the scan is used',
    given: podsNamed({
      leftovers: [
        leftover(PODS, { name: 'web-0', deletionTimestamp: ago(600), deletionGracePeriodSeconds: 30 }),
      ],
    }),
    expect: [
      {
        severity: 'warning',
        summary: 'pod web-0 is not terminating: it is 10m00s past its grace period on no node',
      },
    ],
  },
  {
    name: 'pods first without the misleading condition: stuck pod and waiting content',
    given: podsNamed({
      pods: [overdue],
      nodes: [node('node-a', 'False')],
      leftovers: [
        leftover(PODS, { name: 'web-0' }),
        leftover(CONFIGMAPS, { name: 'a' }),
        leftover(CONFIGMAPS, { name: 'b' }),
      ],
    }),
    expect: [
      { severity: 'error' },
      {
        severity: 'notice',
        summary: 'pods are deleted first: 2 other object(s) wait until 1 pod(s) are gone',
      },
    ],
  },
];

describe('pods-not-terminating', () => {
  it.each(rows)('$name', ({ given, expect: want }) => {
    const got = podsNotTerminating(given);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });

  it('names a pod for force-delete-pods only when its node is lost, never on a Ready node', () => {
    const ready = podsNotTerminating(podsNamed({ pods: [overdue], nodes: [node('node-a')] }));
    expect(ready.flatMap((f) => f.targets ?? [])).toEqual([]);
    const lost = podsNotTerminating(podsNamed({ pods: [overdue], nodes: [node('node-a', 'False')] }));
    expect(lost.flatMap((f) => f.targets ?? []).map((t) => t.kind)).toEqual(['pod-on-lost-node']);
  });
});
