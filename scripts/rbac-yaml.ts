/** deploy/rbac.yaml, generated from src/permissions/ (`npm run docs`): the roles, the ServiceAccount, its bindings. */
import { comment, renderRole } from '../src/permissions/render.js';
import { ROLES } from '../src/permissions/roles.js';

const HEADER = [
  ...comment(
    'Permissions for namespace-teardown: one ClusterRole per mode, each rule under a comment naming the step that ' +
      'uses it; bind the ones your workflow uses (README, "Permissions"). Generated from src/permissions/ by ' +
      '`npm run docs`; test/real/rbac-matrix.test.ts applies this file to a real API server and checks what ' +
      '`kubectl auth can-i` answers for each mode, allowed and denied.',
  ),
  ...comment(
    'Three roles also need rules for the custom resource types of your cluster, which RBAC cannot name ahead: ' +
      'after applying this file, run',
  ),
  '#   namespace-teardown rbac --mode diagnose,custom-resources,force | kubectl apply -f -',
  ...comment(
    'and again whenever CRDs are added or removed. No role reads Secrets or holds a wildcard. RBAC cannot name ' +
      '"the preview namespaces": what a role grants holds in every namespace; deploy/admission-policy.yaml ' +
      '(Kubernetes 1.30+) confines every write of this identity to namespaces carrying the preview label.',
  ),
];

const binding = (role: string): string =>
  [
    'apiVersion: rbac.authorization.k8s.io/v1',
    'kind: ClusterRoleBinding',
    'metadata:',
    `  name: ${role}`,
    `roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${role} }`,
    'subjects:',
    '  - { kind: ServiceAccount, name: namespace-teardown, namespace: ci }',
  ].join('\n');

const IDENTITY = [
  [
    ...comment(
      'The identity of the default workflow (custom resources first, diagnosed): ServiceAccount ' +
        'ci/namespace-teardown, bound to the delete, diagnose and custom-resources roles.',
    ),
    'apiVersion: v1',
    'kind: ServiceAccount',
    'metadata:',
    '  name: namespace-teardown',
    '  namespace: ci',
  ].join('\n'),
  binding('namespace-teardown'),
  binding('namespace-teardown-diagnose'),
  [
    binding('namespace-teardown-custom-resources'),
    ...comment('With `force: on`, bind namespace-teardown-force as well:'),
    '#   kubectl create clusterrolebinding namespace-teardown-force --clusterrole=namespace-teardown-force \\',
    '#     --serviceaccount=ci:namespace-teardown',
    ...comment('With `gitops-owners: suspend` or `delete`, in each namespace where your GitOps owners live:'),
    '#   kubectl -n flux-system create rolebinding namespace-teardown-gitops-owners \\',
    '#     --clusterrole=namespace-teardown-gitops-owners --serviceaccount=ci:namespace-teardown',
  ].join('\n'),
];

/** The whole file, as `npm run docs` writes it. */
export function rbacYaml(): string {
  const docs = [...ROLES.map((r) => renderRole(r)), ...IDENTITY];
  return `${HEADER.join('\n')}\n${docs.join('\n---\n')}\n`;
}
