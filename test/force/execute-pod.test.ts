import { executePlan } from '../../src/force/execute.js';
import type { Plan } from '../../src/model/force.js';
import { decide } from '../../src/force/policy.js';
import { RecordingLogger, type Clock } from '../../src/shared/ports.js';
import { RecordingKube } from './fake-kube.js';
import { DELETED_AT, MINUTE, T0, lostPodFinding, meta, policy, terminating } from './fixtures.js';
import { resultText } from '../../src/force/audit.js';

const NOW = T0 + 15 * MINUTE;
const clock: Clock = { now: () => NOW, sleep: async () => undefined };
const POD = '/api/v1/namespaces/preview-42/pods/web-0';
const NODE = '/api/v1/nodes/node-1';

function pod(over: { uid?: string; node?: string; deleting?: boolean; finalizers?: string[] } = {}) {
  return {
    metadata: meta('web-0', over.uid ?? 'uid-web-0', over.finalizers ?? [], {
      deletionTimestamp: over.deleting === false ? undefined : DELETED_AT,
    }),
    spec: { nodeName: over.node ?? 'node-1' },
  };
}

function node(ready: string) {
  return {
    metadata: meta('node-1', 'uid-node', [], { namespace: undefined, deletionTimestamp: undefined }),
    status: { conditions: [{ type: 'Ready', status: ready }] },
  };
}

function setup(p = pod(), n: ReturnType<typeof node> | undefined = node('Unknown')) {
  const ns = terminating();
  const kube = new RecordingKube().addNamespace(ns).addRaw(POD, p);
  if (n) kube.addRaw(NODE, n);
  const plan: Plan = decide(policy({ deletePods: 'lost-nodes' }), ns, [lostPodFinding()], NOW, () => false);
  return { kube, plan };
}

async function run(kube: RecordingKube, plan: Plan, dryRun = false) {
  const logger = new RecordingLogger();
  const audit = await executePlan(kube, plan, { dryRun, logger, clock, expectedUid: 'uid-ns' });
  return { audit, logger };
}

describe('executePlan: pods on lost nodes', () => {
  test('re-reads the namespace, the pod and its node, then deletes with grace 0 and the UID', async () => {
    const { kube, plan } = setup();
    const { audit, logger } = await run(kube, plan);
    expect(kube.calls).toEqual([
      'GET namespace preview-42',
      `GET ${POD}`,
      `GET ${NODE}`,
      'DELETE pod preview-42/web-0 grace=0 uid=uid-web-0',
    ]);
    expect(audit).toMatchObject([
      {
        step: 'pod-delete',
        object: 'pods/web-0',
        field: 'pod',
        allowedBy: { input: 'force-delete-pods', value: 'lost-nodes' },
        result: 'deleted',
        writes: 1,
      },
    ]);
    expect(kube.raws.has(POD)).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/warning: preview-42: pods\/web-0: risk taken: .*partitioned/);
  });

  const skips = [
    {
      name: 'the node is Ready again',
      given: setup(pod(), node('True')),
      result: 'skipped: node node-1 is Ready again',
    },
    {
      name: 'the pod was recreated',
      given: setup(pod({ uid: 'uid-new' })),
      result: 'skipped: object recreated',
    },
    {
      name: 'the pod moved to another node',
      given: setup(pod({ node: 'node-2' })),
      result: 'skipped: no longer bound to node node-1',
    },
    {
      name: 'the pod is not being deleted',
      given: setup(pod({ deleting: false })),
      result: 'skipped: not being deleted yet',
    },
  ];
  test.each(skips)('never deletes when $name', async ({ given, result }) => {
    const { audit } = await run(given.kube, given.plan);
    expect(given.kube.writes).toEqual([]);
    expect(audit.map((a) => [resultText(a), a.writes])).toEqual([[result, 0]]);
  });

  test('a node gone from the API: deleted', async () => {
    const { kube, plan } = setup(pod(), undefined);
    const { audit } = await run(kube, plan);
    expect(kube.writes).toEqual(['DELETE pod preview-42/web-0 grace=0 uid=uid-web-0']);
    expect(audit[0]!.result).toBe('deleted');
  });

  test('a DELETE answered with the pod still there (a finalizer holds it): not removed, never deleted', async () => {
    const { kube, plan } = setup(pod({ finalizers: ['example.com/drain'] }));
    const { audit } = await run(kube, plan);
    expect(kube.writes).toEqual(['DELETE pod preview-42/web-0 grace=0 uid=uid-web-0']);
    expect(audit[0]).toMatchObject({
      result: 'not-removed',
      why: "the DELETE's answer shows the pod still there, held by example.com/drain",
      after: ['example.com/drain'],
    });
    expect(resultText(audit[0]!)).toMatch(/^not removed: /);
  });

  test('dry-run reads and writes nothing', async () => {
    const { kube, plan } = setup();
    const { audit } = await run(kube, plan, true);
    expect(kube.writes).toEqual([]);
    expect(audit.map((a) => [a.result, a.writes])).toEqual([['dry-run', 0]]);
    expect(kube.raws.has(POD)).toBe(true);
  });

  test('a pod recreated between read and delete: the UID precondition refuses, re-read skips', async () => {
    const { kube, plan } = setup();
    kube.before('deletePod', () => kube.addRaw(POD, pod({ uid: 'uid-new' })));
    const { audit } = await run(kube, plan);
    expect(kube.writes).toEqual(['DELETE pod preview-42/web-0 grace=0 uid=uid-web-0']);
    expect(audit.map(resultText)).toEqual(['skipped: object recreated']);
    expect(kube.raws.has(POD)).toBe(true);
  });

  test('a failed pod delete holds /finalize back and says which step failed', async () => {
    const ns = terminating({ conditions: [] });
    const kube = new RecordingKube().addNamespace(ns).addRaw(POD, pod()).addRaw(NODE, node('Unknown'));
    const findings = [
      lostPodFinding(),
      {
        ...lostPodFinding({ uid: 'uid-other' }),
        targets: [{ kind: 'namespace-finalize' as const, reason: 'discovery fails' }],
      },
    ];
    const plan = decide(
      policy({ deletePods: 'lost-nodes', finalizeNamespace: true }),
      ns,
      findings,
      NOW,
      () => false,
    );
    kube.before('deletePod', () => {
      throw new Error('pods "web-0" is forbidden: User "ci" cannot delete resource "pods"');
    });
    const { audit } = await run(kube, plan);
    expect(audit.map(resultText)).toEqual([
      'failed: pods "web-0" is forbidden: User "ci" cannot delete resource "pods"',
      'skipped: held back because an earlier step failed, so /finalize would orphan more than planned: pods/web-0 (failed: pods "web-0" is forbidden: User "ci" cannot delete resource "pods")',
    ]);
    expect(kube.writes).toEqual(['DELETE pod preview-42/web-0 grace=0 uid=uid-web-0']);
  });
});
