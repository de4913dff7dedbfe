/** The diagnose role: every read of the diagnosis and the pre-mortem, with the step that makes it; no Secrets. */
import { NAMESPACE_READS, type Role, type Rule } from './rule.js';

/** A `list` for the scan of one API group's types. */
const scan = (group: string, resources: string[]): Rule => ({
  apiGroups: [group],
  resources,
  verbs: ['list'],
  why: 'The scan: a metadata-only list of each of these types a namespace holds.',
});

/** A `list` of GitOps owners in all namespaces. */
const gitops = (group: string, resources: string[]): Rule => ({
  apiGroups: [group],
  resources,
  verbs: ['list'],
  why: 'GitOps owners that would apply a target again: the will-recreate verdict, `gitops-owners`.',
});

/** The reads of the diagnosis, the pre-mortem and the checks after the run (`namespace-teardown-diagnose`). */
export const DIAGNOSE_ROLE: Role = {
  name: 'namespace-teardown-diagnose',
  mode: 'diagnose',
  serves: 'read what the diagnosis and the pre-mortem need (alone: `scope: all-terminating`); no Secrets',
  rules: [
    { ...NAMESPACE_READS, why: 'The same reads of the targets, for a run that deletes nothing.' },
    {
      apiGroups: [''],
      resources: [
        'configmaps',
        'endpoints',
        'events',
        'limitranges',
        'persistentvolumeclaims',
        'pods',
        'podtemplates',
        'replicationcontrollers',
        'resourcequotas',
        'serviceaccounts',
        'services',
      ],
      verbs: ['list'],
      why:
        'The scan: a metadata-only list of each type a namespace holds, named one by one so that Secrets are not ' +
        'among them (`list` would allow reading their data); pods in full: what holds them, and the ' +
        'controller-manager pods in kube-system when it has no Lease.',
    },
    {
      apiGroups: [''],
      resources: ['configmaps', 'nodes', 'services'],
      verbs: ['get'],
      why:
        'The node of each pod left (a lost node); the Service behind an APIService or webhook; a ConfigMap that ' +
        'a ValidatingAdmissionPolicy takes as its parameter.',
    },
    {
      apiGroups: ['apps'],
      resources: ['controllerrevisions', 'daemonsets', 'deployments', 'replicasets', 'statefulsets'],
      verbs: ['list'],
      why: 'The scan; Deployments, StatefulSets and DaemonSets in all namespaces: whether a finalizer’s controller runs.',
    },
    scan('batch', ['cronjobs', 'jobs']),
    scan('autoscaling', ['horizontalpodautoscalers']),
    scan('policy', ['poddisruptionbudgets']),
    scan('networking.k8s.io', ['ingresses', 'networkpolicies']),
    scan('storage.k8s.io', ['csistoragecapacities']),
    scan('resource.k8s.io', ['resourceclaims', 'resourceclaimtemplates']),
    { ...scan('events.k8s.io', ['events']), why: 'The scan, when the namespace controller names events.' },
    {
      ...scan('discovery.k8s.io', ['endpointslices']),
      why: 'The scan; whether the Service behind an APIService or webhook has ready endpoints.',
    },
    {
      ...scan('coordination.k8s.io', ['leases']),
      why: 'The scan; leader-election Leases: which controllers are alive.',
    },
    {
      ...scan('rbac.authorization.k8s.io', ['clusterrolebindings', 'clusterroles', 'rolebindings', 'roles']),
      why: 'The scan; who may update objects in a namespace: the RBAC evidence of a finalizer’s owner.',
    },
    {
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['roles'],
      verbs: ['get'],
      why: 'The Roles that the RoleBindings of a namespace name.',
    },
    {
      apiGroups: ['apiregistration.k8s.io'],
      resources: ['apiservices'],
      verbs: ['list'],
      why: 'APIServices that are down: discovery, and the deletes that wait on them.',
    },
    {
      apiGroups: ['apiextensions.k8s.io'],
      resources: ['customresourcedefinitions'],
      verbs: ['get', 'list'],
      why:
        'Which Helm release installed a custom type and whether the type itself is being deleted (list); the ' +
        'conversion webhook of a type whose objects cannot be read (get).',
    },
    {
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['mutatingwebhookconfigurations', 'validatingwebhookconfigurations'],
      verbs: ['list'],
      why: 'Webhooks that refuse deletes, and whether their backend runs.',
    },
    {
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['validatingadmissionpolicybindings'],
      verbs: ['get', 'list'],
      why: 'The binding a refusal names (get); bindings whose parameter lived in a deleted namespace (list).',
    },
    {
      apiGroups: ['admissionregistration.k8s.io'],
      resources: ['validatingadmissionpolicies'],
      verbs: ['get'],
      why: 'The policy a refusal names: what its binding lacks.',
    },
    gitops('kustomize.toolkit.fluxcd.io', ['kustomizations']),
    gitops('helm.toolkit.fluxcd.io', ['helmreleases']),
    gitops('argoproj.io', ['applications', 'applicationsets']),
  ],
  customResources: {
    verbs: ['list'],
    why: 'The scan: the custom resources a namespace holds (and at their stored version when conversion fails).',
  },
};
