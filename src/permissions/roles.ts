/** The ClusterRoles of deploy/rbac.yaml, one per mode: every rule with the step of the run that uses it. Pure data. */
import { DIAGNOSE_ROLE } from './diagnose-role.js';
import { NAMESPACE_READS, type Mode, type Role } from './rule.js';

const DELETE: Role = {
  name: 'namespace-teardown',
  mode: 'delete',
  serves: 'delete the targets and watch them go (alone: `teardown-order: namespace`, nothing diagnosed)',
  rules: [
    NAMESPACE_READS,
    {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['delete'],
      why: 'The DELETE of each target, with its UID as precondition.',
    },
  ],
};

const CUSTOM_RESOURCES: Role = {
  name: 'namespace-teardown-custom-resources',
  mode: 'custom-resources',
  serves:
    'delete a target’s custom resources before it (`teardown-order: custom-resources-first`, the default)',
  rules: [
    {
      apiGroups: ['apiextensions.k8s.io'],
      resources: ['customresourcedefinitions'],
      verbs: ['list'],
      why: 'Which types CRDs serve (a metadata-only list of their names).',
    },
  ],
  customResources: {
    verbs: ['delete', 'list', 'watch'],
    why: 'Delete each target’s custom resources first (UID precondition), then list and watch them until gone.',
  },
};

const FORCE: Role = {
  name: 'namespace-teardown-force',
  mode: 'force',
  serves: 'the writes forcing makes (`force: on`), only what the force policy allows',
  rules: [
    {
      apiGroups: [''],
      resources: ['persistentvolumeclaims'],
      verbs: ['get', 'patch'],
      why:
        'Remove allowed finalizers (a merge patch of metadata.finalizers under UID and resourceVersion; get after a ' +
        'conflict): kubernetes.io/pvc-protection, or another a claim holds.',
    },
    {
      apiGroups: ['resource.k8s.io'],
      resources: ['resourceclaims'],
      verbs: ['get', 'patch'],
      why: 'The same for resource claims (resource.kubernetes.io/delete-protection).',
    },
    {
      apiGroups: [''],
      resources: ['pods'],
      verbs: ['delete', 'get'],
      why:
        '`force-delete-pods: lost-nodes`: read a pod on a lost node again, then delete it (grace 0, UID ' +
        'precondition). Drop this rule if that input stays off.',
    },
    {
      apiGroups: [''],
      resources: ['namespaces'],
      verbs: ['patch'],
      why: 'Remove allowed entries of a target’s own metadata.finalizers.',
    },
    {
      apiGroups: [''],
      resources: ['namespaces/finalize'],
      verbs: ['update'],
      why: 'The last resort, `/finalize` (only with `force-finalize-namespace: true`).',
    },
  ],
  customResources: {
    verbs: ['get', 'patch'],
    why: 'Remove allowed finalizers from custom resources (merge patch under UID and resourceVersion; get after a conflict).',
  },
};

const GITOPS_OWNERS: Role = {
  name: 'namespace-teardown-gitops-owners',
  mode: 'gitops-owners',
  serves: 'suspend or delete the GitOps owners of the targets first (`gitops-owners: suspend` or `delete`)',
  rules: [
    {
      apiGroups: ['kustomize.toolkit.fluxcd.io'],
      resources: ['kustomizations'],
      verbs: ['delete', 'get', 'patch'],
      why: 'Flux Kustomizations: patch suspends one (`suspend`), delete deletes it (`delete`), get reads it back after.',
    },
    {
      apiGroups: ['helm.toolkit.fluxcd.io'],
      resources: ['helmreleases'],
      verbs: ['delete', 'get', 'patch'],
      why: 'Flux HelmReleases: the same.',
    },
    {
      apiGroups: ['argoproj.io'],
      resources: ['applications'],
      verbs: ['delete', 'get', 'patch'],
      why: 'Argo CD Applications: the same (patch removes automated sync).',
    },
  ],
  boundIn: ['flux-system', 'argocd'],
};

/** Every role, in the order of deploy/rbac.yaml. */
export const ROLES: readonly Role[] = [DELETE, DIAGNOSE_ROLE, CUSTOM_RESOURCES, FORCE, GITOPS_OWNERS];

/** The role of one mode. */
export function roleOf(mode: Mode): Role {
  return ROLES.find((r) => r.mode === mode)!;
}
