/**
 * Conflicting evidence on the real kube-apiserver 1.20: an operator whose pod stays Ready while the leader-election
 * Lease it holds expired (a hung controller). The verdict says it is running but not leading, and the fix restarts it;
 * nothing says "wait" or "not running".
 */
import {
  apply,
  clearFinalizers,
  createCRD,
  createNamespace,
  get,
  kubectl,
  runAction,
  uniqueName,
  waitGone,
} from './kit.js';
import { FINALIZER, GROUP, deployOperator } from './gizmo.js';

describe('an operator running but not leading', () => {
  beforeAll(() => createCRD(GROUP, 'Gizmo', 'gizmos'));

  test('its pod Ready, its Lease last renewed 10 minutes ago: down, "running but not leading", restart it', async () => {
    const ops = uniqueName('hung-ops');
    const app = uniqueName('hung-app');
    for (const ns of [ops, app]) await createNamespace(ns);
    await deployOperator(ops);
    const pod = ((await get(`/api/v1/namespaces/${ops}/pods`))?.items ?? [])[0]?.metadata?.name as string;
    const renewed = new Date(Date.now() - 600_000).toISOString().replace(/\.\d+Z$/, '.000000Z');
    await apply(
      {
        apiVersion: 'coordination.k8s.io/v1',
        kind: 'Lease',
        metadata: { namespace: ops, name: 'gizmo-operator-leader' },
        spec: {
          holderIdentity: `${pod}_5e1c7d2a`,
          leaseDurationSeconds: 15,
          acquireTime: renewed,
          renewTime: renewed,
        },
      },
      {
        apiVersion: `${GROUP}/v1`,
        kind: 'Gizmo',
        metadata: { namespace: app, name: 'g1', finalizers: [FINALIZER] },
      },
    );
    try {
      const run = await runAction({
        namespaces: app,
        timeout: '12s',
        'teardown-order': 'namespace',
        'fail-on': 'leaked',
      });
      expect(run.outputs.result).toBe('stuck');
      const f = run.report!.targets[0]!.findings.find((x) => x.id === 'finalizer-owner-gone')!;
      expect(f).toMatchObject({ verdict: 'down', leaked: false });
      expect(f.owner).toMatchObject({ present: false, status: 'running but not leading' });
      expect(f.summary).toMatch(
        new RegExp(
          `down: Deployment ${ops}/gizmo-operator is running but not leading \\(Lease ${ops}/gizmo-operator-leader last renewed 1\\dm\\d\\ds ago\\), so it removes nothing until it is restarted`,
        ),
      );
      expect(f.remedy.commands[0]).toBe(`kubectl rollout restart deployment/gizmo-operator -n ${ops}`);
      // The summary wraps a long command with `\` line continuations, and names the context.
      const commands = run.summary.replace(/ \\\n\s*/g, ' ');
      expect(commands).toContain(
        `kubectl --context realkube rollout restart deployment/gizmo-operator -n ${ops}`,
      );
      expect(run.summary).not.toMatch(/Wait for its controller|\(not running\)/);
      await clearFinalizers(`/apis/${GROUP}/v1/namespaces/${app}/gizmos/g1`);
      expect(await waitGone(app)).toBe(true);
    } finally {
      await kubectl([
        'delete',
        'clusterrole,clusterrolebinding',
        `gizmo-operator-${ops}`,
        '--ignore-not-found',
      ]);
      await kubectl(['delete', 'namespace', ops, '--wait=false']);
    }
  });
});
