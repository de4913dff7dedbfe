/** The targeted scan: when the namespace controller's conditions are trusted, and each reason to fall back. */
import type { Condition, NamespaceState, ObjectMeta } from '../../src/model/cluster.js';
import { KubeError } from '../../src/kube/port.js';
import type { FakeData } from './fake-reader.js';
import { TEXT, ago, conditions, meta, namespace, type } from './fixtures.js';
import { APISERVICES, NS, discovery, snap } from './snapshot-helpers.js';

const KIALI = meta({
  name: 'kiali',
  namespace: NS,
  creationTimestamp: ago(3600),
  deletionTimestamp: ago(600),
  finalizers: ['kiali.io/finalizer'],
});
/** Kiali CR stuck on its finalizer, and the conditions the controller writes for it. */
const kialiData: FakeData = { objects: { 'kiali.io/kialis': [KIALI] } };
const kialiConditions = (over: Record<string, [string, string]> = {}): Condition[] =>
  conditions({
    NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.kialiRemaining],
    NamespaceFinalizersRemaining: ['SomeFinalizersRemain', TEXT.kialiFinalizers],
    ...over,
  });
const stuck = (over: Partial<NamespaceState> = {}): NamespaceState =>
  namespace({ conditions: kialiConditions(), ...over });
/** The scan's metadata lists (the one list of every CRD, a cluster read, left out). */
const scanLists = (calls: { args: unknown[] }[]): { args: unknown[] }[] =>
  calls.filter((c) => (c.args[0] as { resource: string }).resource !== 'customresourcedefinitions');
const listed = (calls: { args: unknown[] }[]): string[] =>
  scanLists(calls).map((c) => (c.args[0] as { resource: string }).resource);
const withKiali = (m: Partial<ObjectMeta>): FakeData => ({
  objects: { 'kiali.io/kialis': [{ ...KIALI, ...m }] },
});

