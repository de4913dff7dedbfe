/** Resource types the fake serves: built-ins, CRDs (read from stored CRD objects) and aggregated APIs. */
import { asRecord } from './meta.js';
import type { Store } from './store.js';
import type { KObj } from './types.js';

export interface Subresource {
  name: string;
  verbs: string[];
}

export interface ResourceType {
  group: string;
  version: string;
  resource: string;
  kind: string;
  singular: string;
  namespaced: boolean;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources: Subresource[];
  source: 'builtin' | 'crd' | 'aggregated';
  /** DELETE returns the object (ReturnDeletedObject) instead of a Status. */
  returnsObject: boolean;
  /** metadata.generation is maintained. */
  generation: boolean;
  /** The main resource ignores status changes (a status subresource exists). */
  statusSubresource: boolean;
}

/** `resource.group` key used by the store. */
export const grOf = (t: { resource: string; group: string }): string =>
  t.group ? `${t.resource}.${t.group}` : t.resource;

export const apiVersionOf = (t: { group: string; version: string }): string =>
  t.group ? `${t.group}/${t.version}` : t.version;

const NS_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const CLUSTER_VERBS = NS_VERBS;
/** CRD verbs are listed in this (unsorted) order by the apiextensions server. */
export const CRD_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];
const STATUS = { name: 'status', verbs: ['get', 'patch', 'update'] };

function builtin(
  group: string,
  resource: string,
  kind: string,
  namespaced: boolean,
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group,
    version: 'v1',
    resource,
    kind,
    singular: kind.toLowerCase(),
    namespaced,
    verbs: namespaced ? NS_VERBS : CLUSTER_VERBS,
    subresources: [],
    source: 'builtin',
    returnsObject: false,
    generation: false,
    statusSubresource: false,
    ...extra,
  };
}

/** The built-in types, in discovery order. */
export const BUILTINS: ResourceType[] = [
  builtin('', 'configmaps', 'ConfigMap', true, { shortNames: ['cm'] }),
  builtin('', 'endpoints', 'Endpoints', true, { shortNames: ['ep'] }),
  builtin('', 'namespaces', 'Namespace', false, {
    verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['ns'],
    subresources: [{ name: 'finalize', verbs: ['update'] }, STATUS],
    returnsObject: true,
    statusSubresource: true,
  }),
  builtin('', 'nodes', 'Node', false, {
    shortNames: ['no'],
    subresources: [STATUS],
    statusSubresource: true,
  }),
  builtin('', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, {
    shortNames: ['pvc'],
    subresources: [STATUS],
    returnsObject: true,
    statusSubresource: true,
  }),
  builtin('', 'pods', 'Pod', true, {
    shortNames: ['po'],
    categories: ['all'],
    subresources: [STATUS],
    returnsObject: true,
    statusSubresource: true,
  }),
  builtin('', 'secrets', 'Secret', true),
  builtin('', 'serviceaccounts', 'ServiceAccount', true, { shortNames: ['sa'], returnsObject: true }),
  builtin('', 'services', 'Service', true, {
    shortNames: ['svc'],
    categories: ['all'],
    subresources: [STATUS],
    returnsObject: true,
    statusSubresource: true,
  }),
  builtin(
    'admissionregistration.k8s.io',
    'mutatingwebhookconfigurations',
    'MutatingWebhookConfiguration',
    false,
  ),
  builtin(
    'admissionregistration.k8s.io',
    'validatingwebhookconfigurations',
    'ValidatingWebhookConfiguration',
    false,
  ),
  builtin('admissionregistration.k8s.io', 'validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false, {
    subresources: [STATUS],
    generation: true,
    statusSubresource: true,
  }),
  builtin(
    'admissionregistration.k8s.io',
    'validatingadmissionpolicybindings',
    'ValidatingAdmissionPolicyBinding',
    false,
  ),
  builtin('apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition', false, {
    shortNames: ['crd', 'crds'],
    categories: ['api-extensions'],
    subresources: [STATUS],
    generation: true,
    statusSubresource: true,
  }),
  builtin('apiregistration.k8s.io', 'apiservices', 'APIService', false, {
    categories: ['api-extensions'],
    subresources: [STATUS],
    statusSubresource: true,
  }),
  builtin('apps', 'deployments', 'Deployment', true, {
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: [STATUS, { name: 'scale', verbs: ['get', 'patch', 'update'] }],
    generation: true,
    statusSubresource: true,
  }),
  builtin('apps', 'statefulsets', 'StatefulSet', true, {
    shortNames: ['sts'],
    categories: ['all'],
    subresources: [STATUS, { name: 'scale', verbs: ['get', 'patch', 'update'] }],
    generation: true,
    statusSubresource: true,
  }),
  builtin('apps', 'daemonsets', 'DaemonSet', true, {
    shortNames: ['ds'],
    categories: ['all'],
    subresources: [STATUS],
    generation: true,
    statusSubresource: true,
  }),
  builtin('coordination.k8s.io', 'leases', 'Lease', true),
  builtin('discovery.k8s.io', 'endpointslices', 'EndpointSlice', true),
  builtin('rbac.authorization.k8s.io', 'clusterrolebindings', 'ClusterRoleBinding', false),
  builtin('rbac.authorization.k8s.io', 'clusterroles', 'ClusterRole', false),
  builtin('rbac.authorization.k8s.io', 'rolebindings', 'RoleBinding', true),
  builtin('rbac.authorization.k8s.io', 'roles', 'Role', true),
];

