/** What a real-server test needs: the shared control plane's identities, kubectl, object builders and end-state reads. */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type StartedCluster, raw, waitFor, type Loose } from '../fake-apiserver/index.js';
import { runBundle, type BundleRun } from '../helpers/harness.js';
import { loadState, type ControlPlaneState } from './control-plane.js';

export { raw, waitFor, watch, sleep, type Loose } from '../fake-apiserver/index.js';
export { restartApiServer } from './control-plane.js';

let cached: ControlPlaneState | undefined;

/** The shared control plane of this run (see jest.real.config.js). */
export function plane(): ControlPlaneState {
  cached ??= loadState();
  return cached;
}

/** The `system:masters` identity: for setting up objects and reading the end state. */
export const admin = (): StartedCluster => plane().admin;

/** An authenticated user without any RBAC binding (bind roles to user `restricted` to grant some). */
export const restricted = (): StartedCluster => plane().restricted;

/** A DNS-1123 name unique to this run, e.g. `clean-3f9a1c`. */
export const uniqueName = (prefix: string): string => `${prefix}-${randomBytes(3).toString('hex')}`;

function kubeconfigFile(id: StartedCluster): string {
  const file = join(plane().dir, `kubeconfig-${randomBytes(4).toString('hex')}`);
  writeFileSync(file, id.kubeconfig, { mode: 0o600 });
  return file;
}

/** Run the real kubectl as admin (or `as`); resolves stdout, rejects with stderr. */
export function kubectl(args: string[], o: { input?: string; as?: StartedCluster } = {}): Promise<string> {
  const kubeconfig = o.as ? kubeconfigFile(o.as) : join(plane().dir, 'admin.kubeconfig');
  return new Promise((resolve, reject) => {
    const child = execFile(
      'kubectl',
      ['--kubeconfig', kubeconfig, ...args],
      { timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout),
    );
    child.stdin?.end(o.input ?? '');
  });
}

/** Create or update objects (`kubectl apply`, server-side validation, as a user would). */
export async function apply(...objects: Loose[]): Promise<void> {
  await kubectl(['apply', '-f', '-'], {
    input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
  });
}

/** Create a namespace with optional labels. */
export const createNamespace = (name: string, labels: Record<string, string> = {}): Promise<void> =>
  apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } });

/** GET any API path as admin: the JSON, or undefined on 404. */
export async function get(path: string): Promise<Loose> {
  const r = await raw(admin(), 'GET', path);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw new Error(`GET ${path}: ${r.status} ${r.text}`);
  return r.json;
}

/** The namespace as the API server has it now (undefined when gone). */
export const namespace = (name: string): Promise<Loose> => get(`/api/v1/namespaces/${name}`);

/** The namespace's condition of `type` (undefined when absent). */
export const condition = (ns: Loose, type: string): Loose =>
  (ns?.status?.conditions ?? []).find((c: Loose) => c.type === type);

/** Wait until the namespace is gone (the controller resyncs every few seconds after the last finalizer). */
export const waitGone = (name: string, timeoutMs = 30_000): Promise<boolean> =>
  waitFor(async () => (await namespace(name)) === undefined, timeoutMs, 250);

/** Wait until the namespace controller has written a condition of `type` with status True. */
export const waitCondition = (name: string, type: string, timeoutMs = 30_000): Promise<Loose> =>
  waitFor(
    async () => {
      const c = condition(await namespace(name), type);
      return c?.status === 'True' ? c : undefined;
    },
    timeoutMs,
    250,
  );

/** Remove every finalizer from one object (JSON merge patch, as admin) — how a test unblocks a namespace. */
export const clearFinalizers = (path: string): Promise<Loose> =>
  raw(admin(), 'PATCH', path, {
    headers: { 'Content-Type': 'application/merge-patch+json' },
    body: { metadata: { finalizers: null } },
  });

/** Run `node dist/index.js` the way the runner does, as admin unless `inputs.kubeconfig` says otherwise. */
export const runAction = (inputs: Record<string, string>, timeoutMs = 110_000): Promise<BundleRun> =>
  runBundle({ kubeconfig: admin().kubeconfig, ...inputs }, {}, { timeoutMs });

/** A CustomResourceDefinition (namespaced, one served version, any fields allowed); waits until it is established. */
export async function createCRD(group: string, kind: string, plural: string, version = 'v1'): Promise<void> {
  await apply({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind, plural, singular: kind.toLowerCase(), listKind: `${kind}List` },
      versions: [
        {
          name: version,
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
        },
      ],
    },
  });
  await kubectl(['wait', '--for=condition=Established', '--timeout=30s', `crd/${plural}.${group}`]);
}
