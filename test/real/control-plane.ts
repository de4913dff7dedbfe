/**
 * A real control plane for tests (etcd, kube-apiserver, kube-controller-manager) on free loopback ports, with
 * certificates and tokens in a temp dir. Everything a test needs is in a JSON state file, so the process that
 * started it, the test files and the teardown all find the same processes; only those PIDs are ever signalled.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { StartedCluster } from '../fake-apiserver/index.js';
import { generatePki } from './pki.js';
import { freePort, startProcess, stopProcess, tail, type ProcessSpec } from './processes.js';
import { waitReady } from './readiness.js';

/** The env var naming the directory with `etcd`, `kube-apiserver` and `kube-controller-manager`. */
export const ASSETS_ENV = 'KUBE_ASSETS';
/** The env var naming the state file of the running control plane. */
export const STATE_ENV = 'REALKUBE_STATE';

/** Everything about a running control plane, as stored in its state file. */
export interface ControlPlaneState {
  dir: string;
  url: string;
  /** `system:masters`: may do anything. */
  admin: StartedCluster;
  /** Authenticated user `restricted` with no RBAC binding at all. */
  restricted: StartedCluster;
  processes: { spec: ProcessSpec; pid: number }[];
}

/** The assets directory: `KUBE_ASSETS`, else what `../shared/realkube/install.sh` prints; undefined when neither. */
export function findAssets(root = process.cwd()): string | undefined {
  const fromEnv = process.env[ASSETS_ENV];
  if (fromEnv) return fromEnv;
  const installer = resolve(root, '../shared/realkube/install.sh');
  if (!existsSync(installer)) return undefined;
  try {
    return execFileSync(installer, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    return undefined;
  }
}

/**
 * The one grant this control plane makes outside RBAC, as a managed cluster's webhook authorizer does: the
 * ServiceAccounts of namespace `authz-outside` may do anything to `gizmos.outside.acmeops.io`
 * (`authz-webhook.mjs`, consulted after RBAC). A test that needs it creates that namespace itself; no RBAC object
 * names it.
 */
export const OUTSIDE_RBAC = {
  namespace: 'authz-outside',
  group: 'outside.acmeops.io',
  resource: 'gizmos',
} as const;

/** The kubeconfig kube-apiserver reads to call the webhook authorizer. */
function webhookKubeconfig(url: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'authz', cluster: { server: url } }],
    users: [{ name: 'apiserver', user: {} }],
    contexts: [{ name: 'authz', context: { cluster: 'authz', user: 'apiserver' } }],
    'current-context': 'authz',
  });
}

/** A kubeconfig (JSON is valid YAML) for one bearer token. */
export function kubeconfigFor(url: string, caData: string, user: string, token: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'realkube', cluster: { server: url, 'certificate-authority-data': caData } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: 'realkube', context: { cluster: 'realkube', user } }],
    'current-context': 'realkube',
  });
}

const identity = (url: string, caData: string, user: string): StartedCluster => {
  const token = randomBytes(24).toString('hex');
  return { url, token, caData, kubeconfig: kubeconfigFor(url, caData, user, token) };
};

