/** Object factories for the builder methods: realistic bodies of pods, nodes, services, webhooks, CRDs. */
import { clusterIpFor } from './admission.js';
import { isoSeconds, randomSuffix } from './meta.js';
import type { JsonMap } from './types.js';

export interface PodOptions {
  nodeName?: string;
  claims?: string[];
  graceSeconds?: number;
  phase?: string;
  finalizers?: string[];
}

export function podBody(ns: string, name: string, o: PodOptions = {}): JsonMap {
  const claims = o.claims ?? [];
  const spec: JsonMap = {
    containers: [{ name: 'app', image: 'registry.k8s.io/pause:3.10' }],
    terminationGracePeriodSeconds: o.graceSeconds ?? 30,
  };
  if (o.nodeName) spec.nodeName = o.nodeName;
  if (claims.length) spec.volumes = claims.map((c) => ({ name: c, persistentVolumeClaim: { claimName: c } }));
  return {
    kind: 'Pod',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels: { app: name }, finalizers: o.finalizers },
    spec,
    status: { phase: o.phase ?? (o.nodeName ? 'Running' : 'Pending') },
  };
}

export function nodeBody(name: string, ready: boolean, since?: Date): JsonMap {
  const now = isoSeconds();
  const changed = since ? isoSeconds(since.getTime()) : now;
  const cond = ready
    ? { status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
    : { status: 'Unknown', reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' };
  return {
    kind: 'Node',
    apiVersion: 'v1',
    metadata: { name, labels: { 'kubernetes.io/hostname': name } },
    spec: ready
      ? {}
      : { taints: [{ key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: changed }] },
    status: {
      conditions: [
        { type: 'Ready', ...cond, lastHeartbeatTime: ready ? now : changed, lastTransitionTime: changed },
      ],
      nodeInfo: { kubeletVersion: 'v1.34.1' },
    },
  };
}

export function deploymentBody(
  ns: string,
  name: string,
  o: { readyReplicas?: number; image?: string; serviceAccount?: string },
): JsonMap {
  const ready = o.readyReplicas ?? 1;
  const replicas = Math.max(1, ready);
  return {
    kind: 'Deployment',
    apiVersion: 'apps/v1',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name, image: o.image ?? `example.com/${name}:latest` }],
          ...(o.serviceAccount ? { serviceAccountName: o.serviceAccount } : {}),
        },
      },
    },
    status: { replicas, readyReplicas: ready, availableReplicas: ready, updatedReplicas: replicas },
  };
}

const PORT = { name: 'https', port: 443, protocol: 'TCP' };

export function serviceBody(ns: string, name: string): JsonMap {
  const ip = clusterIpFor(ns, name);
  return {
    kind: 'Service',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels: { app: name } },
    spec: {
      type: 'ClusterIP',
      clusterIP: ip,
      clusterIPs: [ip],
      ports: [{ ...PORT, targetPort: 443 }],
      selector: { app: name },
    },
    status: { loadBalancer: {} },
  };
}

const addresses = (n: number): string[] => Array.from({ length: n }, (_, i) => `10.244.0.${i + 10}`);

