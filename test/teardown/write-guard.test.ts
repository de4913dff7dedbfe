import { UnverifiedWrite, type Kube } from '../../src/kube/port.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { guardWrites, type OwnerGrant } from '../../src/teardown/write-guard.js';

const UID = 'uid-pr-1';
const KIALIS = { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis' };
const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const CLUSTER_ROLES = { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'clusterroles' };

const ns = (over: Partial<NamespaceState> = {}): NamespaceState => ({
  name: 'pr-1',
  uid: UID,
  resourceVersion: '7',
  phase: 'Active',
  labels: {},
  metadataFinalizers: [],
  specFinalizers: ['kubernetes'],
  conditions: [],
  ...over,
});
const terminating = ns({ phase: 'Terminating', deletionTimestamp: '2026-11-22T12:00:00Z' });

/** A Kube whose GETs of `pr-1` answer `answers` in turn; every call is recorded by name. */
function recording(answers: (NamespaceState | undefined)[]): { kube: Kube; calls: string[] } {
  const calls: string[] = [];
  const kube = new Proxy({} as Kube, {
    get: (_, name: string) => async () => {
      calls.push(name);
      return name === 'getNamespace' ? answers.shift() : 'ok';
    },
  });
  return { kube, calls };
}

type Write = (k: Kube) => Promise<unknown>;
const W: Record<string, Write> = {
  'DELETE namespace': (k) => k.deleteNamespace('pr-1', { uid: UID }),
  'DELETE custom resource': (k) => k.deleteObject(KIALIS, 'pr-1', 'kiali', { uid: 'obj' }),
  'PATCH object finalizers': (k) =>
    k.patchFinalizers(KIALIS, 'pr-1', 'kiali', { uid: 'obj', resourceVersion: '3' }, []),
  'PATCH namespace finalizers': (k) =>
    k.patchFinalizers(NAMESPACES, undefined, 'pr-1', { uid: UID, resourceVersion: '7' }, []),
  'DELETE pod': (k) => k.deletePod('pr-1', 'web-0', 'pod'),
  'PUT /finalize': (k) => k.finalizeNamespace('pr-1', { uid: UID, resourceVersion: '7' }, []),
};

const ROWS: {
  name: string;
  write: keyof typeof W | Write;
  /** What the GETs of pr-1 made through the guard before the write answered. */
  reads?: (NamespaceState | undefined)[];
  targets?: NamespaceState[];
  expect: 'sent' | RegExp;
  because?: UnverifiedWrite['because'];
}[] = [
  { name: 'namespace DELETE with the UID read', write: 'DELETE namespace', expect: 'sent' },
  {
    name: 'namespace DELETE of a namespace that is not a target',
    write: (k) => k.deleteNamespace('prod-db', { uid: 'x' }),
    expect: /DELETE of namespaces prod-db not sent: namespace "prod-db" is not a target of this run/,
  },
  {
    name: 'namespace DELETE without a UID precondition',
    write: (k) => k.deleteNamespace('pr-1'),
    expect: /not sent: the write carries no UID precondition/,
  },
  {
    name: 'namespace DELETE under another UID',
    write: (k) => k.deleteNamespace('pr-1', { uid: 'other' }),
    expect: /its UID precondition other is not uid-pr-1, the UID read/,
  },
  {
    name: 'namespace DELETE of a target listed without a UID',
    write: (k) => k.deleteNamespace('pr-1', { uid: '' }),
    targets: [ns({ uid: '' })],
    expect: /namespace "pr-1" was read without a UID/,
  },
  {
    name: 'namespace DELETE after a read showed another namespace under the name',
    write: 'DELETE namespace',
    reads: [ns({ uid: 'new' })],
    expect: /namespace "pr-1" is now another one \(UID new, not uid-pr-1/,
    because: 'recreated',
  },
  {
    name: 'custom resource DELETE without a read of the namespace since the targets were read',
    write: 'DELETE custom resource',
    expect: /DELETE of kialis pr-1\/kiali not sent: namespace "pr-1" was not read again before it/,
  },
  {
    name: 'custom resource DELETE after a read with the UID',
    write: 'DELETE custom resource',
    reads: [ns()],
    expect: 'sent',
  },
  {
    name: 'custom resource DELETE after a read found the namespace gone',
    write: 'DELETE custom resource',
    reads: [undefined],
    expect: /namespace "pr-1" was read gone/,
    because: 'gone',
  },
  {
    name: 'a read with the old UID after one with a new UID: still recreated (a UID never comes back)',
    write: 'DELETE custom resource',
    reads: [ns({ uid: 'new' }), ns()],
    expect: /is now another one/,
    because: 'recreated',
  },
  {
    name: 'an answer about another name verifies nothing',
    write: 'DELETE custom resource',
    reads: [ns({ name: 'other' })],
    expect: /was not read again/,
  },
  ...(
    ['PATCH object finalizers', 'PATCH namespace finalizers', 'DELETE pod', 'PUT /finalize'] as const
  ).flatMap((write) => [
    {
      name: `${write} after a read that shows it Active`,
      write,
      reads: [ns()],
      expect:
        /was last read Active \(no deletionTimestamp\): nothing is forced in a namespace that is not being deleted/,
    },
    {
      name: `${write} after a read that shows it Terminating`,
      write,
      reads: [terminating],
      expect: 'sent' as const,
    },
    { name: `${write} without a read since the targets were read`, write, expect: /was not read again/ },
  ]),
  {
    name: 'a forced write to the namespace under another UID',
    write: (k) => k.finalizeNamespace('pr-1', { uid: 'other', resourceVersion: '7' }, []),
    reads: [terminating],
    expect: /PUT of namespaces\/finalize pr-1 not sent: its UID precondition other is not uid-pr-1/,
  },
  {
    name: 'a cluster-scoped object other than the namespace',
    write: (k) =>
      k.patchFinalizers(CLUSTER_ROLES, undefined, 'admin', { uid: 'r', resourceVersion: '1' }, []),
    reads: [terminating],
    expect: /a cluster-scoped object is outside every target/,
  },
];

describe('every write passes one guard', () => {
  test.each(ROWS)('$name', async ({ write, reads = [], targets = [ns()], expect: expected, because }) => {
    const { kube, calls } = recording([...reads]);
    const guarded = guardWrites(kube, targets);
    for (let i = 0; i < reads.length; i++) await guarded.getNamespace('pr-1');
    const run = typeof write === 'string' ? W[write]! : write;
    if (expected === 'sent') {
      await run(guarded);
      expect(calls).toHaveLength(reads.length + 1);
      return;
    }
    const error = await run(guarded).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnverifiedWrite);
    expect((error as Error).message).toMatch(expected);
    expect((error as UnverifiedWrite).because).toBe(because ?? 'unverified');
    // Refused before it was sent: only the reads reached the cluster.
    expect(calls).toEqual(reads.map(() => 'getNamespace'));
  });

  test('reads pass through', async () => {
    const { kube, calls } = recording([]);
    const guarded = guardWrites(kube, []);
    await guarded.listNamespaces('a=b');
    await guarded.getRaw('/version');
    expect(calls).toEqual(['listNamespaces', 'getRaw']);
  });
});

describe('the one write outside the targets: a GitOps owner this run read and verified', () => {
  const KUSTOMIZATIONS = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', resource: 'kustomizations' };
  const GRANT = {
    group: KUSTOMIZATIONS.group,
    resource: KUSTOMIZATIONS.resource,
    namespace: 'flux-system',
    name: 'preview-pr-1',
    uid: 'ks-uid',
    resourceVersion: '4',
    targets: ['pr-1'],
    takes: [] as string[] | undefined,
  };
  const guard = { uid: 'ks-uid', resourceVersion: '4' };
  const OWNER_ROWS: {
    name: string;
    write: Write;
    grants?: OwnerGrant[];
    reads?: (NamespaceState | undefined)[];
    expect: 'sent' | RegExp;
  }[] = [
    {
      name: 'suspend: the spec patch of the granted owner under its UID',
      write: (k) => k.patchSpec(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard, { suspend: true }),
      expect: 'sent',
    },
    {
      name: 'delete: the granted owner under its UID and resourceVersion',
      write: (k) => k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard),
      expect: 'sent',
    },
    {
      name: 'delete without the resourceVersion precondition (the owner may have grown since its reach was read)',
      write: (k) => k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', { uid: 'ks-uid' }),
      expect:
        /DELETE of kustomizations flux-system\/preview-pr-1 not sent: it carries resourceVersion \(none\) as its precondition, not 4, the version whose reach was read/,
    },
    {
      name: 'a suspension at another resourceVersion than the one whose reach was read',
      write: (k) =>
        k.patchSpec(
          KUSTOMIZATIONS,
          'flux-system',
          'preview-pr-1',
          { uid: 'ks-uid', resourceVersion: '9' },
          {},
        ),
      expect: /PATCH of kustomizations flux-system\/preview-pr-1 not sent: it carries resourceVersion 9/,
    },
    {
      name: 'delete of an owner whose prune reaches cluster-scoped objects',
      write: (k) => k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard),
      grants: [{ ...GRANT, takes: ['CustomResourceDefinition widgets.acme.io', 'ClusterRole web-reader'] }],
      expect:
        /not sent: deleting it would remove CustomResourceDefinition widgets.acme.io, ClusterRole web-reader, outside every target/,
    },
    {
      name: 'delete of an owner whose prune was not read (a HelmRelease)',
      write: (k) => k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard),
      grants: [{ ...GRANT, takes: undefined }],
      expect: /not sent: what deleting it removes with it was not read/,
    },
    {
      name: 'its suspension, though: a suspension removes nothing',
      write: (k) => k.patchSpec(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard, { suspend: true }),
      grants: [{ ...GRANT, takes: ['ClusterRole web-reader'] }],
      expect: 'sent',
    },
    {
      name: 'the same owner under another UID (deleted and created again since it was read)',
      write: (k) =>
        k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', { ...guard, uid: 'new-uid' }),
      expect:
        /DELETE of kustomizations flux-system\/preview-pr-1 not sent: namespace "flux-system" is not a target/,
    },
    {
      name: 'a spec patch of an owner no grant names',
      write: (k) => k.patchSpec(KUSTOMIZATIONS, 'flux-system', 'platform', guard, { suspend: true }),
      expect:
        /PATCH of kustomizations flux-system\/platform not sent: it is no GitOps owner this run read and verified/,
    },
    {
      name: 'an owner that also targets a namespace outside the targets',
      write: (k) => k.patchSpec(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard, { suspend: true }),
      grants: [{ ...GRANT, targets: ['pr-1', 'shared-db'] }],
      expect: /not sent: it also targets namespace "shared-db", which is not a target of this run/,
    },
    {
      name: 'an owner whose target namespace was read recreated under another UID',
      write: (k) => k.deleteObject(KUSTOMIZATIONS, 'flux-system', 'preview-pr-1', guard),
      reads: [ns({ uid: 'someone-else' })],
      expect: /not sent: namespace "pr-1" is now another one/,
    },
    {
      name: 'a spec patch inside a target: never (only owners are patched)',
      write: (k) => k.patchSpec(KIALIS, 'pr-1', 'kiali', { uid: 'obj', resourceVersion: '3' }, {}),
      expect: /PATCH of kialis pr-1\/kiali not sent: it is no GitOps owner/,
    },
  ];

  test.each(OWNER_ROWS)('$name', async ({ write, grants = [GRANT], reads = [], expect: expected }) => {
    const { kube, calls } = recording([...reads]);
    const guarded = guardWrites(kube, [ns()], grants);
    for (let i = 0; i < reads.length; i++) await guarded.getNamespace('pr-1');
    const sent = (): string[] => calls.filter((c) => c !== 'getNamespace');
    if (expected === 'sent') {
      await write(guarded);
      expect(sent()).toHaveLength(1);
    } else {
      await expect(write(guarded)).rejects.toThrow(expected);
      expect(sent()).toEqual([]);
    }
  });
});
