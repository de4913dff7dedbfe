/**
 * The engine's runs for test/permissions/coverage.test.ts: each mode on the fake API server, and the situations
 * whose reads and writes only they make (a webhook, a conversion, a policy, a lost node, a 409, GitOps owners).
 */
import type { Mode } from '../../src/permissions/rule.js';
import {
  applicationBody,
  conversionGone,
  FakeCluster,
  GITOPS_TYPES,
  GVR,
  kialiStuck,
  kubesphereStuck,
  kustomizationBody,
  metricsApiDown,
  ownedByRbac,
  podOnDeadNode,
  policyDenies,
  pvcInUse,
  webhookBlocksDelete,
  type GitOpsFlavour,
} from '../fake-apiserver/index.js';
import { FAST } from '../helpers/harness.js';

/** The first PATCH whose path matches is answered 409 Conflict: the write is read again, then made. */
function conflictOnce(cluster: FakeCluster, path: RegExp): FakeCluster {
  const message =
    'Operation cannot be fulfilled: the object has been modified; please apply your changes to the latest version and try again';
  cluster.failNext(
    { method: 'PATCH', path },
    {
      status: 409,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message,
        reason: 'Conflict',
        code: 409,
      },
    },
  );
  return cluster;
}

/** A claim in preview-1 held by a finalizer no controller removes. */
function claimHeld(): FakeCluster {
  const cluster = new FakeCluster(fast);
  cluster.addNamespace(NS);
  cluster.addObject(GVR.persistentvolumeclaims, {
    namespace: NS,
    name: 'data',
    finalizers: ['example.com/hold'],
  });
  return conflictOnce(cluster, /\/persistentvolumeclaims\/data$/);
}

const ADMISSION = 'admissionregistration.k8s.io';

/** A ValidatingAdmissionPolicy whose binding names a parameter that does not exist: it refuses ConfigMap deletes. */
function policyWithoutParameter(): FakeCluster {
  const cluster = new FakeCluster(fast);
  cluster.addNamespace(NS);
  cluster.addObject(GVR.configmaps, { namespace: NS, name: 'app' });
  cluster.addObject(
    { group: ADMISSION, version: 'v1', resource: 'validatingadmissionpolicies' },
    {
      name: 'limits',
      spec: { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'true' }] },
    },
  );
  cluster.addObject(
    { group: ADMISSION, version: 'v1', resource: 'validatingadmissionpolicybindings' },
    {
      name: 'limits-binding',
      spec: { policyName: 'limits', paramRef: { name: 'limits', parameterNotFoundAction: 'Deny' } },
    },
  );
  cluster.denyByPolicy({
    policy: 'limits',
    binding: 'limits-binding',
    operations: ['DELETE'],
    resources: ['configmaps'],
    message:
      'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
    reason: 'Forbidden',
  });
  return cluster;
}

/** One run of the engine on the fake API server, under one mode. */
export interface Run {
  name: string;
  mode: Mode;
  cluster: () => FakeCluster;
  /** Namespaces deleted before the run (as another user), for `scope: all-terminating`. */
  terminating?: string[];
  inputs: Record<string, string>;
  /** The targets whose settling moves the run's clock to its timeout (a stuck one is diagnosed at once). */
  settle?: string[];
}

const fast = { controller: FAST };
const kiali = (): FakeCluster => kialiStuck(fast).cluster;
const NS = 'preview-1';

/** A cluster with a live GitOps controller of `flavour` and one owner of pr-5. */
function gitops(flavour: GitOpsFlavour): FakeCluster {
  const cluster = new FakeCluster(fast);
  cluster.addNamespace('pr-5');
  cluster.addGitOps(flavour);
  const t = GITOPS_TYPES[flavour];
  const body =
    flavour === 'argo'
      ? applicationBody({ name: 'preview-5', namespace: 'pr-5', resources: 2 })
      : kustomizationBody({ name: 'preview-web-5', namespaces: ['pr-5'], objectsPerNamespace: 2 });
  cluster.addObject({ group: t.group, version: t.version, resource: t.plural }, body);
  return cluster;
}

