import { createNamespace, namespace, restricted, runAction, uniqueName } from './kit.js';

describe('an identity without RBAC, on the real server', () => {
  test("fails the step with the server's 403 (user, verb, resource) and the RBAC pointer, and changes nothing", async () => {
    const ns = uniqueName('norbac');
    await createNamespace(ns);
    const run = await runAction({ namespaces: ns, kubeconfig: restricted().kubeconfig, timeout: '15s' });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      `::error::namespaces "${ns}" is forbidden: User "restricted" cannot get resource "namespaces" in API group "" in the namespace "${ns}". Grant the permissions in deploy/rbac.yaml (see the README, "Permissions").`,
    ]);
    expect(run.stdout.replace(`::add-mask::${restricted().token}`, '')).not.toContain(restricted().token);
    const still = await namespace(ns);
    expect(still.status.phase).toBe('Active');
    expect(still.metadata.deletionTimestamp).toBeUndefined();
  });
});