/** Start etcd, kube-apiserver and (unless told not to) kube-controller-manager; wait until each is ready. */
export async function startControlPlane(
  assets: string,
  o: { controllerManager?: boolean } = {},
): Promise<ControlPlaneState> {
  for (const bin of ['etcd', 'kube-apiserver', 'kube-controller-manager'])
    if (!existsSync(join(assets, bin))) throw new Error(`${ASSETS_ENV}=${assets} has no ${bin}`);
  const dir = mkdtempSync(join(tmpdir(), 'realkube-'));
  const pki = generatePki(dir);
  const [etcdPort, peerPort, apiPort, kcmPort, authzPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const url = `https://127.0.0.1:${apiPort}`;
  const caData = readFileSync(pki.caCert).toString('base64');
  const admin = identity(url, caData, 'admin');
  const restricted = identity(url, caData, 'restricted');
  writeFileSync(
    join(dir, 'tokens.csv'),
    `${admin.token},admin,admin,"system:masters"\n${restricted.token},restricted,restricted\n`,
  );
  writeFileSync(join(dir, 'admin.kubeconfig'), admin.kubeconfig);
  const webhookUrl = `http://127.0.0.1:${authzPort}`;
  writeFileSync(join(dir, 'authz-webhook.kubeconfig'), webhookKubeconfig(`${webhookUrl}/authorize`));
  const etcdUrl = `http://127.0.0.1:${etcdPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  mkdirSync(join(dir, 'etcd'));
  const specs: ProcessSpec[] = [
    {
      name: 'etcd',
      command: join(assets, 'etcd'),
      args: [
        `--data-dir=${join(dir, 'etcd')}`,
        '--name=realkube',
        `--listen-client-urls=${etcdUrl}`,
        `--advertise-client-urls=${etcdUrl}`,
        `--listen-peer-urls=${peerUrl}`,
        `--initial-advertise-peer-urls=${peerUrl}`,
        `--initial-cluster=realkube=${peerUrl}`,
      ],
      log: join(dir, 'etcd.log'),
    },
    {
      name: 'authz-webhook',
      command: process.execPath,
      args: [
        resolve('test/real/authz-webhook.mjs'),
        String(authzPort),
        OUTSIDE_RBAC.namespace,
        OUTSIDE_RBAC.group,
        OUTSIDE_RBAC.resource,
      ],
      log: join(dir, 'authz-webhook.log'),
    },
    {
      name: 'kube-apiserver',
      command: join(assets, 'kube-apiserver'),
      args: [
        '--bind-address=127.0.0.1',
        `--secure-port=${apiPort}`,
        '--insecure-port=0',
        // Must not be loopback; nothing connects to it (TEST-NET-1).
        '--advertise-address=192.0.2.1',
        `--etcd-servers=${etcdUrl}`,
        `--tls-cert-file=${pki.serverCert}`,
        `--tls-private-key-file=${pki.serverKey}`,
        `--client-ca-file=${pki.caCert}`,
        `--token-auth-file=${join(dir, 'tokens.csv')}`,
        // The webhook after RBAC: rights no RBAC object shows (OUTSIDE_RBAC), as managed clusters grant them.
        '--authorization-mode=Node,RBAC,Webhook',
        `--authorization-webhook-config-file=${join(dir, 'authz-webhook.kubeconfig')}`,
        '--authorization-webhook-cache-authorized-ttl=1s',
        '--authorization-webhook-cache-unauthorized-ttl=1s',
        '--service-account-issuer=https://kubernetes.default.svc',
        '--api-audiences=https://kubernetes.default.svc',
        `--service-account-key-file=${pki.saPub}`,
        `--service-account-signing-key-file=${pki.saKey}`,
        '--service-cluster-ip-range=10.0.0.0/24',
        `--requestheader-client-ca-file=${pki.frontProxyCaCert}`,
        '--requestheader-allowed-names=front-proxy-client',
        '--requestheader-username-headers=X-Remote-User',
        '--requestheader-group-headers=X-Remote-Group',
        '--requestheader-extra-headers-prefix=X-Remote-Extra-',
        `--proxy-client-cert-file=${pki.proxyClientCert}`,
        `--proxy-client-key-file=${pki.proxyClientKey}`,
        '--profiling=false',
      ],
      log: join(dir, 'kube-apiserver.log'),
    },
    {
      name: 'kube-controller-manager',
      command: join(assets, 'kube-controller-manager'),
      args: [
        `--kubeconfig=${join(dir, 'admin.kubeconfig')}`,
        `--authentication-kubeconfig=${join(dir, 'admin.kubeconfig')}`,
        `--authorization-kubeconfig=${join(dir, 'admin.kubeconfig')}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${kcmPort}`,
        '--port=0',
        '--controllers=*',
        '--use-service-account-credentials=true',
        `--service-account-private-key-file=${pki.saKey}`,
        `--root-ca-file=${pki.caCert}`,
        `--cluster-signing-cert-file=${pki.caCert}`,
        `--cluster-signing-key-file=${pki.caKey}`,
        '--service-cluster-ip-range=10.0.0.0/24',
        // As every real control plane: the namespace controller's liveness is read from this Lease. A Lease long
        // enough to outlast restartApiServer(): kube-controller-manager exits when it cannot renew in time.
        '--leader-elect=true',
        '--leader-elect-lease-duration=60s',
        '--leader-elect-renew-deadline=50s',
        '--leader-elect-retry-period=2s',
        '--profiling=false',
      ],
      log: join(dir, 'kube-controller-manager.log'),
    },
  ];
  const state: ControlPlaneState = { dir, url, admin, restricted, processes: [] };
  try {
    for (const spec of o.controllerManager === false
      ? specs.filter((x) => x.name !== 'kube-controller-manager')
      : specs) {
      state.processes.push({ spec, pid: startProcess(spec) });
      saveState(state);
      await waitReady(spec.name, { etcdUrl, admin, webhookUrl }, 60_000);
    }
  } catch (error) {
    const logs = state.processes.map((p) => `--- ${p.spec.name}\n${tail(p.spec.log)}`).join('\n');
    await stopControlPlane(state, { keepDir: true });
    throw new Error(`${(error as Error).message}\n(logs in ${dir})\n${logs}`, { cause: error });
  }
  return state;
}

/** Write the state file (inside the control plane's dir) and return its path. */
export function saveState(state: ControlPlaneState): string {
  const file = join(state.dir, 'state.json');
  writeFileSync(file, JSON.stringify(state, null, 2), { mode: 0o600 });
  return file;
}

/** Read the state file named by `REALKUBE_STATE`. */
export function loadState(file = process.env[STATE_ENV]): ControlPlaneState {
  if (!file || !existsSync(file)) throw new Error(`${STATE_ENV} does not name a control plane's state file`);
  return JSON.parse(readFileSync(file, 'utf8')) as ControlPlaneState;
}

/** Stop the processes recorded in the state (controller-manager first, etcd last) and remove the temp dir. */
export async function stopControlPlane(
  state: ControlPlaneState,
  o: { keepDir?: boolean } = {},
): Promise<void> {
  for (const p of [...state.processes].reverse()) await stopProcess(p.pid, p.spec.command);
  if (!o.keepDir) rmSync(state.dir, { recursive: true, force: true });
}

/** Stop kube-apiserver and start it again with the same flags (same port, same etcd); waits for /readyz. */
export async function restartApiServer(file = process.env[STATE_ENV]): Promise<void> {
  const state = loadState(file);
  const p = state.processes.find((x) => x.spec.name === 'kube-apiserver');
  if (!p) throw new Error('no kube-apiserver in this control plane');
  await stopProcess(p.pid, p.spec.command);
  p.pid = startProcess(p.spec);
  saveState(state);
  await waitReady('kube-apiserver', { etcdUrl: '', admin: state.admin, webhookUrl: '' }, 60_000);
}
