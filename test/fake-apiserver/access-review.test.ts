/** SubjectAccessReview as kube-apiserver 1.20 answers it (its words measured in test/real/fidelity.test.ts). */
import { CLIENT_USER, FakeCluster, type StartedCluster } from './index.js';
import { raw } from './testkit.js';

const RBAC = { group: 'rbac.authorization.k8s.io', version: 'v1' };
const PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

function sa(ns: string, name: string, attrs: Record<string, string>): unknown {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: `system:serviceaccount:${ns}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${ns}`, 'system:authenticated'],
      resourceAttributes: attrs,
    },
  };
}

describe('SubjectAccessReview', () => {
  const cluster = new FakeCluster({ controller: { queueDelayMs: 600_000 } });
  let s: StartedCluster;
  beforeAll(async () => {
    cluster.addNamespace('app');
    cluster.addObject(
      { ...RBAC, resource: 'clusterroles' },
      { name: 'widgets', rules: [{ apiGroups: ['acme.io'], resources: ['widgets'], verbs: ['update'] }] },
    );
    cluster.addObject(
      { ...RBAC, resource: 'clusterrolebindings' },
      {
        name: 'ops-widgets',
        roleRef: { apiGroup: RBAC.group, kind: 'ClusterRole', name: 'widgets' },
        subjects: [{ kind: 'Group', name: 'system:serviceaccounts:ops', apiGroup: RBAC.group }],
      },
    );
    cluster.addObject(
      { ...RBAC, resource: 'roles' },
      {
        namespace: 'app',
        name: 'gadgets',
        rules: [{ apiGroups: ['acme.io'], resources: ['gadgets'], verbs: ['patch'] }],
      },
    );
    cluster.addObject(
      { ...RBAC, resource: 'rolebindings' },
      {
        namespace: 'app',
        name: 'gadgets',
        roleRef: { apiGroup: RBAC.group, kind: 'Role', name: 'gadgets' },
        subjects: [{ kind: 'ServiceAccount', name: 'op', namespace: 'ops' }],
      },
    );
    cluster.authorizeOutsideRbac({
      group: 'system:serviceaccounts:managed',
      apiGroup: 'acme.io',
      resource: 'widgets',
      reason: 'allowed by the cloud IAM policy',
    });
    s = await cluster.start();
  });
  afterAll(() => cluster.stop());

  test.each([
    {
      name: 'a ClusterRole bound to the ServiceAccounts of a namespace',
      body: sa('ops', 'op', { namespace: 'app', verb: 'update', group: 'acme.io', resource: 'widgets' }),
      status: {
        allowed: true,
        reason:
          'RBAC: allowed by ClusterRoleBinding "ops-widgets" of ClusterRole "widgets" to Group "system:serviceaccounts:ops"',
      },
    },
    {
      name: 'a Role bound by a RoleBinding, only in its namespace',
      body: sa('ops', 'op', { namespace: 'app', verb: 'patch', group: 'acme.io', resource: 'gadgets' }),
      status: {
        allowed: true,
        reason: 'RBAC: allowed by RoleBinding "gadgets/app" of Role "gadgets" to ServiceAccount "op/ops"',
      },
    },
    {
      name: 'the same Role in another namespace: no opinion, no reason',
      body: sa('ops', 'op', { namespace: 'other', verb: 'patch', group: 'acme.io', resource: 'gadgets' }),
      status: { allowed: false },
    },
    {
      name: 'a wildcard question is matched literally',
      body: sa('ops', 'op', { namespace: 'app', verb: 'update', group: '*', resource: '*' }),
      status: { allowed: false },
    },
    {
      name: 'a grant outside RBAC (the stand-in webhook authorizer)',
      body: sa('managed', 'op', { namespace: 'app', verb: 'update', group: 'acme.io', resource: 'widgets' }),
      status: { allowed: true, reason: 'allowed by the cloud IAM policy' },
    },
  ])('$name', async ({ body, status }) => {
    const r = await raw(s, 'POST', PATH, { body });
    expect(r.status).toBe(201);
    expect(r.json).toEqual({
      kind: 'SubjectAccessReview',
      apiVersion: 'authorization.k8s.io/v1',
      metadata: { creationTimestamp: null },
      spec: (body as { spec: unknown }).spec,
      status,
    });
  });

  test('no user and no group: 422, as the real server words it', async () => {
    const r = await raw(s, 'POST', PATH, {
      body: { kind: 'SubjectAccessReview', spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } },
    });
    expect(r.status).toBe(422);
    expect(r.json.message).toBe(
      '.authorization.k8s.io "" is invalid: spec.user: Invalid value: "": at least one of user or group must be specified',
    );
  });

  test('a client that may not create reviews gets the RBAC 403; nothing is stored', async () => {
    const c = new FakeCluster();
    c.denyRBAC({ verb: 'create', resource: 'subjectaccessreviews', group: 'authorization.k8s.io' });
    const started = await c.start();
    try {
      const r = await raw(started, 'POST', PATH, {
        body: sa('ops', 'op', { verb: 'get', resource: 'pods' }),
      });
      expect(r.status).toBe(403);
      expect(r.json.message).toBe(
        `subjectaccessreviews.authorization.k8s.io is forbidden: User "${CLIENT_USER}" cannot create resource "subjectaccessreviews" in API group "authorization.k8s.io" at the cluster scope`,
      );
      expect((await raw(started, 'GET', PATH)).status).toBe(405);
    } finally {
      await c.stop();
    }
  });
});
