import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import {
  apply,
  createNamespace,
  kubectl,
  namespace,
  restricted,
  runAction,
  uniqueName,
  waitGone,
} from './kit.js';

describe('an identity without RBAC, on the real server', () => {
  test("ends the target in error with the server's 403 and the RBAC pointer, still publishes everything, changes nothing", async () => {
    const ns = uniqueName('norbac');
    await createNamespace(ns);
    const run = await runAction({ namespaces: ns, kubeconfig: restricted().kubeconfig, timeout: '15s' });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      `::error title=Namespace ${ns}%3A error::reading the namespace failed: namespaces "${ns}" is forbidden: User "restricted" cannot get resource "namespaces" in API group "" in the namespace "${ns}". Grant the permissions in deploy/rbac.yaml (see the README, "Permissions").`,
      `::error::Namespace teardown failed: 1 namespace(s) ended in error: ${ns}`,
    ]);
    // The result is not lost: outputs, report and summary are all written.
    expect(run.outputs.result).toBe('error');
    expect(JSON.parse(run.outputs.deleted!)).toEqual([]);
    const target = run.report!.targets.find((t) => t.name === ns)!;
    expect(target.outcome).toBe('error');
    expect(run.summary).toContain(ns);
    expect(run.summary).toContain('forbidden');
    expect(run.stdout.replace(`::add-mask::${restricted().token}`, '')).not.toContain(restricted().token);
    const still = await namespace(ns);
    expect(still.status.phase).toBe('Active');
    expect(still.metadata.deletionTimestamp).toBeUndefined();
  });
});

/** The ClusterRoles of deploy/rbac.yaml as shipped. */
const shippedRoles = (): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync('deploy/rbac.yaml', 'utf8'))
    .map((d) => d.toJS() as Record<string, unknown>)
    .filter((d) => d.kind === 'ClusterRole');

/** Bind one shipped ClusterRole, and only it, to the user `restricted`; returns the unbinding. */
async function bindOnly(role: string): Promise<() => Promise<void>> {
  await apply(...shippedRoles());
  const binding = uniqueName(`bind-${role}`);
  await apply({
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: binding },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
    subjects: [{ apiGroup: 'rbac.authorization.k8s.io', kind: 'User', name: 'restricted' }],
  });
  return async () => void (await kubectl(['delete', 'clusterrolebinding', binding]));
}

describe('the roles of deploy/rbac.yaml, each alone, on the real server', () => {
  test('the delete-only role tears a namespace down with teardown-order: namespace', async () => {
    const ns = uniqueName('delete-only');
    await createNamespace(ns);
    const unbind = await bindOnly('namespace-teardown');
    try {
      const run = await runAction({
        namespaces: ns,
        kubeconfig: restricted().kubeconfig,
        timeout: '60s',
        'teardown-order': 'namespace',
      });
      expect(run.report!.targets.find((t) => t.name === ns)!.outcome).toBe('gone');
      expect(run.outputs.result).toBe('clean');
      expect(await waitGone(ns)).toBe(true);
    } finally {
      await unbind();
    }
  });

  test('the diagnose role alone cannot delete: the target ends in error with the 403, still Active', async () => {
    const ns = uniqueName('diagnose-only');
    await createNamespace(ns);
    const unbind = await bindOnly('namespace-teardown-diagnose');
    try {
      const run = await runAction({
        namespaces: ns,
        kubeconfig: restricted().kubeconfig,
        timeout: '15s',
        'teardown-order': 'namespace',
      });
      const target = run.report!.targets.find((t) => t.name === ns)!;
      expect(target.outcome).toBe('error');
      expect(target.note).toMatch(/cannot (get|delete) resource "namespaces"/);
      expect((await namespace(ns)).metadata.deletionTimestamp).toBeUndefined();
    } finally {
      await unbind();
    }
  });
});
