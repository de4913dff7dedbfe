/**
 * What each mode's identity, bound as the docs say, may and may not do: the `kubectl auth can-i` answers that
 * test/real/rbac-matrix.test.ts asserts on a real API server and the README's "Permissions" tables show. Pure data.
 */
import type { Mode } from './rule.js';

/** How the docs bind the identity of one mode: the roles, each cluster-wide unless the role names where. */
export interface ModeBinding {
  mode: Mode;
  /** The mode in words, a column of the README's table. */
  label: string;
  /** The workflow that uses it. */
  workflow: string;
  roles: readonly string[];
}

const DELETE = 'namespace-teardown';
const DIAGNOSE = 'namespace-teardown-diagnose';
const CUSTOM = 'namespace-teardown-custom-resources';

/** One identity per mode, bound as the README says. */
export const BINDINGS: readonly ModeBinding[] = [
  { mode: 'delete', label: 'delete', workflow: '`teardown-order: namespace`', roles: [DELETE] },
  {
    mode: 'diagnose',
    label: 'diagnose',
    workflow: '`scope: all-terminating` (the nightly scan; deletes nothing)',
    roles: [DIAGNOSE],
  },
  {
    mode: 'custom-resources',
    label: 'custom resources first',
    workflow: 'the default (`teardown-order: custom-resources-first`, diagnosed, with the pre-mortem)',
    roles: [DELETE, DIAGNOSE, CUSTOM],
  },
  {
    mode: 'force',
    label: 'force',
    workflow: '`force: on`',
    roles: [DELETE, DIAGNOSE, CUSTOM, 'namespace-teardown-force'],
  },
  {
    mode: 'gitops-owners',
    label: 'GitOps owners first',
    workflow: '`gitops-owners: suspend` or `delete`',
    roles: [DELETE, DIAGNOSE, CUSTOM, 'namespace-teardown-gitops-owners'],
  },
];

/** A type served by a CRD, as the checks name it: the role holds it once `namespace-teardown rbac` printed it. */
export const EXAMPLE_CRD = { group: 'example.com', resource: 'widgets', kind: 'Widget' } as const;
/** A namespace a run deletes. */
export const EXAMPLE_TARGET = 'preview-1';

const CR = `${EXAMPLE_CRD.resource}.${EXAMPLE_CRD.group}`;
const FLUX = 'kustomizations.kustomize.toolkit.fluxcd.io';

/** One question to `kubectl auth can-i`, and the modes whose identity the API server must answer yes. */
export interface Check {
  verb: string;
  /** As kubectl takes it: `resource` or `resource.group`. */
  resource: string;
  subresource?: string;
  /** Undefined: all namespaces (`-A`), or the cluster scope for a cluster-scoped type. */
  namespace?: string;
  allowed: readonly Mode[];
  /** Why, where the answer is not obvious. */
  note?: string;
}

const ALL: readonly Mode[] = ['delete', 'diagnose', 'custom-resources', 'force', 'gitops-owners'];
const NONE: readonly Mode[] = [];
const READERS: readonly Mode[] = ['diagnose', 'custom-resources', 'force', 'gitops-owners'];
const DELETERS: readonly Mode[] = ['delete', 'custom-resources', 'force', 'gitops-owners'];
const CR_FIRST: readonly Mode[] = ['custom-resources', 'force', 'gitops-owners'];

