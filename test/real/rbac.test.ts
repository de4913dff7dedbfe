import { createNamespace, namespace, restricted, runAction, uniqueName } from './kit.js';

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
