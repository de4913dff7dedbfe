import type { AuditEntry, Plan, ForcePolicy } from '../../src/model/force.js';
import { executePlan } from '../../src/force/execute.js';
import { KubeError } from '../../src/kube/port.js';
import { decide } from '../../src/force/policy.js';
import { RecordingLogger, type Clock } from '../../src/shared/ports.js';
import type { Finding } from '../../src/model/findings.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { RecordingKube } from './fake-kube.js';
import {
  DISCOVERY_FAILED,
  KIALIS,
  MINUTE,
  T0,
  deadApiServiceFinding,
  kialiFinding,
  kubesphereFinding,
  meta,
  policy,
  terminating,
  KIALI_REMOVED,
} from './fixtures.js';
import { resultText } from '../../src/force/audit.js';

const NOW = T0 + 15 * MINUTE;
const AT = new Date(NOW).toISOString();
const clock: Clock = { now: () => NOW, sleep: async () => undefined };
const KUBESPHERE = 'finalizers.kubesphere.io/namespaces';
const KIALI_PATH = '/apis/kiali.io/v1alpha1/namespaces/preview-42/kialis/kiali';
const GET_NS = 'GET namespace preview-42';
const GET_KIALI = `GET ${KIALI_PATH}`;

function planFor(ns: NamespaceState, findings: Finding[], over: Partial<ForcePolicy>): Plan {
  return decide(policy(over), ns, findings, NOW, () => false);
}

/** Kiali CR + kubesphere namespace finalizer + dead APIService: all three steps. */
function fullCase(kialiFinalizers = ['kiali.io/finalizer']): { kube: RecordingKube; plan: Plan } {
  const ns = terminating({ metadataFinalizers: [KUBESPHERE], conditions: [DISCOVERY_FAILED] });
  const kube = new RecordingKube()
    .addNamespace(ns)
    .addObject(KIALIS, meta('kiali', 'uid-kiali', kialiFinalizers));
  const findings = [kialiFinding(kialiFinalizers), kubesphereFinding(), deadApiServiceFinding()];
  const plan = planFor(ns, findings, {
    finalizerPatterns: ['kiali.io/*', 'finalizers.kubesphere.io/*'],
    finalizeNamespace: true,
  });
  return { kube, plan };
}

function kialiCase(
  finalizers: string[],
  patterns: string[],
  fresh = finalizers,
): { kube: RecordingKube; plan: Plan } {
  const ns = terminating();
  const kube = new RecordingKube().addNamespace(ns).addObject(KIALIS, meta('kiali', 'uid-kiali', fresh));
  // A list that changed since the scan comes with a newer resourceVersion.
  if (fresh.join() !== finalizers.join()) kube.touch(KIALI_PATH);
  return { kube, plan: planFor(ns, [kialiFinding(finalizers)], { finalizerPatterns: patterns }) };
}

async function run(kube: RecordingKube, plan: Plan, dryRun = false, expectedUid = 'uid-ns') {
  const logger = new RecordingLogger();
  const audit = await executePlan(kube, plan, { dryRun, logger, clock, expectedUid });
  return { audit, logger, results: audit.map((e) => `${e.object} ${e.field}: ${resultText(e)}`) };
}

