/** The shape of the shipped roles: the modes, a rule with the step that uses it, a role. Pure. */

/** What a role serves, as `namespace-teardown rbac --mode` names it. */
export const MODES = ['delete', 'diagnose', 'custom-resources', 'force', 'gitops-owners'] as const;
export type Mode = (typeof MODES)[number];

/** One RBAC rule, and which step of the run uses it (the comment above it in deploy/rbac.yaml). */
export interface Rule {
  apiGroups: readonly string[];
  resources: readonly string[];
  verbs: readonly string[];
  why: string;
}

/** One ClusterRole: its rules, and the verbs it needs on this cluster's custom resource types, if any. */
export interface Role {
  name: string;
  mode: Mode;
  /** What it is for, the comment above it. */
  serves: string;
  rules: readonly Rule[];
  /** Verbs on each namespaced type a CRD of the cluster serves: `namespace-teardown rbac` adds those rules. */
  customResources?: { verbs: readonly string[]; why: string };
  /** Granted by RoleBindings in the namespaces where its objects live, never cluster-wide. */
  boundIn?: readonly string[];
}

/** Reading the targets and watching them: every mode that runs alone needs it. */
export const NAMESPACE_READS = {
  apiGroups: [''],
  resources: ['namespaces'],
  verbs: ['get', 'list', 'watch'],
  why: 'The targets: get by name, list by `selector` or the sweep; the wait: watch them (and list to start from).',
} as const;
