import { diagnose } from '../../src/diagnosis/index.js';
import type { Snapshot } from '../../src/diagnosis/types.js';
import {
  CONFIGMAPS,
  PVCS,
  TEXT,
  ago,
  conditions,
  kialiCr,
  leftover,
  metricsApiService,
  namespace,
  node,
  pod,
  snapshot,
  webhook,
} from './fixtures.js';

// The controller's generic words as a real 1.2x controller writes them for a pod it cannot remove.
const UNEXPECTED_PODS =
  'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: preview-42 for gvr: /v1, Resource=pods';

const failing = (c: Record<string, [string, string]>): Snapshot['namespace'] =>
  namespace({ conditions: conditions(c) });

interface Row {
  name: string;
  given: Snapshot;
  verdict: string;
  /** A word the verdict's summary must contain: it names the culprit, not the symptom. */
  names: string;
}

const rows: Row[] = [
  {
    name: 'a dead APIService beats the discovery failure and the leftover CR',
    given: snapshot({
      namespace: failing({
        NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryStale],
        NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
      }),
      discovery: {
        failed: [{ groupVersion: 'metrics.k8s.io/v1beta1', error: 'stale GroupVersion discovery' }],
        mode: 'aggregated',
        listedTypes: 40,
      },
      apiServices: [metricsApiService()],
      leftovers: [kialiCr()],
    }),
    verdict: 'apiservice-unavailable',
    names: 'v1beta1.metrics.k8s.io',
  },
  {
    name: 'a refusing webhook beats the content failure text',
    given: snapshot({
      namespace: failing({
        NamespaceDeletionContentFailure: [
          'ContentDeletionFailed',
          'Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook "validate.kyverno.svc-fail": service "kyverno-svc" not found',
        ],
      }),
      webhooks: [
        webhook({
          configuration: 'kyverno-cfg',
          name: 'validate.kyverno.svc-fail',
          service: { namespace: 'kyverno', name: 'kyverno-svc' },
          backing: { serviceExists: false, readyEndpoints: 0 },
        }),
      ],
      leftovers: [leftover(CONFIGMAPS, { name: 'app-config' })],
    }),
    verdict: 'content-delete-refused',
    names: 'validate.kyverno.svc-fail',
  },
  {
    name: 'a pod on a lost node beats "unexpected items still remain … Resource=pods" and the PVC it holds',
    given: snapshot({
      namespace: failing({ NamespaceDeletionContentFailure: ['ContentDeletionFailed', UNEXPECTED_PODS] }),
      pods: [
        pod({
          name: 'db-0',
          nodeName: 'node-dead-1',
          deletionTimestamp: ago(300),
          terminationGracePeriodSeconds: 30,
          claims: ['data'],
        }),
      ],
      nodes: [node('node-dead-1', 'Unknown')],
      leftovers: [
        leftover(PVCS, {
          name: 'data',
          finalizers: ['kubernetes.io/pvc-protection'],
          deletionTimestamp: ago(600),
        }),
      ],
    }),
    verdict: 'pods-not-terminating',
    names: 'node-dead-1',
  },
  {
    name: 'a leaked finalizer whose owner is gone beats the object listing and the remaining counts',
    given: snapshot({
      namespace: failing({
        NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
        NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
      }),
      leftovers: [kialiCr()],
    }),
    verdict: 'finalizer-owner-gone',
    names: 'kiali.io/finalizer',
  },
  {
    name: 'a namespace metadata finalizer beats the controller saying nothing is wrong',
    given: snapshot({
      namespace: namespace({ metadataFinalizers: ['finalizers.kubesphere.io/namespaces'] }),
    }),
    verdict: 'namespace-metadata-finalizers',
    names: 'finalizers.kubesphere.io/namespaces',
  },
  {
    name: 'a foreign spec finalizer beats the controller saying nothing is wrong',
    given: snapshot({ namespace: namespace({ specFinalizers: ['kubernetes', 'example.com/lifecycle'] }) }),
    verdict: 'spec-finalizers',
    names: 'example.com/lifecycle',
  },
  {
    name: 'content still going away normally beats the remaining counts',
    given: snapshot({
      namespace: failing({
        NamespaceContentRemaining: [
          'SomeResourcesRemain',
          'Some resources are remaining: configmaps. has 1 resource instances',
        ],
      }),
      leftovers: [leftover(CONFIGMAPS, { name: 'app-config', deletionTimestamp: ago(5) })],
    }),
    verdict: 'still-progressing',
    names: 'removed normally',
  },
  {
    name: 'with no culprit named, the controller’s own words are the verdict',
    given: snapshot({
      namespace: failing({
        NamespaceDeletionGroupVersionParsingFailure: [
          'GroupVersionParsingFailed',
          'Failed to parse group version: unexpected GroupVersion string: a/b/c',
        ],
      }),
    }),
    verdict: 'controller-conditions',
    names: 'group-version parsing failed',
  },
];

describe('the verdict (first finding) is the root cause', () => {
  test.each(rows)('$name', ({ given, verdict, names }) => {
    const findings = diagnose(given);
    expect(findings[0]?.id).toBe(verdict);
    expect(findings[0]?.summary).toContain(names);
  });
});
