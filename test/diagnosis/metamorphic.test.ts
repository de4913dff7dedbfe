/**
 * Metamorphic tests of the verdicts, over the fake API server: (a) renaming every non-API name of a world (namespaces,
 * controllers, service accounts, finalizer domains, groups) leaves every verdict unchanged; (b) taking away or flipping
 * each piece of evidence a verdict cites changes it to what is then true, or to `unknown`. A verdict whose evidence
 * can be removed without changing it is a defect.
 */
import { diagnose } from '../../src/diagnosis/index.js';
import { takeSnapshot } from '../../src/diagnosis/snapshot/take.js';
import type { Finding } from '../../src/model/findings.js';
import type { FakeCluster } from '../fake-apiserver/index.js';
import { connectKube, runEngine } from '../helpers/harness.js';
import {
  LIVE_OWNER,
  ownerWorld,
  refusalWorld,
  sightWorld,
  type OwnerEvidence,
  type Refusal,
} from './worlds-refusals.js';
import {
  LIVE_OPERATOR,
  NAMINGS,
  claimWorld,
  releaseWorld,
  type ControlPlaneEvidence,
  type Naming,
  type ReleaseEvidence,
} from './worlds.js';

/**
 * A verdict as the metamorphic relation compares it: which rule, which word, leaked or not, the type going, how its
 * owner runs where neither running nor not running says it, and a restart where that is the remedy.
 */
const signature = (f: Finding | undefined): string => {
  if (!f) return 'none';
  const going = f.cause.endsWith('|type-going') ? '+type-going' : '';
  const status = f.owner?.status ? ` (${f.owner.status})` : '';
  const restart = f.remedy.commands.some((c) => c.includes(' rollout restart ')) ? ' +restart' : '';
  return `${f.id}:${f.verdict ?? '-'}${going}${f.leaked ? ' leaked' : ''}${status}${restart}`;
};

/** Start the world, read its target once (read-only, as the pre-mortem does), stop it; the finding about `type`. */
async function verdictIn(world: { cluster: FakeCluster; target: string }, type: string): Promise<string> {
  const kube = await connectKube(world.cluster);
  try {
    const ns = await kube.getNamespace(world.target);
    const s = await takeSnapshot(kube, ns!, { scan: 'full' });
    const about = (f: Finding): boolean => f.cause.split('|')[1]?.startsWith(type) ?? false;
    return signature(diagnose(s).find((f) => f.id === 'finalizer-owner-gone' && about(f)));
  } finally {
    await kube.close();
    await world.cluster.stop();
  }
}

const release = (naming: Naming, e: Partial<ReleaseEvidence>): Promise<string> =>
  verdictIn(releaseWorld(naming, { ...LIVE_OPERATOR, ...e }), 'gizmos.');
const claim = (naming: Naming, kcm: ControlPlaneEvidence): Promise<string> =>
  verdictIn(claimWorld(naming, kcm), 'persistentvolumeclaims');

const REFUSALS = ['admission-denied', 'policy-cannot-evaluate', 'content-delete-refused'];

/** Delete the target and wait until the controller says its deletes are refused, or it is gone; the refusal's verdict. */
async function refusal(naming: Naming, r: Refusal): Promise<string> {
  const world = refusalWorld(naming, r);
  const kube = await connectKube(world.cluster);
  try {
    const ns = await kube.getNamespace(world.target);
    await kube.deleteNamespace(world.target, { uid: ns!.uid });
    for (let i = 0; i < 200; i++) {
      const now = await kube.getNamespace(world.target);
      if (!now) return 'gone';
      const failed = now.conditions.find((c) => c.type === 'NamespaceDeletionContentFailure');
      if (failed?.status === 'True') {
        const found = diagnose(await takeSnapshot(kube, now));
        return signature(found.find((f) => REFUSALS.includes(f.id)));
      }
      await new Promise((done) => setTimeout(done, 50));
    }
    return 'never refused, never gone';
  } finally {
    await kube.close();
    await world.cluster.stop();
  }
}

/** A whole run (2 s) over a world: the target's outcome and the verdict of its recreate finding, if any. */
async function run(world: { cluster: FakeCluster; target: string }): Promise<string> {
  try {
    const { kubeconfig } = await world.cluster.start();
    const { report } = await runEngine(kubeconfig, { namespaces: world.target, timeout: '2s' });
    const t = report.targets[0]!;
    const fails = report.failures.length > 0 ? 'fails' : 'passes';
    return `${t.outcome} ${fails} ${signature(t.findings.find((f) => f.id === 'will-recreate'))}`;
  } finally {
    await world.cluster.stop();
  }
}
const owner = (naming: Naming, e: Partial<OwnerEvidence>): Promise<string> =>
  run(ownerWorld(naming, { ...LIVE_OWNER, ...e }));