/** Widgets in pr-1 released by an operator that lives there; `outside`: its rights come from a webhook authorizer. */
function operatorInside(outside = false): FakeCluster {
  const widgets = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
  const cluster = new FakeCluster(fast);
  cluster.addCRD({ group: widgets.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  cluster.addNamespace('pr-1');
  for (const name of ['w0', 'w1'])
    cluster.addObject(widgets, { namespace: 'pr-1', name, finalizers: ['acme.io/x'] });
  cluster.addOperator({
    gvr: widgets,
    finalizer: 'acme.io/x',
    namespace: 'pr-1',
    delayMs: 50,
    rbac: !outside,
  });
  if (outside)
    cluster.authorizeOutsideRbac({
      user: 'system:serviceaccount:pr-1:widget-operator',
      apiGroup: widgets.group,
      resource: widgets.resource,
    });
  return cluster;
}

const stuck = (namespaces: string): Record<string, string> => ({
  namespaces,
  timeout: '20s',
  'fail-on': 'never',
});
const force = { force: 'on', 'force-after': '1s', timeout: '10s', 'fail-on': 'never' };

/** The runs: each mode, and the situations whose reads and writes only they make. */
export const RUNS: Run[] = [
  {
    name: 'delete alone, by selector',
    mode: 'delete',
    cluster: () => kiali(),
    inputs: { selector: 'app.kubernetes.io/part-of=preview', 'teardown-order': 'namespace', ...stuck('') },
    settle: ['istio-system'],
  },
  {
    name: 'diagnose alone: the nightly scan of a leaked Kiali finalizer',
    mode: 'diagnose',
    cluster: kiali,
    terminating: ['istio-system'],
    inputs: { scope: 'all-terminating', timeout: '20s', 'fail-on': 'never' },
    settle: ['istio-system'],
  },
  {
    name: 'a webhook refuses deletes',
    mode: 'diagnose',
    cluster: () => webhookBlocksDelete(fast).cluster,
    terminating: [NS],
    inputs: { scope: 'all-terminating', timeout: '20s' },
    settle: [NS],
  },
  {
    name: 'a dead APIService',
    mode: 'custom-resources',
    cluster: () => metricsApiDown(fast).cluster,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'a pod on a dead node',
    mode: 'custom-resources',
    cluster: () => podOnDeadNode(fast).cluster,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'a claim in use',
    mode: 'custom-resources',
    cluster: () => pvcInUse(fast).cluster,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'a conversion webhook gone',
    mode: 'custom-resources',
    cluster: () => conversionGone(fast).cluster,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'a policy refuses deletes',
    mode: 'custom-resources',
    cluster: () => policyDenies(fast).cluster,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'a policy that cannot evaluate: its binding, policy and parameter',
    mode: 'custom-resources',
    cluster: policyWithoutParameter,
    inputs: stuck(NS),
    settle: [NS],
  },
  {
    name: 'an owner known by its RBAC',
    mode: 'custom-resources',
    cluster: () => ownedByRbac(fast).cluster,
    // Its controller runs: custom resources first would wait for it; this run is about the owner's reads.
    inputs: { ...stuck(NS), 'teardown-order': 'namespace' },
    settle: [NS],
  },
  {
    name: 'custom resources first, an operator inside',
    mode: 'custom-resources',
    cluster: () => operatorInside(),
    inputs: { namespaces: 'pr-1', timeout: '20s' },
  },
  {
    name: 'custom resources first, an operator whose rights no RBAC object shows: the API server asked',
    mode: 'custom-resources',
    cluster: () => operatorInside(true),
    inputs: { namespaces: 'pr-1', timeout: '20s' },
  },
  {
    // Plan mode sends the same writes as dry runs: RBAC authorizes them as it would the writes themselves.
    name: 'plan mode (dry-run: true): custom resources first, an operator inside',
    mode: 'custom-resources',
    cluster: operatorInside,
    inputs: { namespaces: 'pr-1', timeout: '20s', 'dry-run': 'true' },
  },
  {
    name: 'plan mode (dry-run: true): a Flux Kustomization deleted',
    mode: 'gitops-owners',
    cluster: () => gitops('flux'),
    inputs: { namespaces: 'pr-5', 'gitops-owners': 'delete', timeout: '20s', 'dry-run': 'true' },
  },
  {
    name: 'force: a Kiali finalizer, its first patch met by a 409',
    mode: 'force',
    cluster: () => conflictOnce(kiali(), /\/kialis\/kiali$/),
    inputs: { namespaces: 'istio-system', 'force-finalizers': 'kiali.io/*', ...force },
  },
  {
    name: 'force: a claim’s own finalizer, its first patch met by a 409',
    mode: 'force',
    cluster: claimHeld,
    inputs: { namespaces: NS, 'force-finalizers': 'example.com/*', ...force },
  },
  {
    name: 'force: the namespace’s own finalizer',
    mode: 'force',
    cluster: () => kubesphereStuck(fast).cluster,
    inputs: { namespaces: 'kubesphere-system', 'force-finalizers': 'finalizers.kubesphere.io/*', ...force },
  },
  {
    name: 'force: /finalize past a dead APIService',
    mode: 'force',
    cluster: () => metricsApiDown(fast).cluster,
    inputs: { namespaces: NS, 'force-finalize-namespace': 'true', ...force },
  },
  {
    name: 'force: a pod on a lost node',
    mode: 'force',
    cluster: lostNode,
    inputs: { namespaces: NS, 'force-delete-pods': 'lost-nodes', ...force },
  },
  {
    name: 'GitOps owners: a Flux Kustomization suspended',
    mode: 'gitops-owners',
    cluster: () => gitops('flux'),
    inputs: { namespaces: 'pr-5', 'gitops-owners': 'suspend', timeout: '20s' },
  },
  {
    name: 'GitOps owners: a Flux Kustomization deleted',
    mode: 'gitops-owners',
    cluster: () => gitops('flux'),
    inputs: { namespaces: 'pr-5', 'gitops-owners': 'delete', timeout: '20s' },
  },
  {
    name: 'GitOps owners: an Argo CD Application suspended',
    mode: 'gitops-owners',
    cluster: () => gitops('argo'),
    inputs: { namespaces: 'pr-5', 'gitops-owners': 'suspend', timeout: '20s' },
  },
  {
    name: 'GitOps owners: an Argo CD Application deleted',
    mode: 'gitops-owners',
    cluster: () => gitops('argo'),
    inputs: { namespaces: 'pr-5', 'gitops-owners': 'delete', timeout: '20s' },
  },
];

/** A pod on a node that stopped reporting ten minutes ago. */
function lostNode(): FakeCluster {
  const s = podOnDeadNode(fast);
  s.cluster.addNode(s.node, false, { since: new Date(Date.now() - 10 * 60_000) });
  return s.cluster;
}
