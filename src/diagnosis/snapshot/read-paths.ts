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

export const PATHS = {
  apiServices: '/apis/apiregistration.k8s.io/v1/apiservices',
  service: (ns: string, name: string): string => `/api/v1/namespaces/${seg(ns)}/services/${seg(name)}`,
  endpointSlices: (ns: string, service: string): string =>
    `/apis/discovery.k8s.io/v1/namespaces/${seg(ns)}/endpointslices?labelSelector=${seg(`kubernetes.io/service-name=${service}`)}`,
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
  policyBindings: '/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings',
  policyBinding: (name: string): string =>
    `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicybindings/${seg(name)}`,
  policy: (name: string): string =>
    `/apis/admissionregistration.k8s.io/v1/validatingadmissionpolicies/${seg(name)}`,
} as const;