describe('executePlan', () => {
  test('removes an allowed CR finalizer: one PATCH guarded by the uid and resourceVersion the scan listed, no re-read', async () => {
    const { kube, plan } = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    const { audit } = await run(kube, plan);
    expect(kube.calls).toEqual([GET_NS, 'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []']);
    expect(audit).toEqual<AuditEntry[]>([
      { at: AT, namespace: 'preview-42', step: 'object-finalizers', ...KIALI_REMOVED },
    ]);
    expect(kube.objects.size).toBe(0);
  });

  test('a 409 on the first write: re-read and succeed with the fresh resourceVersion', async () => {
    const { kube, plan } = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    kube.before('patchFinalizers', () => kube.touch(KIALI_PATH));
    const { audit } = await run(kube, plan);
    expect(kube.calls).toEqual([
      GET_NS,
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      GET_KIALI,
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=101 []',
    ]);
    expect(audit.map((e) => [e.result, e.writes])).toEqual([['removed', 2]]);
  });

  test('a conflict that persists fails after 3 attempts, and /finalize is then held back', async () => {
    const { kube, plan } = fullCase();
    for (let i = 0; i < 3; i++) kube.before('patchFinalizers', () => kube.touch(KIALI_PATH));
    const { results, logger } = await run(kube, plan);
    expect(kube.writes.filter((c) => c.startsWith('PATCH kialis'))).toHaveLength(3);
    expect(results[0]).toMatch(
      /^kialis.kiali.io\/kiali metadata.finalizers: failed: conflict after 3 attempts: Operation cannot be fulfilled/,
    );
    expect(results[1]).toBe('namespace/preview-42 metadata.finalizers: removed');
    expect(results[2]).toMatch(
      /^namespace\/preview-42 spec.finalizers: skipped: held back because an earlier step failed, so \/finalize would orphan more than planned: kialis.kiali.io\/kiali \(failed: conflict after 3 attempts: /,
    );
    expect(kube.writes.some((c) => c.startsWith('PUT'))).toBe(false);
    expect(
      logger.lines.some((l) =>
        l.startsWith('warning: preview-42: kialis.kiali.io/kiali metadata.finalizers: failed'),
      ),
    ).toBe(true);
  });

  test('only the allowed entries are removed, from the FRESH list; others stay in their order', async () => {
    const { kube, plan } = kialiCase(
      ['a.io/x', 'kiali.io/finalizer', 'b.io/y'],
      ['kiali.io/*'],
      ['a.io/x', 'kiali.io/finalizer', 'c.io/z', 'b.io/y'],
    );
    const { audit } = await run(kube, plan);
    // The listed list is stale (409): read again, and remove only the planned entry from what is there now.
    expect(kube.writes).toEqual([
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 [a.io/x,b.io/y]',
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=101 [a.io/x,c.io/z,b.io/y]',
    ]);
    expect(audit[0]).toMatchObject({
      before: ['a.io/x', 'kiali.io/finalizer', 'c.io/z', 'b.io/y'],
      after: ['a.io/x', 'c.io/z', 'b.io/y'],
    });
  });

  test('even with "*", an entry the plan did not see is kept', async () => {
    const { kube, plan } = kialiCase(
      ['a.io/x', 'kiali.io/finalizer'],
      ['*'],
      ['a.io/x', 'kiali.io/finalizer', 'c.io/late'],
    );
    await run(kube, plan);
    expect(kube.writes).toEqual([
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=101 [c.io/late]',
    ]);
  });

  test('runs the three steps in order: object, namespace metadata, then /finalize', async () => {
    const { kube, plan } = fullCase();
    const { results, logger } = await run(kube, plan);
    expect(kube.calls).toEqual([
      GET_NS,
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      GET_NS,
      'PATCH namespaces /preview-42 uid=uid-ns rv=10 []',
      GET_NS,
      'PUT namespace preview-42/finalize uid=uid-ns rv=102 []',
    ]);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: removed',
      'namespace/preview-42 metadata.finalizers: removed',
      'namespace/preview-42 spec.finalizers: finalized',
    ]);
    expect(kube.namespaces.size).toBe(0);
    expect(logger.lines).toContain(
      'warning: preview-42: namespace/preview-42: risk taken: the namespace is removed without its content being deleted; whatever is left in storage reappears in a namespace created later with the same name',
    );
  });

  test('dry-run: zero writes; the audit shows what would happen', async () => {
    const { kube, plan } = fullCase(['kiali.io/finalizer', 'other.io/keep']);
    const { audit, logger } = await run(kube, plan, true);
    expect(kube.writes).toEqual([]);
    expect(kube.calls).toEqual([GET_NS, GET_NS, GET_NS]);
    expect(audit.map((e) => [e.object, e.result, e.before, e.after, e.writes])).toEqual([
      ['kialis.kiali.io/kiali', 'dry-run', ['kiali.io/finalizer', 'other.io/keep'], ['other.io/keep'], 0],
      ['namespace/preview-42', 'dry-run', [KUBESPHERE], [], 0],
      ['namespace/preview-42', 'dry-run', ['kubernetes'], [], 0],
    ]);
    expect(logger.lines[0]).toBe(
      'preview-42: kialis.kiali.io/kiali metadata.finalizers: dry-run — remove kiali.io/finalizer (force-finalizers: kiali.io/*); after: [other.io/keep]',
    );
  });

  test('a plan made in mode dry-run never writes, even without the dryRun option', async () => {
    const ns = terminating();
    const kube = new RecordingKube()
      .addNamespace(ns)
      .addObject(KIALIS, meta('kiali', 'uid-kiali', ['kiali.io/finalizer']));
    const plan = decide(
      policy({ mode: 'dry-run', finalizerPatterns: ['kiali.io/*'] }),
      ns,
      [kialiFinding()],
      NOW,
      () => false,
    );
    const { results } = await run(kube, plan, false);
    expect(kube.writes).toEqual([]);
    expect(results).toEqual(['kialis.kiali.io/kiali metadata.finalizers: dry-run']);
  });

  test('recreated namespace (UID changed): recorded, nothing further touched', async () => {
    const { kube, plan } = fullCase();
    kube.addNamespace(terminating({ uid: 'uid-new', deletionTimestamp: undefined, phase: 'Active' }));
    const { results } = await run(kube, plan);
    expect(kube.calls).toEqual([GET_NS]);
    expect(results.map((r) => r.split(': ').slice(1).join(': '))).toEqual(
      Array(3).fill('skipped: recreated'),
    );
  });

  test('recreated between steps: later steps are skipped without a call', async () => {
    const { kube, plan } = fullCase();
    kube.before('patchFinalizers', () => kube.addNamespace(terminating({ uid: 'uid-new' })));
    const { results } = await run(kube, plan);
    expect(kube.calls).toEqual([
      GET_NS,
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      GET_NS,
    ]);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: removed',
      'namespace/preview-42 metadata.finalizers: skipped: recreated',
      'namespace/preview-42 spec.finalizers: skipped: recreated',
    ]);
  });

  test('a plan for another UID than expected is not executed at all', async () => {
    const { kube, plan } = fullCase();
    const { results } = await run(kube, plan, false, 'uid-someone-else');
    expect(kube.calls).toEqual([]);
    expect(results.every((r) => r.endsWith('skipped: recreated'))).toBe(true);
  });

  test('an object not being deleted yet is left alone, and a skipped step does not hold /finalize back', async () => {
    const ns = terminating({ metadataFinalizers: [KUBESPHERE], conditions: [DISCOVERY_FAILED] });
    const kube = new RecordingKube()
      .addNamespace(ns)
      .addObject(
        KIALIS,
        meta('kiali', 'uid-kiali', ['kiali.io/finalizer'], { deletionTimestamp: undefined }),
      );
    // As the scan listed it: not marked for deletion (a deletionTimestamp, once set, never goes away).
    const kiali = kialiFinding();
    const listed = { ...kiali, targets: kiali.targets!.map((t) => ({ ...t, deleting: false })) };
    const plan = planFor(ns, [listed, kubesphereFinding(), deadApiServiceFinding()], {
      finalizerPatterns: ['kiali.io/*', 'finalizers.kubesphere.io/*'],
      finalizeNamespace: true,
    });
    const { results } = await run(kube, plan);
    expect(kube.writes).toEqual([
      'PATCH namespaces /preview-42 uid=uid-ns rv=10 []',
      'PUT namespace preview-42/finalize uid=uid-ns rv=101 []',
    ]);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: skipped: not being deleted yet',
      'namespace/preview-42 metadata.finalizers: removed',
      'namespace/preview-42 spec.finalizers: finalized',
    ]);
    expect(kube.namespaces.has('preview-42')).toBe(false);
  });

  test('an object recreated under the same name is left alone: the PATCH carries the old UID and is refused', async () => {
    const { kube, plan } = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    kube.addObject(KIALIS, meta('kiali', 'uid-other', ['kiali.io/finalizer']));
    const { results } = await run(kube, plan);
    expect(kube.writes).toEqual(['PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []']);
    expect(kube.objects.get(KIALI_PATH)?.meta.finalizers).toEqual(['kiali.io/finalizer']);
    expect(results).toEqual(['kialis.kiali.io/kiali metadata.finalizers: skipped: object recreated']);
  });

  test('a 422 on metadata.uid (how kube-apiserver refuses a merge patch for another object) is recreated too', async () => {
    const { kube, plan } = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    kube.before('patchFinalizers', () => {
      throw new KubeError(
        'Kiali.kiali.io "kiali" is invalid: metadata.uid: Invalid value: "uid-kiali": field is immutable',
        422,
        'Invalid',
      );
    });
    const { results } = await run(kube, plan);
    expect(results).toEqual(['kialis.kiali.io/kiali metadata.finalizers: skipped: object recreated']);
  });

  test('NotFound is done: an object gone before the read, or between read and write', async () => {
    const before = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    before.kube.objects.clear();
    expect((await run(before.kube, before.plan)).results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: gone',
    ]);
    expect(before.kube.writes).toEqual(['PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []']);

    const between = kialiCase(['kiali.io/finalizer'], ['kiali.io/*']);
    between.kube.before('patchFinalizers', () => between.kube.objects.clear());
    expect((await run(between.kube, between.plan)).results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: gone',
    ]);
  });

  test('namespace gone mid-plan: the rest is recorded without a call', async () => {
    const { kube, plan } = fullCase();
    kube.before('patchFinalizers', () => kube.namespaces.clear());
    const { results } = await run(kube, plan);
    expect(kube.calls).toEqual([
      GET_NS,
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      GET_NS,
    ]);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: removed',
      'namespace/preview-42 metadata.finalizers: gone',
      'namespace/preview-42 spec.finalizers: gone',
    ]);
  });

  test('a forbidden write fails that step only and holds /finalize back', async () => {
    const { kube, plan } = fullCase();
    kube.before('patchFinalizers', () => {
      throw new KubeError(
        'kialis.kiali.io "kiali" is forbidden: User "ci" cannot patch resource "kialis"',
        403,
        'Forbidden',
      );
    });
    const { results } = await run(kube, plan);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: failed: kialis.kiali.io "kiali" is forbidden: User "ci" cannot patch resource "kialis"',
      'namespace/preview-42 metadata.finalizers: removed',
      'namespace/preview-42 spec.finalizers: skipped: held back because an earlier step failed, so /finalize would orphan more than planned: kialis.kiali.io/kiali (failed: kialis.kiali.io "kiali" is forbidden: User "ci" cannot patch resource "kialis")',
    ]);
    expect(kube.writes.some((c) => c.startsWith('PUT'))).toBe(false);
  });

  test('a 409 on /finalize (the controller got there first): re-read, nothing left to do', async () => {
    // A kept metadata finalizer keeps the namespace in storage after spec.finalizers empties.
    const ns = terminating({ conditions: [DISCOVERY_FAILED], metadataFinalizers: [KUBESPHERE] });
    const kube = new RecordingKube().addNamespace(ns);
    const plan = planFor(ns, [deadApiServiceFinding()], { finalizeNamespace: true });
    kube.before('finalizeNamespace', () => {
      const stored = kube.namespaces.get('preview-42')!;
      stored.specFinalizers = [];
      kube.touch('preview-42');
    });
    const { results } = await run(kube, plan);
    expect(kube.calls).toEqual([GET_NS, 'PUT namespace preview-42/finalize uid=uid-ns rv=10 []', GET_NS]);
    expect(results).toEqual(['namespace/preview-42 spec.finalizers: skipped: nothing left to remove']);
  });

  describe('2,000 objects with one leaked finalizer', () => {
    const N = 2000;
    function many(): { kube: RecordingKube; plan: Plan } {
      const ns = terminating();
      const kube = new RecordingKube().addNamespace(ns);
      const kiali = kialiFinding();
      const targets = Array.from({ length: N }, (_, i) => {
        kube.addObject(KIALIS, meta(`k${i}`, `uid-k${i}`, ['kiali.io/finalizer']));
        return { ...kiali.targets![0]!, name: `k${i}`, uid: `uid-k${i}` };
      });
      const plan = planFor(ns, [{ ...kiali, targets }], { finalizerPatterns: ['kiali.io/*'] });
      return { kube, plan };
    }

    test('one read of the namespace and one guarded PATCH each; the log stays a few lines', async () => {
      const { kube, plan } = many();
      const { audit, logger } = await run(kube, plan);
      expect(kube.calls.filter((c) => c === GET_NS)).toHaveLength(1);
      expect(kube.calls).toHaveLength(N + 1);
      expect(audit.filter((e) => e.result === 'removed')).toHaveLength(N);
      expect(kube.objects.size).toBe(0);
      expect(logger.lines.length).toBeLessThanOrEqual(6);
      expect(logger.lines).toContain(
        'preview-42: … and 1997 more kialis.kiali.io metadata.finalizers: removed',
      );
    });

    test('dry-run: one read, no write', async () => {
      const { kube, plan } = many();
      const { audit } = await run(kube, plan, true);
      expect(kube.calls).toEqual([GET_NS]);
      expect(audit.every((e) => e.result === 'dry-run')).toBe(true);
    });
  });
});