describe('takeSnapshot: the targeted scan', () => {
  it('lists only the types the conditions name, through discovery, metadata-only and paged', async () => {
    const { kube, s } = await snap(kialiData, stuck(), { pageSize: 1 });
    expect(s.scan).toEqual({
      mode: 'targeted',
      reason: 'conditions-name-types',
      detail: 'listed kialis.kiali.io (1)',
    });
    expect(scanLists(kube.of('listMetadata')).map((c) => c.args)).toEqual([
      [
        { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' },
        { namespace: NS, limit: 1 },
      ],
    ]);
    expect(s.discovery.listedTypes).toBe(1);
    // No core type is named: discovery leaves out the core group.
    expect(kube.of('discover').map((c) => c.args)).toEqual([[{ core: false, groups: ['kiali.io'] }]]);
    expect(s.leftovers.map((l) => l.meta.name)).toEqual(['kiali']);
    // The cluster reads the rules need still happen: the CRDs (one metadata list), workloads, APIServices.
    expect(kube.of('listMetadata').map((c) => c.args[0])).toContainEqual({
      group: 'apiextensions.k8s.io',
      version: 'v1',
      resource: 'customresourcedefinitions',
    });
    expect(kube.rawPaths()).toContain('/apis/apps/v1/deployments');
  });
});

describe('takeSnapshot: objects served under an old group as well (1.20 Ingresses)', () => {
  const INGRESS = meta({
    name: 'web',
    namespace: NS,
    creationTimestamp: ago(3600),
    deletionTimestamp: ago(600),
    finalizers: ['example.com/x'],
  });
  // kube-apiserver 1.20 serves Ingresses as extensions/v1beta1 and networking.k8s.io/v1 (preferred first in its
  // discovery), and its namespace controller counts the one Ingress under both names (measured on 1.20.2).
  const served = discovery({
    resources: [
      ...discovery().resources,
      type('extensions', 'v1beta1', 'ingresses', 'Ingress'),
      type('networking.k8s.io', 'v1', 'ingresses', 'Ingress'),
    ],
  });
  const both = namespace({
    conditions: conditions({
      NamespaceContentRemaining: [
        'SomeResourcesRemain',
        'Some resources are remaining: ingresses.extensions has 1 resource instances, ingresses.networking.k8s.io has 1 resource instances',
      ],
      NamespaceFinalizersRemaining: [
        'SomeFinalizersRemain',
        'Some content in the namespace has finalizers remaining: example.com/x in 2 resource instances',
      ],
    }),
  });
  const data: FakeData = {
    discovery: served,
    objects: { 'networking.k8s.io/ingresses': [INGRESS], 'extensions/ingresses': [INGRESS] },
  };
  const groupsListed = (calls: { args: unknown[] }[]): string[] =>
    scanLists(calls).map((c) => {
      const r = c.args[0] as { group: string; resource: string };
      return `${r.resource}.${r.group}`;
    });

  it('the targeted scan lists the current name once, its count checked against both names', async () => {
    const { kube, s } = await snap(data, both);
    expect(s.scan).toEqual({
      mode: 'targeted',
      reason: 'conditions-name-types',
      detail: 'listed ingresses.networking.k8s.io (1)',
    });
    expect(groupsListed(kube.of('listMetadata'))).toEqual(['ingresses.networking.k8s.io']);
    expect(s.leftovers.map((l) => `${l.resource.resource}.${l.resource.group}/${l.meta.name}`)).toEqual([
      'ingresses.networking.k8s.io/web',
    ]);
  });

  it('the full scan never asks for ingresses.extensions where networking.k8s.io serves them', async () => {
    const { kube, s } = await snap(data, namespace({ conditions: [] }));
    expect(s.scan.mode).toBe('full');
    const listed = groupsListed(kube.of('listMetadata'));
    expect(listed).toContain('ingresses.networking.k8s.io');
    expect(listed).not.toContain('ingresses.extensions');
    expect(s.leftovers.filter((l) => l.meta.name === 'web')).toHaveLength(1);
  });

  it('a server serving Ingresses only under extensions (before 1.19): listed there', async () => {
    const old = discovery({
      resources: [...discovery().resources, type('extensions', 'v1beta1', 'ingresses', 'Ingress')],
    });
    const { kube } = await snap({ ...data, discovery: old }, namespace({ conditions: [] }));
    expect(groupsListed(kube.of('listMetadata'))).toContain('ingresses.extensions');
  });
});

interface FallbackRow {
  name: string;
  reason: string;
  detail: RegExp;
  ns: NamespaceState;
  data?: FakeData;
  opts?: object;
}

const fallbacks: FallbackRow[] = [
  {
    name: 'conditions absent: the controller has not written NamespaceContentRemaining',
    reason: 'conditions-absent',
    detail: /no NamespaceContentRemaining condition names remaining types/,
    ns: namespace({ conditions: [] }),
    data: kialiData,
  },
  {
    name: 'conditions absent: ContentRemaining reads OK while pods remain (pods first, 1.33+)',
    reason: 'conditions-absent',
    detail: /no NamespaceContentRemaining/,
    ns: namespace(),
    data: kialiData,
  },
  {
    name: 'conditions incomplete: a content failure means some types were not counted',
    reason: 'conditions-absent',
    detail: /NamespaceDeletionContentFailure is True/,
    ns: namespace({
      conditions: kialiConditions({
        NamespaceDeletionContentFailure: [
          'ContentDeletionFailed',
          'Failed to delete all resource types, 1 remaining: admission webhook "deny.example.com" denied the request',
        ],
      }),
    }),
    data: kialiData,
  },
  {
    name: 'conditions not understood: a remaining message in another wording',
    reason: 'conditions-absent',
    detail: /NamespaceContentRemaining is not fully understood/,
    ns: namespace({
      conditions: kialiConditions({
        NamespaceContentRemaining: [
          'SomeResourcesRemain',
          'Some resources are remaining: kialis.kiali.io lots',
        ],
      }),
    }),
    data: kialiData,
  },
  {
    name: "stale: the namespace is younger than the controller's first pass",
    reason: 'conditions-stale',
    detail: /deleted 2000 ms ago, before the namespace controller's first pass \(5000 ms\)/,
    ns: stuck({ deletionTimestamp: ago(2) }),
    data: kialiData,
  },
  {
    name: 'stale: lastTransitionTime predates the deletion',
    reason: 'conditions-stale',
    detail: /lastTransitionTime predates the namespace's deletion/,
    ns: stuck({ deletionTimestamp: ago(60) }),
    data: kialiData,
  },
  {
    name: 'stale: an object was deleted after lastTransitionTime',
    reason: 'conditions-stale',
    detail: /kialis.kiali.io\/kiali was deleted after NamespaceContentRemaining's lastTransitionTime/,
    ns: stuck(),
    data: withKiali({ deletionTimestamp: ago(30) }),
  },
  {
    name: 'stale: an object holds a finalizer the conditions do not count',
    reason: 'conditions-stale',
    detail: /finalizers the conditions do not count: example.com\/late/,
    ns: stuck(),
    data: withKiali({ finalizers: ['kiali.io/finalizer', 'example.com/late'] }),
  },
  {
    name: 'discovery failed: the discovery call itself',
    reason: 'discovery-failed',
    detail: /discovery failed: 503 ServiceUnavailable/,
    ns: stuck(),
    data: { ...kialiData, errors: { discover: new KubeError('down', 503, 'ServiceUnavailable') } },
  },
  {
    name: 'discovery failed: a group-version is stale',
    reason: 'discovery-failed',
    detail: /discovery failed for metrics.k8s.io\/v1beta1/,
    ns: stuck(),
    data: {
      ...kialiData,
      discovery: discovery({ failed: [{ groupVersion: 'metrics.k8s.io/v1beta1', error: 'stale' }] }),
    },
  },
  {
    name: "discovery failed: the controller's own discovery failed",
    reason: 'discovery-failed',
    detail: /discovery failed for metrics.k8s.io\/v1beta1/,
    ns: stuck({
      conditions: kialiConditions({
        NamespaceDeletionDiscoveryFailure: ['DiscoveryFailed', TEXT.discoveryStale],
      }),
    }),
    data: kialiData,
  },
  {
    name: 'discovery failed: a type the conditions name is not served',
    reason: 'discovery-failed',
    detail: /not served by discovery: widgets.example.com/,
    ns: stuck({
      conditions: kialiConditions({
        NamespaceContentRemaining: [
          'SomeResourcesRemain',
          'Some resources are remaining: kialis.kiali.io has 1 resource instances, widgets.example.com has 2 resource instances',
        ],
      }),
    }),
    data: kialiData,
  },
  {
    name: 'fewer than counted: the targeted lists find fewer objects than the conditions count',
    reason: 'fewer-than-counted',
    detail: /found fewer than counted: kialis.kiali.io: 0 of 1 \(after 1 targeted list\(s\)\)/,
    ns: stuck(),
    data: {},
  },
  {
    name: 'fewer than counted: a targeted list is refused',
    reason: 'fewer-than-counted',
    detail: /kialis.kiali.io: 0 of 1/,
    ns: stuck(),
    data: { ...kialiData, errors: { 'kiali.io/kialis': new KubeError('no', 403, 'Forbidden') } },
  },
  {
    name: 'requested: the caller asks for the full scan',
    reason: 'requested',
    detail: /the full scan was asked for/,
    ns: stuck(),
    data: kialiData,
    opts: { scan: 'full' },
  },
];

describe('takeSnapshot: discovery for the targeted scan', () => {
  it('discovers the core group too when the conditions name a core type', async () => {
    const pods = [1, 2].map((i) =>
      meta({ name: `web-${i}`, creationTimestamp: ago(3600), deletionTimestamp: ago(600) }),
    );
    const ns = namespace({
      conditions: conditions({ NamespaceContentRemaining: ['SomeResourcesRemain', TEXT.podsRemaining] }),
    });
    const { kube, s } = await snap({ objects: { '/pods': pods } }, ns);
    expect(s.scan.mode).toBe('targeted');
    expect(kube.of('discover').map((c) => c.args)).toEqual([[{ core: true, groups: [] }]]);
    expect(listed(kube.of('listMetadata'))).toEqual(['pods']);
  });

  it('a fallback after a discovery without the core group discovers again, with it', async () => {
    const { kube, s } = await snap({}, stuck());
    expect(s.scan.reason).toBe('fewer-than-counted');
    expect(kube.of('discover').map((c) => c.args)).toEqual([
      [{ core: false, groups: ['kiali.io'] }],
      [{ core: true }],
    ]);
    expect(listed(kube.of('listMetadata')).sort()).toEqual(['configmaps', 'kialis', 'kialis', 'pods']);
  });
});

describe('takeSnapshot: the targeted scan without aggregated discovery (before 1.26)', () => {
  const legacy = discovery({ mode: 'legacy' });

  it('discovers only the named groups, and lists the same', async () => {
    const { kube, s } = await snap({ ...kialiData, discovery: legacy }, stuck());
    expect(s.scan.mode).toBe('targeted');
    expect(kube.of('discover').map((c) => c.args)).toEqual([[{ core: false, groups: ['kiali.io'] }]]);
    expect(listed(kube.of('listMetadata'))).toEqual(['kialis']);
  });

  it('a fallback after it discovers every group again, even when a core type is named', async () => {
    const pods = meta({ name: 'web', creationTimestamp: ago(3600), deletionTimestamp: ago(600) });
    const ns = namespace({
      conditions: conditions({
        NamespaceContentRemaining: [
          'SomeResourcesRemain',
          'Some resources are remaining: kialis.kiali.io has 1 resource instances, pods. has 2 resource instances',
        ],
      }),
    });
    // One pod where the controller counted two: the targeted lists find fewer than counted.
    const { kube, s } = await snap({ objects: { '/pods': [pods] }, discovery: legacy }, ns);
    expect(s.scan.reason).toBe('fewer-than-counted');
    expect(kube.of('discover').map((c) => c.args)).toEqual([
      [{ core: true, groups: ['kiali.io'] }],
      [{ core: true }],
    ]);
    expect(s.discovery.listedTypes).toBe(3);
  });
});

describe('takeSnapshot: falls back to the full scan', () => {
  it.each(fallbacks)('$name', async ({ ns, data, opts, reason, detail }) => {
    const { kube, s } = await snap(data ?? {}, ns, opts ?? {});
    expect(s.scan).toMatchObject({ mode: 'full', reason });
    expect(s.scan.detail).toMatch(detail);
    // Every listable namespaced type is listed in the full scan (none of them when discovery itself failed).
    const full = data?.errors?.discover ? 0 : 3;
    expect(new Set(listed(kube.of('listMetadata'))).size).toBe(full);
    expect(s.discovery.listedTypes).toBe(full);
  });

  it('keeps the errors of the reads beside the scan when the targeted attempt is dropped', async () => {
    const { s } = await snap(
      { delayMs: 5, errors: { [APISERVICES]: new KubeError('no', 403, 'Forbidden') } },
      stuck(),
    );
    expect(s.scan.reason).toBe('fewer-than-counted');
    expect(s.readErrors.filter((e) => e.what === 'apiservices')).toHaveLength(1);
  });

  it('reports the errors of the full scan once, not those of the targeted lists too', async () => {
    const { s } = await snap(
      { ...kialiData, errors: { 'kiali.io/kialis': new KubeError('no', 403, 'Forbidden') } },
      stuck(),
    );
    expect(s.readErrors.filter((e) => e.what === 'list kialis.kiali.io')).toHaveLength(1);
  });
});
