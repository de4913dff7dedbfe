import { parseConditions } from '../../src/diagnosis/conditions.js';
import type { Condition } from '../../src/model/cluster.js';
import type { ParsedConditions } from '../../src/model/findings.js';
import { conditions, TEXT } from './fixtures.js';

const cond = (type: string, reason: string, message: string, status = 'True'): Condition => ({
  type,
  status,
  reason,
  message,
});

interface Row {
  name: string;
  given: Condition[];
  expect: Partial<ParsedConditions>;
  unparsed?: number;
}

const rows: Row[] = [
  { name: 'all five OK: nothing parsed, nothing kept', given: conditions(), expect: {}, unparsed: 0 },
  { name: 'no conditions yet', given: [], expect: {}, unparsed: 0 },
  {
    name: 'kiali CR remaining (field report 004)',
    given: conditions({
      NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
      NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
    }),
    expect: {
      contentRemaining: {
        counts: [{ resource: 'kialis', group: 'kiali.io', count: 1 }],
        raw: TEXT.kialiRemaining,
      },
      finalizersRemaining: {
        counts: [{ finalizer: 'kiali.io/finalizer', count: 1 }],
        raw: TEXT.kialiFinalizers,
      },
    },
    unparsed: 0,
  },
  {
    name: 'core resources keep a trailing dot; several types, sorted',
    given: [
      cond(
        'NamespaceContentRemaining',
        'SomeResourcesRemain',
        'Some resources are remaining: configmaps. has 3 resource instances, kialis.kiali.io has 1 resource instances, pods. has 2 resource instances',
      ),
    ],
    expect: {
      contentRemaining: {
        counts: [
          { resource: 'configmaps', group: '', count: 3 },
          { resource: 'kialis', group: 'kiali.io', count: 1 },
          { resource: 'pods', group: '', count: 2 },
        ],
        raw: 'Some resources are remaining: configmaps. has 3 resource instances, kialis.kiali.io has 1 resource instances, pods. has 2 resource instances',
      },
    },
    unparsed: 0,
  },
  {
    name: 'older wording: SomeFinalizerRemain / Some finalizers are remaining, singular instance',
    given: [
      cond(
        'NamespaceFinalizersRemaining',
        'SomeFinalizerRemain',
        'Some finalizers are remaining: a.io/x in 1 resource instance, b.io/y in 4 resource instances',
      ),
    ],
    expect: {
      finalizersRemaining: {
        counts: [
          { finalizer: 'a.io/x', count: 1 },
          { finalizer: 'b.io/y', count: 4 },
        ],
        raw: 'Some finalizers are remaining: a.io/x in 1 resource instance, b.io/y in 4 resource instances',
      },
    },
    unparsed: 0,
  },
  {
    name: 'discovery failure, aggregated discovery wording',
    given: conditions({ NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryStale] }),
    expect: { discoveryFailure: { failing: ['metrics.k8s.io/v1beta1'], raw: TEXT.discoveryStale } },
    unparsed: 0,
  },
  {
    name: 'discovery failure, legacy wording (field report 001)',
    given: conditions({ NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryLegacy] }),
    expect: { discoveryFailure: { failing: ['metrics.k8s.io/v1beta1'], raw: TEXT.discoveryLegacy } },
    unparsed: 0,
  },
  {
    name: 'discovery failure with two group-versions',
    given: [
      cond(
        'NamespaceDeletionDiscoveryFailure',
        'DiscoveryFailed',
        'Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta2: stale GroupVersion discovery: custom.metrics.k8s.io/v1beta2, metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
      ),
    ],
    expect: {
      discoveryFailure: {
        failing: ['custom.metrics.k8s.io/v1beta2', 'metrics.k8s.io/v1beta1'],
        raw: 'Discovery failed for some groups, 2 failing: unable to retrieve the complete list of server APIs: custom.metrics.k8s.io/v1beta2: stale GroupVersion discovery: custom.metrics.k8s.io/v1beta2, metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
      },
    },
    unparsed: 0,
  },
  {
    name: 'discovery failure of another kind: raw kept, condition kept as unparsed',
    given: [
      cond(
        'NamespaceDeletionDiscoveryFailure',
        'DiscoveryFailed',
        'Get "https://10.0.0.1/api": dial tcp: i/o timeout',
      ),
    ],
    expect: { discoveryFailure: { failing: [], raw: 'Get "https://10.0.0.1/api": dial tcp: i/o timeout' } },
    unparsed: 1,
  },
  {
    name: 'content failure with one error',
    given: [
      cond(
        'NamespaceDeletionContentFailure',
        'ContentDeletionFailed',
        'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: x for gvr: /v1, Resource=pods',
      ),
    ],
    expect: {
      contentFailure: {
        errors: ['unexpected items still remain in namespace: x for gvr: /v1, Resource=pods'],
        raw: 'Failed to delete all resource types, 1 remaining: unexpected items still remain in namespace: x for gvr: /v1, Resource=pods',
      },
    },
    unparsed: 0,
  },
  {
    name: 'content failure with bracketed joined errors, a GVR comma inside',
    given: [
      cond(
        'NamespaceDeletionContentFailure',
        'ContentDeletionFailed',
        'Failed to delete all resource types, 2 remaining: [admission webhook "deny.example.com" denied the request: no, unexpected items still remain in namespace: x for gvr: apps/v1, Resource=deployments]',
      ),
    ],
    expect: {
      contentFailure: {
        errors: [
          'admission webhook "deny.example.com" denied the request: no',
          'unexpected items still remain in namespace: x for gvr: apps/v1, Resource=deployments',
        ],
        raw: 'Failed to delete all resource types, 2 remaining: [admission webhook "deny.example.com" denied the request: no, unexpected items still remain in namespace: x for gvr: apps/v1, Resource=deployments]',
      },
    },
    unparsed: 0,
  },
  {
    name: 'content failure whose errors cannot be split: one error, raw kept as unparsed',
    given: [
      cond(
        'NamespaceDeletionContentFailure',
        'ContentDeletionFailed',
        'Failed to delete all resource types, 2 remaining: a, b, c',
      ),
    ],
    expect: {
      contentFailure: {
        errors: ['a, b, c'],
        raw: 'Failed to delete all resource types, 2 remaining: a, b, c',
      },
    },
    unparsed: 1,
  },
  {
    name: 'group-version parsing failure keeps its raw text',
    given: [
      cond(
        'NamespaceDeletionGroupVersionParsingFailure',
        'GroupVersionParsingFailed',
        'unexpected GroupVersion string: a/b/c',
      ),
    ],
    expect: { groupVersionParsingFailure: { raw: 'unexpected GroupVersion string: a/b/c' } },
    unparsed: 0,
  },
  {
    name: 'unknown condition type is kept, never dropped',
    given: [cond('NamespaceSomethingNew', 'Whatever', 'text from the future')],
    expect: {},
    unparsed: 1,
  },
  {
    name: 'a remaining list with an unreadable tail is parsed as far as possible and kept',
    given: [
      cond(
        'NamespaceContentRemaining',
        'SomeResourcesRemain',
        'Some resources are remaining: pods. has 2 resource instances, and something else',
      ),
    ],
    expect: {
      contentRemaining: {
        counts: [{ resource: 'pods', group: '', count: 2 }],
        raw: 'Some resources are remaining: pods. has 2 resource instances, and something else',
      },
    },
    unparsed: 1,
  },
];

describe('parseConditions', () => {
  it.each(rows)('$name', ({ given, expect: want, unparsed }) => {
    const got = parseConditions(given);
    const { unparsed: kept, ...parsed } = got;
    expect(parsed).toEqual(want);
    if (unparsed !== undefined) expect(kept).toHaveLength(unparsed);
    // Whatever is kept, is kept verbatim.
    for (const c of kept) expect(given).toContainEqual(c);
  });

  it('keeps hostile text verbatim in raw and in the finalizer name', () => {
    const message =
      "Some content in the namespace has finalizers remaining: x.io/$(rm -rf ~)'<b> in 1 resource instances";
    const got = parseConditions([cond('NamespaceFinalizersRemaining', 'SomeFinalizersRemain', message)]);
    expect(got.finalizersRemaining).toEqual({
      counts: [{ finalizer: "x.io/$(rm -rf ~)'<b>", count: 1 }],
      raw: message,
    });
  });

  it('the pods-first OK variant while pods remain parses as OK (the diagnosis checks pods itself)', () => {
    const got = parseConditions(conditions());
    expect(got.contentRemaining).toBeUndefined();
  });
});
