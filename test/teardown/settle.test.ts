/** What settles a stuck namespace under `wait: settled`: the verdict table, what keeps the wait, forcing. Pure. */
import { readFileSync } from 'node:fs';
import type { ActorRecord, Finding, ForceTarget, Verdict } from '../../src/model/findings.js';
import {
  forcingLeft,
  keepsWaiting,
  settledness,
  settledPlan,
  VERDICT_SETTLING,
} from '../../src/teardown/settle.js';
import { kialiFinding, MINUTE, policy, T0, terminating } from '../force/fixtures.js';
import { decide } from '../../src/force/index.js';
import type { AuditEntry } from '../../src/model/force.js';

const CONDITIONS = [
  {
    type: 'NamespaceFinalizersRemaining',
    status: 'True',
    reason: 'SomeFinalizersRemain',
    message:
      'Some content in the namespace has finalizers remaining: kiali.io/finalizer in 1 resource instances',
  },
];
const ns = terminating({ conditions: CONDITIONS });
const NOW = T0 + 20_000;

function finding(verdict: Verdict | undefined, over: Partial<Finding> = {}): Finding {
  return {
    id: 'finalizer-owner-gone',
    severity: 'error',
    cause: `finalizer:kiali.io/finalizer|kialis.kiali.io|${verdict ?? 'none'}`,
    summary: `kiali.io/finalizer on kialis.kiali.io/kiali: ${verdict ?? 'no verdict'}`,
    causeSummary: `kiali.io/finalizer on kialis.kiali.io objects: ${verdict ?? 'no verdict'}`,
    evidence: [],
    remedy: { commands: [] },
    leaked: verdict === 'leaked',
    ...(verdict ? { verdict } : {}),
    ...over,
  };
}

const actor = (live: ActorRecord['live'], role: ActorRecord['role'] = 'releases'): ActorRecord => ({
  name: 'Deployment kiali/kiali-operator',
  role,
  link: 'ClusterRole kiali-operator may update kialis',
  live,
  evidence: [],
});

const lostPod = (over: Partial<Extract<ForceTarget, { kind: 'pod-on-lost-node' }>>): ForceTarget => ({
  kind: 'pod-on-lost-node',
  name: 'web',
  uid: 'uid-web',
  node: 'node-2',
  nodeExists: true,
  ready: 'Unknown',
  ...over,
});

describe('the verdict table: every verdict, as the table says', () => {
  test.each(Object.entries(VERDICT_SETTLING) as [Verdict, (typeof VERDICT_SETTLING)[Verdict]][])(
    '%s',
    (verdict, row) => {
      const result = settledness(ns, [finding(verdict)], NOW);
      // A neutral finding alone names nothing that holds the namespace: not settled either.
      expect(result.settled).toBe(row.settling === 'settles');
      if (row.settling === 'waits') expect(result).toMatchObject({ why: expect.stringContaining(row.why) });
      // With a settling finding beside it, a neutral one changes nothing and a waiting one keeps the wait.
      const beside = settledness(ns, [finding('leaked'), finding(verdict)], NOW);
      expect(beside.settled).toBe(row.settling !== 'waits');
    },
  );

  test('the table has a row for each verdict, and says why for each', () => {
    const rows = Object.entries(VERDICT_SETTLING);
    expect(rows.map(([v]) => v).sort()).toEqual(
      [
        'backend-down',
        'cannot-evaluate',
        'deadlock',
        'down',
        'leaked',
        'outcome-unknown',
        'refused-on-purpose',
        'unknown',
        'waiting',
        'will-recreate',
      ].sort(),
    );
    for (const [, row] of rows) expect(row.why.length).toBeGreaterThan(10);
  });

  test("the guide's table says what the code's table does, verdict by verdict", () => {
    const guide = readFileSync('docs/guide.md', 'utf8');
    const said = new Map(
      [...guide.matchAll(/^ *\| `([a-z-]+)` +\| (settles|waits|neither):/gm)].map((m) => [m[1], m[2]]),
    );
    const word = { settles: 'settles', waits: 'waits', neutral: 'neither' } as const;
    expect(Object.fromEntries(said)).toEqual(
      Object.fromEntries(Object.entries(VERDICT_SETTLING).map(([v, row]) => [v, word[row.settling]])),
    );
  });
});