const sight = (naming: Naming, inside: boolean): Promise<string> => run(sightWorld(naming, inside));

const WAITING = 'finalizer-owner-gone:waiting';
const DOWN = 'finalizer-owner-gone:down';
const LEAKED = 'finalizer-owner-gone:leaked leaked';
const UNKNOWN = 'finalizer-owner-gone:unknown';
/** Ready replicas beside an expired leader Lease: a hung controller, restarted by the remedy. */
const HUNG = 'finalizer-owner-gone:down (running but not leading) +restart';

/** Each verdict of a custom finalizer, the evidence it rests on, and what each flip of that evidence makes it. */
const RELEASE: {
  verdict: string;
  given: Partial<ReleaseEvidence>;
  flips: [Partial<ReleaseEvidence>, string][];
}[] = [
  {
    verdict: WAITING,
    given: {},
    flips: [
      [{ ready: 0 }, DOWN],
      [{ lease: 'stale' }, HUNG],
      [{ rbac: false }, LEAKED],
      [{ inside: true }, 'finalizer-owner-gone:deadlock leaked'],
      [{ workloadsForbidden: true }, UNKNOWN],
    ],
  },
  {
    verdict: DOWN,
    given: { ready: 0 },
    flips: [
      [{ ready: 1 }, WAITING],
      [{ rbac: false }, LEAKED],
    ],
  },
  {
    verdict: HUNG,
    given: { lease: 'stale' },
    flips: [
      [{ lease: 'fresh' }, WAITING],
      // No ready replica beside the expired Lease: not running, nothing to restart.
      [{ ready: 0 }, DOWN],
      // Without the Lease, its ready replicas decide: it runs.
      [{ lease: 'none' }, WAITING],
      [{ rbac: false }, LEAKED],
    ],
  },
  {
    verdict: 'finalizer-owner-gone:deadlock leaked',
    given: { inside: true },
    flips: [
      [{ inside: false }, WAITING],
      [{ rbac: false }, LEAKED],
    ],
  },
  {
    verdict: LEAKED,
    given: { rbac: false },
    flips: [
      [{ rbac: true }, WAITING],
      [{ crdDeleting: true }, 'finalizer-owner-gone:leaked+type-going leaked'],
      [{ workloadsForbidden: true }, UNKNOWN],
      // The API server's answer is what proves "nobody": allowed outside RBAC, or not answered, it is not leaked.
      [{ authorizedOutside: true }, WAITING],
      [{ reviewsForbidden: true }, UNKNOWN],
    ],
  },
  {
    // A webhook authorizer's grant, which no RBAC object shows: the access review is the evidence.
    verdict: WAITING,
    given: { rbac: false, authorizedOutside: true },
    flips: [
      [{ authorizedOutside: false }, LEAKED],
      [{ ready: 0 }, DOWN],
      [{ reviewsForbidden: true }, UNKNOWN],
    ],
  },
  {
    verdict: 'finalizer-owner-gone:leaked+type-going leaked',
    given: { rbac: false, crdDeleting: true },
    flips: [[{ crdDeleting: false }, LEAKED]],
  },
  {
    verdict: UNKNOWN,
    given: { workloadsForbidden: true },
    flips: [[{ workloadsForbidden: false }, WAITING]],
  },
];

const CLAIM: { verdict: string; given: ControlPlaneEvidence; flips: [ControlPlaneEvidence, string][] }[] = [
  {
    verdict: WAITING,
    given: 'renewed',
    flips: [
      ['stale', DOWN],
      ['absent', UNKNOWN],
    ],
  },
  { verdict: DOWN, given: 'stale', flips: [['renewed', WAITING]] },
  { verdict: UNKNOWN, given: 'absent', flips: [['renewed', WAITING]] },
];

const REFUSED = 'admission-denied:refused-on-purpose';
const BACKEND_DOWN = 'content-delete-refused:backend-down';
const CANNOT = 'policy-cannot-evaluate:cannot-evaluate';
const REFUSAL: { verdict: string; given: Refusal; flips: [Refusal, string][] }[] = [
  {
    verdict: REFUSED,
    given: 'engine denies',
    flips: [
      ['engine down', BACKEND_DOWN],
      ['no refusal', 'gone'],
    ],
  },
  { verdict: BACKEND_DOWN, given: 'engine down', flips: [['engine denies', REFUSED]] },
  { verdict: CANNOT, given: 'policy lacks its parameter', flips: [['policy has its parameter', 'gone']] },
];