export function endpointSliceBody(ns: string, name: string, ready: number): JsonMap {
  return {
    kind: 'EndpointSlice',
    apiVersion: 'discovery.k8s.io/v1',
    metadata: {
      name: `${name}-${randomSuffix()}`,
      namespace: ns,
      labels: {
        'kubernetes.io/service-name': name,
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    },
    addressType: 'IPv4',
    endpoints: addresses(ready).map((ip) => ({
      addresses: [ip],
      conditions: { ready: true, serving: true, terminating: false },
    })),
    ports: [PORT],
  };
}

export function endpointsBody(ns: string, name: string, ready: number): JsonMap {
  const body: JsonMap = {
    kind: 'Endpoints',
    apiVersion: 'v1',
    metadata: { name, namespace: ns, labels: { app: name } },
  };
  if (ready > 0) body.subsets = [{ addresses: addresses(ready).map((ip) => ({ ip })), ports: [PORT] }];
  return body;
}

export interface WebhookOptions {
  kind: 'Validating' | 'Mutating';
  name: string;
  failurePolicy: 'Fail' | 'Ignore';
  resources: string[];
  operations: string[];
  service?: { namespace: string; name: string };
  /** Served at this URL instead of a Service (`clientConfig.url`). */
  url?: string;
  down: boolean;
  /** The rule's API groups (default every group). */
  apiGroups?: string[];
  namespaceSelector?: Record<string, unknown>;
  objectSelector?: Record<string, unknown>;
}

/** The webhook's Service reference; defaults to `<first label>-webhook` in `webhook-system`. */
export function webhookService(o: WebhookOptions): { namespace: string; name: string } {
  return o.service ?? { namespace: 'webhook-system', name: `${o.name.split('.')[0] ?? 'admission'}-webhook` };
}

export function webhookConfigBody(o: WebhookOptions): JsonMap {
  const svc = webhookService(o);
  return {
    kind: `${o.kind}WebhookConfiguration`,
    apiVersion: 'admissionregistration.k8s.io/v1',
    metadata: { name: o.name },
    webhooks: [
      {
        name: o.name,
        clientConfig: o.url
          ? { url: o.url }
          : { service: { namespace: svc.namespace, name: svc.name, path: '/', port: 443 } },
        rules: [
          {
            operations: o.operations,
            apiGroups: o.apiGroups ?? ['*'],
            apiVersions: ['*'],
            resources: o.resources,
            scope: '*',
          },
        ],
        failurePolicy: o.failurePolicy,
        matchPolicy: 'Equivalent',
        namespaceSelector: o.namespaceSelector ?? {},
        objectSelector: o.objectSelector ?? {},
        sideEffects: 'None',
        timeoutSeconds: 10,
        admissionReviewVersions: ['v1'],
        ...(o.kind === 'Mutating' ? { reinvocationPolicy: 'Never' } : {}),
      },
    ],
  };
}

export interface CrdOptions {
  group: string;
  /** The one version, unless `versions` lists several. */
  version: string;
  kind: string;
  plural: string;
  namespaced?: boolean;
  /** Several versions, in the CRD's order; `storage` marks the storage version (default: `version`). */
  versions?: { name: string; served?: boolean; storage?: boolean }[];
  /** A conversion webhook behind this Service (strategy Webhook); default strategy None. */
  conversion?: { service: { namespace: string; name: string; path?: string; port?: number } };
  /** `status.storedVersions` (default: the storage version). */
  storedVersions?: string[];
}

export function crdBody(o: CrdOptions): JsonMap {
  return {
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: { name: `${o.plural}.${o.group}` },
    spec: {
      group: o.group,
      names: { plural: o.plural, singular: o.kind.toLowerCase(), kind: o.kind, listKind: `${o.kind}List` },
      scope: o.namespaced === false ? 'Cluster' : 'Namespaced',
      versions: (o.versions ?? [{ name: o.version, storage: true }]).map((v) => ({
        name: v.name,
        served: v.served ?? true,
        storage: v.storage ?? false,
        schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      })),
      conversion: o.conversion
        ? {
            strategy: 'Webhook',
            webhook: {
              conversionReviewVersions: ['v1'],
              clientConfig: { service: { port: 443, ...o.conversion.service } },
            },
          }
        : { strategy: 'None' },
    },
    status: {
      acceptedNames: {
        plural: o.plural,
        singular: o.kind.toLowerCase(),
        kind: o.kind,
        listKind: `${o.kind}List`,
      },
      storedVersions: o.storedVersions ?? [o.versions?.find((v) => v.storage)?.name ?? o.version],
      conditions: [
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
          lastTransitionTime: isoSeconds(),
        },
      ],
    },
  };
}

/** Who an RBAC grant is for, on what type, and where (a namespace: a Role and RoleBinding there; none: cluster-wide). */
export interface GrantOptions {
  group: string;
  resource: string;
  serviceAccount: { namespace: string; name: string };
  /** A Role and RoleBinding in this namespace instead of a ClusterRole and ClusterRoleBinding. */
  namespace?: string;
  /** Name of the role and its binding. Default `<account>-manager`. */
  name?: string;
}

/** The role (update on the type and its finalizers, as an operator's) and the binding that gives it to the account. */
export function grantBodies(o: GrantOptions): { role: JsonMap; binding: JsonMap } {
  const name = o.name ?? `${o.serviceAccount.name}-manager`;
  const kind = o.namespace ? 'Role' : 'ClusterRole';
  const meta = { name, ...(o.namespace ? { namespace: o.namespace } : {}) };
  return {
    role: {
      kind,
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: meta,
      rules: [
        {
          apiGroups: [o.group],
          resources: [o.resource, `${o.resource}/finalizers`, `${o.resource}/status`],
          verbs: ['get', 'list', 'watch', 'update', 'patch'],
        },
      ],
    },
    binding: {
      kind: `${kind}Binding`,
      apiVersion: 'rbac.authorization.k8s.io/v1',
      metadata: meta,
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind, name },
      subjects: [{ kind: 'ServiceAccount', ...o.serviceAccount }],
    },
  };
}
