/** Shared fixtures for the kube adapter tests: a kubeconfig for https://127.0.0.1:6443 and captured JSON shapes. */
import nock from 'nock';
import { KubeConfig } from '@kubernetes/client-node';
import { createKube, type KubeClientOptions } from '../../src/kube/client.js';

export const SERVER = 'https://127.0.0.1:6443';
export const TOKEN = 'sha256~Xq3ZtokenVALUEthatMustBeMasked0123456789';

export function kubeconfigYaml(server = SERVER, token = TOKEN): string {
  return `apiVersion: v1
kind: Config
clusters:
- name: kind
  cluster:
    server: ${server}
    insecure-skip-tls-verify: true
users:
- name: admin
  user:
    token: ${token}
contexts:
- name: kind-kind
  context:
    cluster: kind
    user: admin
current-context: kind-kind
`;
}

export function testKubeConfig(server = SERVER): KubeConfig {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfigYaml(server));
  return kc;
}

/** A client with fast retries, waits recorded in `waits`. */
export function testKube(opts: KubeClientOptions = {}, server = SERVER) {
  const waits: number[] = [];
  const kube = createKube(testKubeConfig(server), {
    retry: { attempts: 3, baseMs: 5 },
    sleep: async (ms) => {
      waits.push(ms);
      await new Promise((r) => setTimeout(r, Math.min(ms, 20)));
    },
    ...opts,
  });
  return { kube, waits };
}

export const api = (): nock.Scope => nock(SERVER);
export const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** A Namespace as kube-apiserver returns it after the first DELETE (fact sheet §1, §3). */
export function terminatingNamespace(name = 'preview-42', rv = '1234') {
  return {
    kind: 'Namespace',
    apiVersion: 'v1',
    metadata: {
      name,
      uid: '6a1f8c2e-0b7d-4c1e-9d3a-5f2e8b7c9a10',
      resourceVersion: rv,
      creationTimestamp: '2026-11-02T10:00:00Z',
      deletionTimestamp: '2026-11-02T10:05:00Z',
      labels: { 'kubernetes.io/metadata.name': name, preview: 'true' },
      finalizers: ['example.com/hold'],
    },
    spec: { finalizers: ['kubernetes'] },
    status: {
      phase: 'Terminating',
      conditions: [
        {
          type: 'NamespaceDeletionDiscoveryFailure',
          status: 'True',
          lastTransitionTime: '2026-11-02T10:05:06Z',
          reason: 'DiscoveryFailed',
          message:
            'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: stale GroupVersion discovery: metrics.k8s.io/v1beta1',
        },
      ],
    },
  };
}

export function status(code: number, reason: string, message: string, details: object = {}) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    details,
    code,
  };
}