const RECREATE = 'gone fails will-recreate:will-recreate';
const OWNER: { verdict: string; given: Partial<OwnerEvidence>; flips: [Partial<OwnerEvidence>, string][] }[] =
  [
    {
      verdict: RECREATE,
      given: {},
      flips: [
        [{ suspended: true }, 'gone passes will-recreate:down'],
        [{ owner: false }, 'gone passes none'],
        [{ ready: 0 }, 'gone passes will-recreate:down'],
        [{ rbac: false }, 'gone passes will-recreate:unknown'],
      ],
    },
    {
      // No RBAC ties a controller to it (Argo CD's `*` ClusterRole ties none): the owner's own status is the evidence.
      verdict: RECREATE,
      given: { rbac: false, statusAgo: 30 },
      flips: [
        [{ statusAgo: 3600 }, 'gone passes will-recreate:unknown'],
        [{ suspended: true }, 'gone passes will-recreate:down'],
        [{ owner: false }, 'gone passes none'],
      ],
    },
  ];
const UNSEEN = 'error fails none';
const SIGHT: { verdict: string; inside: boolean; flip: string }[] = [
  { verdict: UNSEEN, inside: true, flip: 'stuck fails none' },
];

describe('(a) renaming every non-API name leaves every verdict unchanged', () => {
  const names = NAMINGS.map((n) => n.label);
  test.each(RELEASE.map((r) => [r.verdict, JSON.stringify(r.given), r.given] as const))(
    'custom finalizer %s (%s) under every naming',
    async (verdict, _label, given) => {
      const got = await Promise.all(NAMINGS.map((n) => release(n, given)));
      expect(Object.fromEntries(got.map((g, i) => [names[i], g]))).toEqual(
        Object.fromEntries(names.map((n) => [n, verdict])),
      );
    },
  );
  test.each(CLAIM.map((c) => [c.verdict, c.given] as const))(
    'pvc-protection %s (kube-controller-manager %s) under every naming',
    async (verdict, given) => {
      const got = await Promise.all(NAMINGS.map((n) => claim(n, given)));
      expect(got).toEqual(NAMINGS.map(() => verdict));
    },
  );
  test.each(REFUSAL.map((r) => [r.verdict, r.given] as const))(
    'refusal %s (%s) under every naming',
    async (verdict, given) => {
      const got = await Promise.all(NAMINGS.map((n) => refusal(n, given)));
      expect(got).toEqual(NAMINGS.map(() => verdict));
    },
  );
  test.each(OWNER.map((o) => [o.verdict, o.given] as const))(
    'run: %s under every naming',
    async (verdict, given) => {
      const got = await Promise.all(NAMINGS.map((n) => owner(n, given)));
      expect(got).toEqual(NAMINGS.map(() => verdict));
    },
  );
  test.each(SIGHT.map((x) => [x.verdict, x.inside] as const))(
    'run: %s (rights from a RoleBinding inside: %s) under every naming',
    async (verdict, inside) => {
      const got = await Promise.all(NAMINGS.map((n) => sight(n, inside)));
      expect(got).toEqual(NAMINGS.map(() => verdict));
    },
  );
});

describe('(b) taking away or flipping the cited evidence changes the verdict to what is then true', () => {
  const [asWritten] = NAMINGS;
  test.each(
    RELEASE.flatMap((r) =>
      r.flips.map(
        ([flip, then]) => [r.verdict, JSON.stringify(flip), { ...r.given, ...flip }, then] as const,
      ),
    ),
  )('custom finalizer %s, flip %s', async (_from, _label, evidence, then) => {
    expect(await release(asWritten!, evidence)).toBe(then);
  });
  test.each(CLAIM.flatMap((c) => c.flips.map(([flip, then]) => [c.verdict, flip, then] as const)))(
    'pvc-protection %s, kube-controller-manager %s',
    async (_from, flip, then) => {
      expect(await claim(asWritten!, flip)).toBe(then);
    },
  );
  test.each(REFUSAL.flatMap((r) => r.flips.map(([flip, then]) => [r.verdict, flip, then] as const)))(
    'refusal %s, then: %s',
    async (_from, flip, then) => {
      expect(await refusal(asWritten!, flip)).toBe(then);
    },
  );
  test.each(
    OWNER.flatMap((o) =>
      o.flips.map(
        ([flip, then]) => [o.verdict, JSON.stringify(flip), { ...o.given, ...flip }, then] as const,
      ),
    ),
  )('run: %s, flip %s', async (_from, _label, evidence, then) => {
    expect(await owner(asWritten!, evidence)).toBe(then);
  });
  test.each(SIGHT.map((x) => [x.verdict, x.flip, !x.inside] as const))(
    'run: %s, rights from outside instead: %s',
    async (_from, then, inside) => {
      expect(await sight(asWritten!, inside)).toBe(then);
    },
  );
});
