/** API paths of the cluster reads the snapshot makes, and the names under which their errors are recorded. */

/** Prefixes of `readErrors[].what`, so rules can tell which part of the snapshot is incomplete. */
export const READ_AREA = {
  discovery: 'discovery',
  scan: 'list',
  apiServices: 'apiservices',
  webhooks: 'webhooks',
  pods: 'pods',
  nodes: 'nodes',
  crds: 'crds',
  workloads: 'workloads',
  rbac: 'rbac',
  access: 'access review',
  leases: 'leases',
  conversions: 'conversion',
  controlPlane: 'control plane',
  gitops: 'gitops owners',
  policies: 'admission policy',
} as const;

const seg = encodeURIComponent;

/**
 * Paths of the reads. A fixed version is the one every server this project supports (Kubernetes 1.20 and later)
 * serves, and the current one: apiregistration.k8s.io/v1, admissionregistration.k8s.io/v1 webhooks,
 * apiextensions.k8s.io/v1, apps/v1, rbac.authorization.k8s.io/v1, coordination.k8s.io/v1 and core v1. Where the
 * version differs across them, the path takes the version discovery serves.
 */
export const PATHS = {
  apiServices: '/apis/apiregistration.k8s.io/v1/apiservices',
  service: (ns: string, name: string): string => `/api/v1/namespaces/${seg(ns)}/services/${seg(name)}`,
  /** At the version discovery serves (`served.ts`): v1 from 1.21, v1beta1 on 1.20. */
  endpointSlices: (version: string, ns: string, service: string): string =>
    `/apis/discovery.k8s.io/${seg(version)}/namespaces/${seg(ns)}/endpointslices?labelSelector=${seg(`kubernetes.io/service-name=${service}`)}`,
  /** The legacy Endpoints of a Service, where discovery serves no EndpointSlices. */
  endpoints: (ns: string, name: string): string => `/api/v1/namespaces/${seg(ns)}/endpoints/${seg(name)}`,
  webhookConfigs: {
    ValidatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations',
    MutatingWebhookConfiguration: '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations',
  },
  pods: (ns: string): string => `/api/v1/namespaces/${seg(ns)}/pods`,
  node: (name: string): string => `/api/v1/nodes/${seg(name)}`,
  crd: (name: string): string => `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${seg(name)}`,
  crds: { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' },
  workloads: {
    Deployment: '/apis/apps/v1/deployments',
    StatefulSet: '/apis/apps/v1/statefulsets',
    DaemonSet: '/apis/apps/v1/daemonsets',
  },
  clusterRoles: '/apis/rbac.authorization.k8s.io/v1/clusterroles',
  clusterRoleBindings: '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
  roleBindings: (ns: string): string =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${seg(ns)}/rolebindings`,
  role: (ns: string, name: string): string =>
    `/apis/rbac.authorization.k8s.io/v1/namespaces/${seg(ns)}/roles/${seg(name)}`,
  leases: '/apis/coordination.k8s.io/v1/leases',
  kubeSystemLeases: '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases',
  componentPods: `/api/v1/namespaces/kube-system/pods?labelSelector=${seg('component in (kube-controller-manager,cloud-controller-manager)')}`,
  /** At the version discovery serves (`served.ts`): v1 from 1.30, v1beta1 on 1.28–1.29. */
  policyBindings: (version: string): string =>
    `/apis/admissionregistration.k8s.io/${seg(version)}/validatingadmissionpolicybindings`,
  policyBinding: (version: string, name: string): string =>
    `/apis/admissionregistration.k8s.io/${seg(version)}/validatingadmissionpolicybindings/${seg(name)}`,
  policy: (version: string, name: string): string =>
    `/apis/admissionregistration.k8s.io/${seg(version)}/validatingadmissionpolicies/${seg(name)}`,
} as const;
