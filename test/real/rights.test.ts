/**
 * Where an operator's rights come from, on the real kube-apiserver 1.20: a ClusterRole bound to the group of every
 * ServiceAccount of its namespace (`system:serviceaccounts:<ns>`), and a webhook authorizer no RBAC object shows (the
 * control plane's `OUTSIDE_RBAC` grant, as managed clusters have). The API server answers for the second
 * (SubjectAccessReview): the verdict is never "leaked", and custom resources first deletes its objects while it runs.
 */
import { OUTSIDE_RBAC } from './control-plane.js';
import {
  apply,
  clearFinalizers,
  createCRD,
  createNamespace,
  kubectl,
  namespace,
  runAction,
  uniqueName,
  waitGone,
} from './kit.js';
import { FINALIZER, deployOperator, startOperator } from './gizmo.js';

const GROUPED = 'grouped.acmeops.io';

async function gizmos(ns: string, group: string, names: string[]): Promise<void> {
  for (const name of names)
    await apply({
      apiVersion: `${group}/v1`,
      kind: 'Gizmo',
      metadata: { namespace: ns, name, finalizers: [FINALIZER] },
    });
}

describe('an operator whose rights no RBAC object shows (a webhook authorizer)', () => {
  const home = OUTSIDE_RBAC.namespace;
  const group = OUTSIDE_RBAC.group;
  beforeAll(async () => {
    await createCRD(group, 'Gizmo', 'gizmos');
    await createNamespace(home);
    await deployOperator(home, { group, rights: 'outside-rbac' });
  });
  afterAll(() => kubectl(['delete', 'namespace', home, '--wait=false', '--ignore-not-found']));

  test('custom resources first: the API server says it may, so its objects go first while it runs; clean', async () => {
    const app = uniqueName('outside');
    await createNamespace(app);
    await gizmos(app, group, ['g1', 'g2']);
    const op = await startOperator(app, home, group);
    try {
      const run = await runAction({ namespaces: app, timeout: '40s', 'fail-on': 'leaked' });
      expect(run.outputs.result).toBe('clean');
      expect(op.cleanups()).toEqual([`deleted bucket for ${app}/g1`, `deleted bucket for ${app}/g2`]);
      const phase = run.report!.targets[0]!.customResources!;
      expect(phase.objects.map((o) => o.waited)).toEqual([true, true]);
      expect(phase.objects[0]!.why).toMatch(
        new RegExp(
          `the API server allows ServiceAccount ${home}/gizmo-operator to update gizmos\\.${group.replaceAll('.', '\\.')} in namespace ${app} \\(SubjectAccessReview: the webhook authorizer allows system:serviceaccounts:${home}\\); no RBAC grant this run read names it`,
        ),
      );
      expect(await namespace(app)).toBeUndefined();
    } finally {
      op.child.kill('SIGKILL');
    }
  });

  test('held by its finalizer while it does nothing: waiting on its word, never leaked; removal a marked last resort', async () => {
    const app = uniqueName('outside-held');
    await createNamespace(app);
    await gizmos(app, group, ['g1']);
    const run = await runAction({
      namespaces: app,
      timeout: '12s',
      'teardown-order': 'namespace',
      'fail-on': 'leaked',
    });
    expect(run.outputs.result).toBe('stuck');
    const f = run.report!.targets[0]!.findings.find((x) => x.id === 'finalizer-owner-gone')!;
    expect(f).toMatchObject({ verdict: 'waiting', leaked: false });
    expect(f.summary).toMatch(
      new RegExp(`waiting: Deployment ${home}/gizmo-operator is alive and can remove it`),
    );
    expect(f.basis![0]).toMatch(
      /^the API server allows ServiceAccount .* \(SubjectAccessReview: the webhook authorizer/,
    );
    expect(f.remedy.commands.join('\n')).not.toMatch(/kubectl patch/);
    expect(f.remedy.lastResort?.commands.join('\n')).toMatch(/kubectl patch/);
    expect(run.summary).toContain('SubjectAccessReview');
    await clearFinalizers(`/apis/${group}/v1/namespaces/${app}/gizmos/g1`);
    expect(await waitGone(app)).toBe(true);
  });
});

describe('an operator whose rights come through the group of its namespace’s ServiceAccounts', () => {
  beforeAll(() => createCRD(GROUPED, 'Gizmo', 'gizmos'));

  test('held while it does nothing: waiting, with the ClusterRoleBinding to system:serviceaccounts:<ns> as evidence', async () => {
    const ops = uniqueName('grouped-ops');
    const app = uniqueName('grouped-app');
    for (const ns of [ops, app]) await createNamespace(ns);
    await deployOperator(ops, { group: GROUPED, rights: 'group' });
    await gizmos(app, GROUPED, ['g1']);
    try {
      const run = await runAction({
        namespaces: app,
        timeout: '12s',
        'teardown-order': 'namespace',
        'fail-on': 'leaked',
      });
      const f = run.report!.targets[0]!.findings.find((x) => x.id === 'finalizer-owner-gone')!;
      expect(f).toMatchObject({ verdict: 'waiting', leaked: false });
      expect(f.basis![0]).toBe(
        `ClusterRole gizmo-operator-${ops} may update gizmos.${GROUPED}, bound by ClusterRoleBinding gizmo-operator-${ops}; ServiceAccount ${ops}/* runs Deployment ${ops}/gizmo-operator`,
      );
      await clearFinalizers(`/apis/${GROUPED}/v1/namespaces/${app}/gizmos/g1`);
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