describe('settled: what it says, and what it needs', () => {
  test('a leaked finalizer, the controller having written its conditions: settled, with its words', () => {
    expect(settledness(ns, [finding('leaked')], NOW)).toEqual({
      settled: true,
      verdicts: ['leaked'],
      reason: 'kiali.io/finalizer on kialis.kiali.io objects: leaked',
    });
  });

  test('no conditions yet: no pass of the namespace controller was seen, so not settled', () => {
    expect(settledness(terminating(), [finding('leaked')], NOW)).toMatchObject({
      settled: false,
      why: expect.stringContaining('no conditions'),
    });
  });

  test('no finding at all, or only findings without a verdict: nothing names what holds it', () => {
    expect(settledness(ns, [], NOW).settled).toBe(false);
    expect(settledness(ns, [finding(undefined, { id: 'object-finalizers' })], NOW).settled).toBe(false);
  });

  test('content still being removed the normal way keeps the wait, whatever else settles', () => {
    const progress = finding(undefined, { id: 'still-progressing', severity: 'notice' });
    expect(settledness(ns, [finding('leaked'), progress], NOW)).toMatchObject({
      settled: false,
      why: expect.stringContaining('still being removed'),
    });
  });

  test('forcing left to do keeps the wait, and says when to look again', () => {
    const forcing = { why: 'forcing (on) has 1 step(s) to take at force-after', lookAt: NOW + 5_000 };
    expect(settledness(ns, [finding('leaked')], NOW, forcing)).toEqual({ settled: false, ...forcing });
  });
});

describe('flips: make the actor alive and the early end goes; make it gone and it comes', () => {
  test.each([
    { name: 'deadlock, its operator in the namespace still running', verdict: 'deadlock', live: 'live' },
    { name: 'down, but a releasing actor reads alive', verdict: 'down', live: 'live' },
  ] as const)('$name', ({ verdict, live }) => {
    const alive = finding(verdict, { actors: [actor(live)] });
    expect(settledness(ns, [alive], NOW)).toMatchObject({
      settled: false,
      why: expect.stringContaining('is alive and may still release it'),
    });
    const dead = finding(verdict, { actors: [actor('down')] });
    expect(settledness(ns, [dead], NOW).settled).toBe(true);
  });

  test('a live actor that refuses (a policy that is up) does not keep the wait', () => {
    const refused = finding('refused-on-purpose', { actors: [actor('live', 'refuses')] });
    expect(settledness(ns, [refused], NOW).settled).toBe(true);
  });

  test('a pod on a node NotReady for less than 5 minutes waits until then; longer, or gone, settles', () => {
    const at = (agoMs: number): string => new Date(NOW - agoMs).toISOString();
    const notReady = (agoMs: number): Finding =>
      finding('down', { id: 'pods-not-terminating', targets: [lostPod({ readySince: at(agoMs) })] });
    expect(keepsWaiting(notReady(MINUTE), NOW)).toEqual({
      why: expect.stringContaining('node node-2 has been NotReady for 1m 00s'),
      lookAt: NOW + 4 * MINUTE,
    });
    expect(settledness(ns, [notReady(MINUTE)], NOW).settled).toBe(false);
    expect(settledness(ns, [notReady(6 * MINUTE)], NOW).settled).toBe(true);
    const since = finding('down', { id: 'pods-not-terminating', targets: [lostPod({})] });
    expect(keepsWaiting(since, NOW)?.why).toMatch(/since a time not read/);
    const gone = finding('leaked', {
      id: 'pods-not-terminating',
      targets: [lostPod({ nodeExists: false })],
    });
    expect(settledness(ns, [gone], NOW).settled).toBe(true);
  });
});