/** Groups served by kube-apiserver itself (Local APIServices), with their one version. */
export const BUILTIN_GROUPS = [...new Set(BUILTINS.map((t) => t.group))];

/** Resources an available aggregated API is known to serve (metrics-server). */
const AGGREGATED: Record<string, Omit<ResourceType, 'group' | 'version'>[]> = {
  'metrics.k8s.io': [
    { resource: 'nodes', kind: 'NodeMetrics', singular: '', namespaced: false },
    { resource: 'pods', kind: 'PodMetrics', singular: '', namespaced: true },
  ].map((r) => ({
    ...r,
    verbs: ['get', 'list'],
    subresources: [],
    source: 'aggregated' as const,
    returnsObject: false,
    generation: false,
    statusSubresource: false,
  })),
};

export const CRD_GR = 'customresourcedefinitions.apiextensions.k8s.io';
export const APISERVICE_GR = 'apiservices.apiregistration.k8s.io';

function crdTypes(crd: KObj): ResourceType[] {
  const spec = asRecord(crd.spec);
  const names = asRecord(spec.names);
  const versions = Array.isArray(spec.versions) ? spec.versions.map(asRecord) : [];
  return versions
    .filter((v) => v.served !== false)
    .map((v) => ({
      group: String(spec.group ?? ''),
      version: String(v.name ?? ''),
      resource: String(names.plural ?? ''),
      kind: String(names.kind ?? ''),
      singular: String(names.singular ?? String(names.kind ?? '').toLowerCase()),
      namespaced: spec.scope !== 'Cluster',
      verbs: CRD_VERBS,
      shortNames: Array.isArray(names.shortNames) ? names.shortNames.map(String) : undefined,
      categories: Array.isArray(names.categories) ? names.categories.map(String) : undefined,
      subresources: asRecord(v.subresources).status ? [STATUS] : [],
      source: 'crd' as const,
      returnsObject: false,
      generation: true,
      statusSubresource: Boolean(asRecord(v.subresources).status),
    }));
}

/** Looks types up; CRD-backed types follow the stored CRD objects. */
export class Registry {
  constructor(private readonly store: Store) {}

  crdTypes(): ResourceType[] {
    return this.store.list(CRD_GR).flatMap(crdTypes);
  }

  /** Resources an aggregated group-version serves when it is available. */
  aggregatedTypes(group: string, version: string): ResourceType[] {
    return (AGGREGATED[group] ?? []).map((t) => ({ ...t, group, version }));
  }

  /** Types stored by the fake (built-ins and CRDs). */
  all(): ResourceType[] {
    return [...BUILTINS, ...this.crdTypes()];
  }

  find(group: string, version: string, resource: string): ResourceType | undefined {
    return this.all().find((t) => t.group === group && t.version === version && t.resource === resource);
  }

  /** By group and plural, any version (builders address types by GVR). */
  byGroupResource(group: string, resource: string): ResourceType | undefined {
    return this.all().find((t) => t.group === group && t.resource === resource);
  }

  /** By the store key (`resource.group`). */
  byGr(gr: string): ResourceType | undefined {
    return this.all().find((t) => grOf(t) === gr);
  }
}
