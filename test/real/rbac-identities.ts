/**
 * The identities of the RBAC matrix on the real server: deploy/rbac.yaml applied as the README says, the roles for
 * the cluster's CRDs printed by `namespace-teardown rbac` and applied, and one ServiceAccount per mode bound to the
 * roles src/permissions/matrix.ts names, with its token read from a service-account-token Secret (1.20 has no
 * `kubectl create token`). Also `kubectl auth can-i` as one of them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDINGS } from '../../src/permissions/matrix.js';
import { ROLES } from '../../src/permissions/roles.js';
import type { Mode } from '../../src/permissions/rule.js';
import { runCli } from '../helpers/harness.js';
import { kubeconfigFor } from './control-plane.js';
import { admin, apply, createNamespace, get, kubectl, plane, uniqueName, waitFor } from './kit.js';

/** One mode's ServiceAccount: its user name (for `--as`) and a kubeconfig holding its token. */
export interface Identity {
  user: string;
  kubeconfig: string;
}

const adminKubeconfig = (): string => join(plane().dir, 'admin.kubeconfig');

/** `kubectl apply -f deploy/rbac.yaml`, then the roles `namespace-teardown rbac` prints for the modes with CRD rules. */
export async function applyDeploy(): Promise<string> {
  await createNamespace('ci');
  await kubectl(['apply', '-f', '-'], { input: readFileSync('deploy/rbac.yaml', 'utf8') });
  const modes = ROLES.filter((r) => r.customResources).map((r) => r.mode);
  const printed = await runCli(['rbac', '--mode', modes.join(','), '--kubeconfig', adminKubeconfig()]);
  if (printed.code !== 0) throw new Error(`namespace-teardown rbac: ${printed.stderr}`);
  await kubectl(['apply', '-f', '-'], { input: printed.stdout });
  return printed.stdout;
}

/** The token the controller writes into a `kubernetes.io/service-account-token` Secret made for `sa`. */
async function tokenOf(sa: string): Promise<string> {
  const secret = `${sa}-token`;
  await apply({
    apiVersion: 'v1',
    kind: 'Secret',
    type: 'kubernetes.io/service-account-token',
    metadata: { namespace: 'ci', name: secret, annotations: { 'kubernetes.io/service-account.name': sa } },
  });
  const data = await waitFor(
    async () => (await get(`/api/v1/namespaces/ci/secrets/${secret}`))?.data?.token as string | undefined,
    30_000,
    200,
  );
  return Buffer.from(data, 'base64').toString('utf8');
}

/** A ServiceAccount for `mode`, bound as the README says: cluster-wide, or in `boundIn` for a role that names it. */
async function identityFor(mode: Mode, roles: readonly string[], id: string): Promise<Identity> {
  const sa = `nt-${mode}-${id}`;
  await apply({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: 'ci', name: sa } });
  const subjects = [{ kind: 'ServiceAccount', name: sa, namespace: 'ci' }];
  for (const name of roles) {
    const roleRef = { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name };
    const where = ROLES.find((r) => r.name === name)?.boundIn;
    // The owners of these tests live in flux-system only: the RoleBinding goes there.
    const bindings = where
      ? [{ kind: 'RoleBinding', metadata: { namespace: where[0], name: sa } }]
      : [{ kind: 'ClusterRoleBinding', metadata: { name: `${sa}-${name}` } }];
    for (const b of bindings) await apply({ apiVersion: roleRef.apiGroup + '/v1', ...b, roleRef, subjects });
  }
  const user = `system:serviceaccount:ci:${sa}`;
  return { user, kubeconfig: kubeconfigFor(plane().url, admin().caData, user, await tokenOf(sa)) };
}

/** One identity per mode of the matrix. */
export async function identities(): Promise<Record<Mode, Identity>> {
  await createNamespace('flux-system');
  const id = uniqueName('m').slice(2);
  const out: Partial<Record<Mode, Identity>> = {};
  for (const b of BINDINGS) out[b.mode] = await identityFor(b.mode, b.roles, id);
  return out as Record<Mode, Identity>;
}

/** The cluster-scoped objects made for the identities, to remove afterwards. */
export async function removeIdentities(ids: Record<Mode, Identity>): Promise<void> {
  for (const { user } of Object.values(ids)) {
    const sa = user.split(':').pop()!;
    for (const r of ROLES.filter((x) => !x.boundIn))
      await kubectl(['delete', 'clusterrolebinding', `${sa}-${r.name}`, '--ignore-not-found']);
  }
}

/** What `kubectl auth can-i ARGS --as=user` answers, as admin: `yes` or `no` (its exit status is 1 for no). */
export function canIAs(args: readonly string[], user: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'kubectl',
      ['--kubeconfig', adminKubeconfig(), 'auth', 'can-i', ...args, `--as=${user}`],
      { timeout: 60_000 },
      (error, stdout, stderr) => {
        // `no` may come with the reason after it (`no - RBAC: clusterrole … not found`).
        const answer = /^(yes|no)\b/.exec(stdout.trim())?.[1];
        if (answer) resolve(answer);
        else reject(new Error(`kubectl auth can-i ${args.join(' ')}: ${stderr || error?.message}`));
      },
    );
  });
}
