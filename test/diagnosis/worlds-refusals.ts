/**
 * Worlds for the metamorphic tests of the verdicts that need the namespace deleted or a whole run: a delete refused on
 * purpose, by a policy that cannot evaluate, or by a webhook whose backend is down; a namespace a live GitOps owner
 * applies again; a run that loses the right to look. Every non-API name spelled by a naming. Data only.
 */
import { FakeCluster, GVR, type Gvr } from '../fake-apiserver/index.js';
import { FAST } from '../helpers/harness.js';
import type { Naming } from './worlds.js';

/** Who refuses the namespace controller's delete of the target's ConfigMap, and how. */
export type Refusal =
  'engine denies' | 'engine down' | 'no refusal' | 'policy lacks its parameter' | 'policy has its parameter';

const VAP: Gvr = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  resource: 'validatingadmissionpolicies',
};
const VAPB: Gvr = {
  group: 'admissionregistration.k8s.io',
  version: 'v1',
  resource: 'validatingadmissionpolicybindings',
};

/** The policy, its binding (a parameter ConfigMap in another namespace) and the denial while the parameter is missing. */
function addPolicy(c: FakeCluster, n: Naming['name'], present: boolean): void {
  const policy = n('retain-policy');
  const binding = n('retain-binding');
  const params = n('policies');
  c.addNamespace(params);
  c.addObject(VAP, {
    name: policy,
    spec: {
      failurePolicy: 'Fail',
      paramKind: { apiVersion: 'v1', kind: 'ConfigMap' },
      matchConstraints: {
        resourceRules: [
          { apiGroups: [''], apiVersions: ['v1'], operations: ['DELETE'], resources: ['configmaps'] },
        ],
      },
      validations: [{ expression: 'params.data.allow == "true"' }],
    },
  });
  c.addObject(VAPB, {
    name: binding,
    spec: {
      policyName: policy,
      validationActions: ['Deny'],
      paramRef: { name: n('retain-params'), namespace: params, parameterNotFoundAction: 'Deny' },
    },
  });
  if (present)
    c.addObject(GVR.configmaps, { namespace: params, name: n('retain-params'), data: { allow: 'true' } });
  const missing = (): boolean => c.get(GVR.configmaps, params, n('retain-params')) === undefined;
  c.denyByPolicy(
    {
      policy,
      binding,
      operations: ['DELETE'],
      resources: ['configmaps'],
      message:
        'failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction',
      reason: 'Forbidden',
    },
    () => missing(),
  );
}

/** A target holding one ConfigMap whose delete is refused as `r` says. */
export function refusalWorld(naming: Naming, r: Refusal): { cluster: FakeCluster; target: string } {
  const n = naming.name;
  const c = new FakeCluster({ controller: FAST });
  const target = n('preview-1');
  c.addNamespace(target);
  c.addObject(GVR.configmaps, { namespace: target, name: n('credentials') });
  if (r === 'engine denies' || r === 'engine down') {
    const webhook = `${n('guard')}.policy.example.com`;
    const service = { namespace: n('policy-engine'), name: n('guard-svc') };
    c.addNamespace(service.namespace);
    c.addService(service.namespace, service.name, r === 'engine down' ? 0 : 2);
    c.addWebhook({
      kind: 'Validating',
      name: webhook,
      failurePolicy: 'Fail',
      resources: ['configmaps'],
      operations: ['DELETE'],
      service,
      down: r === 'engine down',
    });
    if (r === 'engine denies') c.denyWebhook(webhook, { message: `${n('credentials')} must be kept` });
  }
  if (r.startsWith('policy')) addPolicy(c, n, r === 'policy has its parameter');
  return { cluster: c, target };
}

/** What a GitOps owner of the target is like, each piece switchable. */
export interface OwnerEvidence {
  /** The Kustomization exists (its inventory holds the target's Namespace object). */
  owner: boolean;
  suspended: boolean;
  /** kustomize-controller's ready replicas. */
  ready: number;
  /** RBAC that ties kustomize-controller to Kustomizations. */
  rbac: boolean;
  /** Seconds since the controller last wrote the Ready condition's lastTransitionTime; undefined: not written. */
  statusAgo?: number;
}

export const LIVE_OWNER: OwnerEvidence = { owner: true, suspended: false, ready: 1, rbac: true };

const KUSTOMIZATIONS: Gvr = {
  group: 'kustomize.toolkit.fluxcd.io',
  version: 'v1',
  resource: 'kustomizations',
};

/** A target (one ConfigMap, nothing holds it) that a Flux Kustomization applied, with its controller as `e` says. */
export function ownerWorld(naming: Naming, e: OwnerEvidence): { cluster: FakeCluster; target: string } {
  const n = naming.name;
  const c = new FakeCluster({ controller: FAST });
  c.addCRD({ group: KUSTOMIZATIONS.group, version: 'v1', kind: 'Kustomization', plural: 'kustomizations' });
  const target = n('preview-1');
  c.addNamespace(target);
  c.addObject(GVR.configmaps, { namespace: target, name: n('app') });
  const flux = n('flux-system');
  c.addNamespace(flux);
  const controller = n('kustomize-controller');
  c.addDeployment(flux, controller, { readyReplicas: e.ready, serviceAccount: controller });
  if (e.rbac)
    c.addGrant({
      group: KUSTOMIZATIONS.group,
      resource: 'kustomizations',
      serviceAccount: { namespace: flux, name: controller },
    });
  if (e.owner)
    c.addObject(KUSTOMIZATIONS, {
      namespace: flux,
      name: n('previews'),
      spec: {
        interval: '1m',
        prune: true,
        targetNamespace: target,
        ...(e.suspended ? { suspend: true } : {}),
      },
      status: {
        inventory: {
          entries: [
            { id: `_${target}__Namespace`, v: 'v1' },
            { id: `${target}_${n('app')}__ConfigMap`, v: 'v1' },
          ],
        },
        conditions: [
          {
            type: 'Ready',
            status: 'True',
            reason: 'ReconciliationSucceeded',
            message: 'Applied revision: main@sha1:0a1b2c',
            ...(e.statusAgo !== undefined
              ? { lastTransitionTime: new Date(Date.now() - e.statusAgo * 1000).toISOString() }
              : {}),
          },
        ],
      },
    });
  return { cluster: c, target };
}

/** A target held by a leaked finalizer; the identity's rights come from a RoleBinding inside it, or from outside. */
export function sightWorld(naming: Naming, inside: boolean): { cluster: FakeCluster; target: string } {
  const n = naming.name;
  const c = new FakeCluster({ controller: FAST });
  const group = n('widgets.dev');
  c.addCRD({ group, version: 'v1', kind: 'Gizmo', plural: 'gizmos' });
  const target = n('preview-1');
  c.addNamespace(target);
  c.addObject(
    { group, version: 'v1', resource: 'gizmos' },
    { namespace: target, name: 'a', finalizers: [`${n('cleanup.example.com')}/x`] },
  );
  if (inside) c.rightsFromRoleBinding(target, n('ci-admin'));
  return { cluster: c, target };
}