/** The matrix, row by row: first what no mode may do, then what each needs. */
export const CHECKS: readonly Check[] = [
  { verb: 'list', resource: 'secrets', allowed: NONE },
  { verb: 'list', resource: 'secrets', namespace: 'kube-system', allowed: NONE },
  {
    verb: 'list',
    resource: 'secrets',
    namespace: 'flux-system',
    allowed: NONE,
    note: 'where a RoleBinding holds',
  },
  { verb: 'get', resource: 'secrets', namespace: 'kube-system', allowed: NONE },
  { verb: 'get', resource: 'secrets', namespace: EXAMPLE_TARGET, allowed: NONE },
  { verb: 'delete', resource: 'secrets', namespace: 'kube-system', allowed: NONE },
  { verb: 'list', resource: '*', allowed: NONE, note: 'no wildcard in any role' },
  { verb: 'create', resource: 'namespaces', allowed: NONE },
  { verb: 'create', resource: 'pods', namespace: EXAMPLE_TARGET, allowed: NONE },
  { verb: 'delete', resource: 'customresourcedefinitions', allowed: NONE },
  { verb: 'delete', resource: 'nodes', allowed: NONE },
  { verb: 'delete', resource: 'persistentvolumes', allowed: NONE },
  { verb: 'delete', resource: 'clusterrolebindings', allowed: NONE },
  { verb: 'patch', resource: 'clusterroles', allowed: NONE },
  { verb: 'bind', resource: 'clusterroles', allowed: NONE },
  { verb: 'delete', resource: 'validatingwebhookconfigurations', allowed: NONE },
  { verb: 'delete', resource: 'mutatingwebhookconfigurations', allowed: NONE },
  { verb: 'patch', resource: 'deployments', namespace: 'kube-system', allowed: NONE },
  { verb: 'delete', resource: 'deployments', namespace: 'kube-system', allowed: NONE },
  { verb: 'patch', resource: 'configmaps', namespace: EXAMPLE_TARGET, allowed: NONE },
  { verb: 'patch', resource: 'pods', namespace: EXAMPLE_TARGET, allowed: NONE },
  { verb: 'get', resource: 'namespaces', allowed: ALL },
  { verb: 'watch', resource: 'namespaces', allowed: ALL },
  { verb: 'delete', resource: 'namespaces', allowed: DELETERS },
  { verb: 'patch', resource: 'namespaces', allowed: ['force'], note: 'a target’s own metadata.finalizers' },
  { verb: 'update', resource: 'namespaces', subresource: 'finalize', allowed: ['force'] },
  { verb: 'list', resource: 'configmaps', allowed: READERS, note: 'the scan, metadata only' },
  { verb: 'list', resource: 'pods', allowed: READERS },
  { verb: 'list', resource: 'deployments', allowed: READERS },
  { verb: 'get', resource: 'nodes', allowed: READERS },
  { verb: 'list', resource: 'leases', namespace: 'kube-system', allowed: READERS },
  { verb: 'list', resource: FLUX, allowed: READERS },
  { verb: 'list', resource: CR, namespace: EXAMPLE_TARGET, allowed: READERS },
  { verb: 'delete', resource: CR, namespace: EXAMPLE_TARGET, allowed: CR_FIRST },
  { verb: 'watch', resource: CR, namespace: EXAMPLE_TARGET, allowed: CR_FIRST },
  {
    verb: 'delete',
    resource: CR,
    namespace: 'kube-system',
    allowed: CR_FIRST,
    note: 'RBAC cannot select namespaces by label: the admission policy (1.30+) refuses it',
  },
  { verb: 'patch', resource: CR, namespace: EXAMPLE_TARGET, allowed: ['force'] },
  { verb: 'patch', resource: 'persistentvolumeclaims', namespace: EXAMPLE_TARGET, allowed: ['force'] },
  {
    verb: 'delete',
    resource: 'pods',
    namespace: EXAMPLE_TARGET,
    allowed: ['force'],
    note: '`force-delete-pods`',
  },
  {
    verb: 'patch',
    resource: FLUX,
    namespace: 'flux-system',
    allowed: ['force', 'gitops-owners'],
    note: 'GitOps owners: to suspend it; force: a custom type, for its finalizers',
  },
  { verb: 'get', resource: FLUX, namespace: 'flux-system', allowed: ['force', 'gitops-owners'] },
  {
    verb: 'delete',
    resource: FLUX,
    namespace: 'flux-system',
    allowed: CR_FIRST,
    note: 'a custom type: custom resources first may delete one',
  },
  {
    verb: 'patch',
    resource: FLUX,
    namespace: EXAMPLE_TARGET,
    allowed: ['force'],
    note: 'the GitOps owners role is bound only where the owners live',
  },
];

/** The arguments of `kubectl auth can-i` for one check (without `--as`). */
export function canIArgs(c: Check): string[] {
  return [
    c.verb,
    c.resource,
    ...(c.subresource ? [`--subresource=${c.subresource}`] : []),
    ...(c.namespace ? ['-n', c.namespace] : ['-A']),
  ];
}

/** The command a check runs, as a person types it (without `--as`). */
export function canI(c: Check): string {
  return `kubectl auth can-i ${canIArgs(c)
    .map((a) => (a === '*' ? "'*'" : a))
    .join(' ')}`;
}
