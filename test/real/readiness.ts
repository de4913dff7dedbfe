/** Readiness probes for each control-plane process, polled until they pass. */
import { type StartedCluster, raw } from '../fake-apiserver/index.js';
import { sleep } from './processes.js';

interface Endpoints {
  etcdUrl: string;
  admin: StartedCluster;
  /** The webhook authorizer's base URL. */
  webhookUrl: string;
}

async function etcdHealthy(etcdUrl: string): Promise<boolean> {
  const res = await fetch(`${etcdUrl}/health`);
  return res.ok && ((await res.json()) as { health?: string }).health === 'true';
}

async function apiServerReady(admin: StartedCluster): Promise<boolean> {
  return (await raw(admin, 'GET', '/readyz')).status === 200;
}

// The namespace controller runs under its own service account; its token Secret exists once the controllers are up.
async function namespaceControllerReady(admin: StartedCluster): Promise<boolean> {
  const r = await raw(admin, 'GET', '/api/v1/namespaces/kube-system/serviceaccounts/namespace-controller');
  return r.status === 200 && (r.json?.secrets?.length ?? 0) > 0;
}

const probes: Record<string, (e: Endpoints) => Promise<boolean>> = {
  etcd: (e) => etcdHealthy(e.etcdUrl),
  'authz-webhook': async (e) => (await fetch(`${e.webhookUrl}/healthz`)).ok,
  'kube-apiserver': (e) => apiServerReady(e.admin),
  'kube-controller-manager': (e) => namespaceControllerReady(e.admin),
};

/** Poll the probe of `name` until it passes; throws after `timeoutMs`. */
export async function waitReady(name: string, e: Endpoints, timeoutMs: number): Promise<void> {
  const probe = probes[name];
  if (!probe) throw new Error(`no readiness probe for ${name}`);
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    try {
      if (await probe(e)) return;
    } catch (error) {
      last = (error as Error).message;
    }
    if (Date.now() > deadline)
      throw new Error(`${name} not ready after ${timeoutMs} ms${last ? `: ${last}` : ''}`);
    await sleep(200);
  }
}