describe('forcingLeft: what forcing may still do in this run', () => {
  const inputs = (over: Partial<Parameters<typeof forcingLeft>[3]> = {}) => ({
    policy: policy({ finalizerPatterns: ['kiali.io/*'] }),
    isProtected: () => false,
    leftovers: [],
    over: false,
    forceAt: T0 + 10 * MINUTE,
    earlier: [],
    ...over,
  });

  test('steps the policy allows: left, until force-after (and a second after it)', () => {
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs())).toEqual({
      why: 'forcing (on) has 1 step(s) to take at force-after',
      lookAt: T0 + 10 * MINUTE + 1_000,
    });
    expect(
      forcingLeft(
        ns,
        [kialiFinding()],
        NOW,
        inputs({ policy: policy({ mode: 'dry-run', finalizerPatterns: ['kiali.io/*'] }) }),
      ),
    ).toBeDefined();
  });

  test('nothing left: force off, nothing allowed, a protected namespace, or the passes are over', () => {
    expect(
      forcingLeft(ns, [kialiFinding()], NOW, inputs({ policy: policy({ mode: 'off' }) })),
    ).toBeUndefined();
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs({ policy: policy() }))).toBeUndefined();
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs({ isProtected: () => true }))).toBeUndefined();
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs({ over: true }))).toBeUndefined();
  });

  test('a removal the server answered twice with the finalizer put back: nothing left, it is not written again', () => {
    const step = decide(
      { ...policy({ finalizerPatterns: ['kiali.io/*'] }), afterMs: 0 },
      ns,
      [kialiFinding()],
      NOW,
      () => false,
      [],
    ).steps[0]!;
    const putBack: AuditEntry = {
      at: new Date(NOW).toISOString(),
      namespace: ns.name,
      step: step.kind,
      object: step.object,
      field: step.field,
      before: ['kiali.io/finalizer'],
      after: ['kiali.io/finalizer'],
      allowed: [],
      writes: 2,
      result: 'not-removed',
      why: 'the answer still holds kiali.io/finalizer',
      putBack: {
        field: 'metadata.finalizers',
        kept: ['kiali.io/finalizer'],
        writes: 2,
        unchanged: true,
        by: { kind: 'manager', managers: ['platform-ns-controller'] },
        remedy: 'fix platform-ns-controller',
        lookups: [],
      },
    };
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs({ earlier: [putBack] }))).toBeUndefined();
    expect(forcingLeft(ns, [kialiFinding()], NOW, inputs({ earlier: [] }))).toBeDefined();
  });

  test('pods of a node lost for less than the threshold under lost-nodes: left until then', () => {
    const pod = finding('down', {
      id: 'pods-not-terminating',
      targets: [lostPod({ readySince: new Date(NOW - MINUTE).toISOString() })],
    });
    expect(forcingLeft(ns, [pod], NOW, inputs({ policy: policy({ deletePods: 'lost-nodes' }) }))).toEqual({
      why: expect.stringContaining('lost node'),
      lookAt: NOW + 4 * MINUTE,
    });
  });

  test('the plan recorded at a settled end has no step, and says force-after was not waited for', () => {
    const plan = settledPlan(policy(), ns, [kialiFinding()], NOW, () => false, []);
    expect(plan).toMatchObject({ decision: 'nothing-allowed', steps: [] });
    expect(plan?.notes[0]).toBe(
      'settled before force-after (10m 00s): forcing would change nothing, so it was not waited for',
    );
    expect(settledPlan(policy({ mode: 'off' }), ns, [kialiFinding()], NOW, () => false, [])).toBeUndefined();
    const allowed = policy({ finalizerPatterns: ['kiali.io/*'] });
    expect(settledPlan(allowed, ns, [kialiFinding()], NOW, () => false, [])).toBeUndefined();
  });
});
