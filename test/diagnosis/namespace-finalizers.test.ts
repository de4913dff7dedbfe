import { namespaceMetadataFinalizers } from '../../src/diagnosis/rules/namespace-metadata-finalizers.js';
import { specFinalizers } from '../../src/diagnosis/rules/spec-finalizers.js';
import {
  TEXT,
  conditions,
  controlPlane,
  grant,
  namespace,
  snapshot,
  workload,
  type RuleRow,
} from './fixtures.js';

// Field report 001/004: kubesphere-system with metadata.finalizers left by an uninstalled KubeSphere.
const kubesphere = namespace({
  name: 'kubesphere-system',
  uid: '7a1c9fed-dbe3-4d65-9f57-db93f7a358f7',
  metadataFinalizers: ['finalizers.kubesphere.io/namespaces'],
  specFinalizers: ['kubernetes'],
  conditions: conditions({ NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryLegacy] }),
});
const KS_PATCH =
  `kubectl patch namespace kubesphere-system --type=json -p ` +
  `'[{"op":"test","path":"/metadata/uid","value":"7a1c9fed-dbe3-4d65-9f57-db93f7a358f7"},{"op":"test","path":"/metadata/finalizers/0","value":"finalizers.kubesphere.io/namespaces"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;
const ksController = workload({
  name: 'ks-controller-manager',
  namespace: 'kubesphere-system',
  hints: ['kubesphere/ks-controller-manager:v3.4.1'],
  serviceAccount: 'kubesphere',
});
/** KubeSphere's controller may update namespaces: what ties it to the namespace's own finalizer. */
const KS_RBAC = grant(
  { group: '', resource: 'namespaces' },
  { namespace: 'kubesphere-system', name: 'kubesphere' },
);

const metadataRows: RuleRow[] = [
  {
    name: 'kubesphere uninstalled: leaked metadata finalizer, removed by a JSON patch of just that entry',
    given: snapshot({ namespace: kubesphere }),
    expect: [
      {
        id: 'namespace-metadata-finalizers',
        severity: 'error',
        summary:
          'namespace kubesphere-system metadata.finalizers holds finalizers.kubesphere.io/namespaces: leaked: no live actor can release it',
        evidence: [
          {
            object: 'namespace/kubesphere-system',
            field: 'metadata.finalizers',
            value: '["finalizers.kubesphere.io/namespaces"]',
          },
          { object: 'namespace/kubesphere-system', field: 'spec.finalizers', value: '["kubernetes"]' },
          {
            object: 'actor',
            field: 'RBAC',
            value:
              'no ServiceAccount but Kubernetes’ own may update these objects or their finalizers, as RBAC reads',
          },
          {
            object: 'actor',
            field: 'access review',
            value: 'no workload runs as a ServiceAccount that could be asked about namespaces',
          },
        ],
        verdict: 'leaked',
        leaked: true,
        remedy: {
          commands: [KS_PATCH],
          policy: 'force-finalizers: finalizers.kubesphere.io/namespaces',
          note: expect.stringContaining('PATCH of the namespace') as unknown as string,
        },
        targets: [
          { kind: 'namespace-metadata-finalizers', finalizers: ['finalizers.kubesphere.io/namespaces'] },
        ],
      },
    ],
  },
  {
    name: 'its controller lives in the namespace being deleted: deadlock',
    given: snapshot({ namespace: kubesphere, workloads: [ksController], rbac: KS_RBAC }),
    expect: [
      { severity: 'error', leaked: true, summary: expect.stringContaining('deadlock') as unknown as string },
    ],
  },
  {
    name: 'its controller runs elsewhere: waiting',
    given: snapshot({
      namespace: { ...kubesphere, name: 'team-a' },
      workloads: [ksController],
      rbac: KS_RBAC,
    }),
    expect: [
      { severity: 'warning', leaked: false, owner: expect.objectContaining({ present: true }) as never },
    ],
  },
  {
    name: 'foregroundDeletion from a Foreground DELETE: garbage collector, notice',
    given: snapshot({
      namespace: namespace({ metadataFinalizers: ['foregroundDeletion'] }),
      controlPlane: controlPlane(2),
    }),
    expect: [
      { severity: 'notice', leaked: false, owner: expect.objectContaining({ present: true }) as never },
    ],
  },
  { name: 'no metadata finalizers: nothing', given: snapshot(), expect: [] },
];

const specRows: RuleRow[] = [
  { name: 'only kubernetes: nothing (other rules explain it)', given: snapshot(), expect: [] },
  {
    name: 'a foreign spec finalizer: removed through /finalize',
    given: snapshot({ namespace: namespace({ specFinalizers: ['kubernetes', 'example.com/cleanup'] }) }),
    expect: [
      {
        id: 'spec-finalizers',
        severity: 'error',
        leaked: true,
        summary:
          'namespace preview-42 spec.finalizers holds example.com/cleanup: leaked: no live actor can release it',
        remedy: {
          commands: [
            `kubectl get namespace preview-42 -o json | jq --arg f0 example.com/cleanup '.spec.finalizers |= map(select(. != $f0))' | kubectl replace --raw /api/v1/namespaces/preview-42/finalize -f -`,
          ],
          policy: 'force-finalize-namespace: true',
          note: expect.stringContaining('/finalize') as unknown as string,
        },
        targets: [{ kind: 'namespace-finalize', reason: 'spec.finalizers holds example.com/cleanup' }],
      },
    ],
  },
];

describe('namespace-metadata-finalizers', () => {
  it.each(metadataRows)('$name', ({ given, expect: want }) => {
    const got = namespaceMetadataFinalizers(given);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});

describe('spec-finalizers', () => {
  it.each(specRows)('$name', ({ given, expect: want }) => {
    const got = specFinalizers(given);
    expect(got).toHaveLength(want.length);
    want.forEach((w, i) => expect(got[i]).toMatchObject(w));
  });
});
