/**
 * The gizmo operator for real-server tests: its Deployment (made ready by hand, there is no kubelet), the RBAC that
 * ties its ServiceAccount to gizmos as an operator's chart installs it, and `gizmo-operator.mjs` (client-node) run as
 * a child process — killed the moment the namespace it lives in gets a deletionTimestamp, as pods-first deletion on
 * 1.33+ stops its pod.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, apply, get, namespace, plane, raw, sleep, waitFor } from './kit.js';

export const GROUP = 'gizmos.acmeops.io';
export const FINALIZER = 'acmeops.io/cleanup';
export const gizmos = (ns: string): string => `/apis/${GROUP}/v1/namespaces/${ns}/gizmos`;

/** The running operator process and what it did. */
export interface Operator {
  child: ChildProcess;
  cleanups: () => string[];
  /** When the test killed it (the namespace it lives in got its deletionTimestamp). */
  killedAt: () => number | undefined;
}

/**
 * Its ServiceAccount, a ClusterRole on gizmos and gizmos/finalizers (or on `serves`) bound to it (named after the
 * namespace, so tests do not share one), and its Deployment with a pod whose status is written Ready, so the
 * ReplicaSet counts it.
 */
export async function deployOperator(
  ns: string,
  serves: { group: string; resource: string } = { group: GROUP, resource: 'gizmos' },
): Promise<void> {
  const role = `gizmo-operator-${ns}`;
  await apply(
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { namespace: ns, name: 'gizmo-operator' } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      metadata: { name: role },
      rules: [
        {
          apiGroups: [serves.group],
          resources: [serves.resource, `${serves.resource}/finalizers`],
          verbs: ['get', 'list', 'watch', 'update', 'patch'],
        },
      ],
    },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: role },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role },
      subjects: [{ kind: 'ServiceAccount', name: 'gizmo-operator', namespace: ns }],
    },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { namespace: ns, name: 'gizmo-operator' },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'gizmo-operator' } },
        template: {
          metadata: { labels: { app: 'gizmo-operator' } },
          spec: {
            serviceAccountName: 'gizmo-operator',
            containers: [{ name: 'operator', image: 'ghcr.io/acmeops/gizmo-operator:1.0' }],
          },
        },
      },
    },
  );
  const pod = await waitFor(
    async () =>
      ((await get(`/api/v1/namespaces/${ns}/pods`))?.items ?? [])[0]?.metadata?.name as string | undefined,
    30_000,
    200,
  );
  await raw(admin(), 'PATCH', `/api/v1/namespaces/${ns}/pods/${pod}/status`, {
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: { status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } },
  });
  await waitFor(
    async () =>
      ((await get(`/apis/apps/v1/namespaces/${ns}/deployments/gizmo-operator`))?.status?.readyReplicas ??
        0) >= 1 || undefined,
    30_000,
    200,
  );
}

/** Start the operator releasing gizmos in `serves`; it dies when `livesIn` starts Terminating. */
export async function startOperator(serves: string, livesIn = serves): Promise<Operator> {
  const dir = mkdtempSync(join(tmpdir(), 'gizmo-'));
  const record = join(dir, 'cleanups.txt');
  writeFileSync(record, '');
  const args = [join(plane().dir, 'admin.kubeconfig'), serves, GROUP, 'v1', 'gizmos', FINALIZER, record];
  const child = spawn(process.execPath, ['test/real/gizmo-operator.mjs', ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
  let killedAt: number | undefined;
  void (async () => {
    while (child.exitCode === null && killedAt === undefined) {
      const n = await namespace(livesIn);
      if (!n || n.metadata.deletionTimestamp) {
        child.kill('SIGKILL');
        killedAt = Date.now();
      } else await sleep(100);
    }
  })();
  const cleanups = (): string[] => readFileSync(record, 'utf8').split('\n').filter(Boolean).sort();
  return { child, cleanups, killedAt: () => killedAt };
}
