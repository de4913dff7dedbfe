/** FakeCluster: an in-process HTTPS Kubernetes API server with a namespace controller, for tests. */
/* eslint-disable @typescript-eslint/no-explicit-any -- the builder API returns plain JSON objects by design */
import { randomBytes } from 'node:crypto';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { CLIENT_USER, type DenyRule } from './admission.js';
import type { PolicyDenial, WebhookDenial } from './denials.js';
import type { AdmissionPolicy } from './policies.js';
import { apiServiceObject, reconcileApiServices } from './apiservices.js';
import { Background } from './background.js';
import {
  type CrdOptions,
  type GrantOptions,
  type PodOptions,
  type WebhookOptions,
  crdBody,
  deploymentBody,
  endpointSliceBody,
  endpointsBody,
  grantBodies,
  nodeBody,
  podBody,
  serviceBody,
  webhookConfigBody,
} from './builders.js';
import { NamespaceController } from './controller.js';
import { LeaderLease } from './leader.js';
import { GITOPS_TYPES, GitOpsController, type GitOpsFlavour } from './gitops.js';
import { Operator, type OperatorOptions } from './operator.js';
import { Core, systemCtx, type WebhookMutation } from './core.js';
import { finalizerPutBack } from './mutations.js';
import { type Fault, type FaultAction, type FrontState, type RequestRecord, makeHandler } from './http.js';
import { asRecord, clone, isoSeconds, newUid, normalize } from './meta.js';
import { type ResourceType, APISERVICE_GR, CRD_GR, apiVersionOf, grOf } from './registry.js';
import { genericDelete } from './delete.js';
import { serverCerts } from './tls.js';
import type { ControllerTiming, Gvr, JsonMap, KObj, KubeVersion, NsObj } from './types.js';

export interface FakeClusterOptions {
  controller?: Partial<ControllerTiming>;
  latencyMs?: number;
  version?: KubeVersion;
  /** Interval of BOOKMARK events on watches that allow them (default 5000 ms; 0 = never). */
  bookmarkIntervalMs?: number;
  /**
   * Publish kube-controller-manager's leader-election Lease (kube-system/kube-controller-manager, renewed every 2 s
   * while started), as a real control plane does. Default true; false = a cluster where it is not visible.
   */
  controllerManagerLease?: boolean;
}

export interface StartedCluster {
  url: string;
  token: string;
  /** Base64 of the CA certificate PEM. */
  caData: string;
  /** Kubeconfig YAML with the context "fake". */
  kubeconfig: string;
}

const SYSTEM_NAMESPACES = ['default', 'kube-node-lease', 'kube-public', 'kube-system'];

export class FakeCluster {
  /** Every HTTP request served, in arrival order. */
  readonly requests: RequestRecord[] = [];
  /** The external cleanups the operators did, in order, e.g. `widget-operator: deleted bucket for pr-1/a`. */
  readonly operatorCleanups: string[] = [];
  private readonly operators: Operator[] = [];
  /** What the GitOps controllers did, in order, e.g. `recreated namespace pr-5`. */
  readonly gitopsLog: string[] = [];
  private readonly gitops: GitOpsController[] = [];
  private readonly core: Core;
  private readonly background: Background;
  private readonly controller: NamespaceController;
  private readonly lease: LeaderLease | undefined;
  private readonly front: FrontState;
  private server: https.Server | undefined;

  constructor(opts: FakeClusterOptions = {}) {
    this.core = new Core(opts.version ?? '1.34', opts.bookmarkIntervalMs ?? 5000);
    this.background = new Background(this.core);
    this.controller = new NamespaceController(this.core, opts.controller);
    this.lease = opts.controllerManagerLease === false ? undefined : new LeaderLease(this.core);
    this.front = {
      token: randomBytes(24).toString('hex'),
      latencyMs: opts.latencyMs ?? 0,
      requests: this.requests,
      faults: [],
      throttle: { left: 0, retryAfterSeconds: 1 },
      serverAddress: () => {
        const a = this.server?.address() as AddressInfo | null | undefined;
        return `127.0.0.1:${a?.port ?? 0}`;
      },
    };
    for (const ns of SYSTEM_NAMESPACES) this.addNamespace(ns);
    reconcileApiServices(this.core);
  }

  async start(): Promise<StartedCluster> {
    if (this.server) throw new Error('FakeCluster already started');
    const certs = await serverCerts();
    const server = https.createServer(
      { key: certs.key, cert: certs.cert },
      makeHandler(this.core, this.front),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    this.background.start();
    this.controller.start();
    this.lease?.start();
    for (const o of this.operators) o.start();
    for (const g of this.gitops) g.start();
    const url = `https://${this.front.serverAddress()}`;
    const caData = Buffer.from(certs.caCert).toString('base64');
    const token = this.front.token;
    const kubeconfig = [
      'apiVersion: v1',
      'kind: Config',
      'clusters:',
      '- name: fake',
      '  cluster:',
      `    server: ${url}`,
      `    certificate-authority-data: ${caData}`,
      'contexts:',
      '- name: fake',
      '  context:',
      '    cluster: fake',
      '    user: fake',
      'current-context: fake',
      'users:',
      '- name: fake',
      '  user:',
      `    token: ${token}`,
      '',
    ].join('\n');
    return { url, token, caData, kubeconfig };
  }

  async stop(): Promise<void> {
    for (const o of this.operators) o.stop();
    for (const g of this.gitops) g.stop();
    this.lease?.stop();
    this.controller.stop();
    this.background.stop();
    this.core.hub.closeAll();
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private type(gvr: Pick<Gvr, 'group' | 'resource'> & { version?: string }): ResourceType {
    // An object added at a version is stored at that version (a CRD may serve several).
    const exact = gvr.version ? this.core.registry.find(gvr.group, gvr.version, gvr.resource) : undefined;
    const rt = exact ?? this.core.registry.byGroupResource(gvr.group, gvr.resource);
    if (!rt)
      throw new Error(`FakeCluster: unknown resource ${gvr.resource}.${gvr.group} (add its CRD first)`);
    return rt;
  }

  /** Store an object as-is (system fields filled in, per-type create defaults applied), bypassing admission. */
  private insert(rt: ResourceType, body: JsonMap): KObj {
    const meta = asRecord(body.metadata);
    const obj = normalize({
      ...body,
      kind: rt.kind,
      apiVersion: apiVersionOf(rt),
      metadata: {
        ...meta,
        namespace: rt.namespaced ? String(meta.namespace ?? 'default') : undefined,
        uid: meta.uid ?? newUid(),
        creationTimestamp: meta.creationTimestamp ?? isoSeconds(),
        resourceVersion: '',
        generation: rt.generation ? 1 : undefined,
      },
    });
    if (!(rt.resource === 'namespaces' && obj.metadata.deletionTimestamp))
      this.core.api.strategy(rt).prepareForCreate(obj);
    if (this.core.store.has(grOf(rt), obj.metadata.namespace, obj.metadata.name)) {
      throw new Error(
        `FakeCluster: ${grOf(rt)} ${obj.metadata.namespace ?? ''}/${obj.metadata.name} already exists`,
      );
    }
    return this.core.store.create(grOf(rt), obj);
  }

  addNamespace(
    name: string,
    opts: {
      labels?: Record<string, string>;
      annotations?: Record<string, string>;
      metadataFinalizers?: string[];
      createdAt?: string;
    } = {},
  ): NsObj {
    const body = {
      metadata: {
        name,
        labels: opts.labels,
        annotations: opts.annotations,
        finalizers: opts.metadataFinalizers,
        creationTimestamp: opts.createdAt,
      },
      spec: {},
    };
    return this.insert(this.type({ group: '', resource: 'namespaces' }), body) as NsObj;
  }

  /** Register a CRD: the type becomes discoverable, listable and deletable by the namespace controller. */
  addCRD(opts: CrdOptions): void {
    this.insert(
      this.type({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }),
      crdBody(opts),
    );
    reconcileApiServices(this.core);
  }

  /**
   * Add any object. Accepts a full body (`metadata: {...}`) or the shorthand `{ namespace, name, finalizers,
   * ownerReferences, labels, annotations, ...bodyFields }`.
   */
  addObject(gvr: Gvr, obj: any): any {
    const { metadata, namespace, name, finalizers, ownerReferences, labels, annotations, ...rest } =
      obj as JsonMap;
    const meta: JsonMap = { ...asRecord(metadata) };
    const shorthand = { namespace, name, finalizers, ownerReferences, labels, annotations };
    for (const [k, v] of Object.entries(shorthand)) if (v !== undefined) meta[k] = v;
    return this.insert(this.type(gvr), { ...rest, metadata: meta });
  }

  /** Register an aggregated API; unavailable => discovery shows it Stale and requests under it get 503. */
  addAPIService(opts: {
    group: string;
    version: string;
    service?: { namespace: string; name: string; port?: number };
    available: boolean | { reason: string; message: string };
  }): void {
    const obj = apiServiceObject(opts.group, opts.version, opts.service);
    this.core.store.create(APISERVICE_GR, obj);
    if (opts.service) this.core.apiServiceBackends.set(obj.metadata.name, opts.available);
    reconcileApiServices(this.core);
  }

  addPod(ns: string, name: string, opts: PodOptions = {}): any {
    return this.insert(this.type({ group: '', resource: 'pods' }), podBody(ns, name, opts));
  }

  /** Add a node, or set the readiness of an existing one; `since` backdates the Ready condition's transition. */
  addNode(name: string, ready: boolean, opts: { since?: Date } = {}): void {
    const rt = this.type({ group: '', resource: 'nodes' });
    const existing = this.core.store.get('nodes', '', name);
    if (!existing) {
      this.insert(rt, nodeBody(name, ready, opts.since));
      return;
    }
    const next = clone(existing);
    const fresh = nodeBody(name, ready, opts.since);
    next.spec = fresh.spec;
    next.status = fresh.status;
    this.core.store.update('nodes', next);
  }

  addWebhook(opts: WebhookOptions): void {
    const gr =
      opts.kind === 'Validating' ? 'validatingwebhookconfigurations' : 'mutatingwebhookconfigurations';
    this.insert(this.type({ group: 'admissionregistration.k8s.io', resource: gr }), webhookConfigBody(opts));
    this.core.webhookDown.set(opts.name, opts.down);
  }

  addDeployment(
    ns: string,
    name: string,
    opts: { readyReplicas?: number; image?: string; serviceAccount?: string } = {},
  ): any {
    return this.insert(this.type({ group: 'apps', resource: 'deployments' }), deploymentBody(ns, name, opts));
  }

  /**
   * RBAC that lets a ServiceAccount update objects of a type and their finalizers (a ClusterRole and its binding, or
   * a Role and RoleBinding in `namespace`), as an operator's chart installs it.
   */
  addGrant(o: GrantOptions): void {
    const { role, binding } = grantBodies(o);
    const kind = o.namespace ? 'roles' : 'clusterroles';
    this.insert(this.type({ group: 'rbac.authorization.k8s.io', resource: kind }), role);
    this.insert(
      this.type({ group: 'rbac.authorization.k8s.io', resource: kind.replace('roles', 'rolebindings') }),
      binding,
    );
  }

  /** A Service with an EndpointSlice (and legacy Endpoints) holding `readyEndpoints` ready addresses. */
  addService(ns: string, name: string, readyEndpoints: number): void {
    this.insert(this.type({ group: '', resource: 'services' }), serviceBody(ns, name));
    this.insert(this.type({ group: '', resource: 'endpoints' }), endpointsBody(ns, name, readyEndpoints));
    this.insert(
      this.type({ group: 'discovery.k8s.io', resource: 'endpointslices' }),
      endpointSliceBody(ns, name, readyEndpoints),
    );
    reconcileApiServices(this.core);
  }

  /**
   * An operator: a Deployment and its running pod (on a Ready node) in `namespace`, and a controller that removes
   * `finalizer` from its resources being deleted, after its cleanup, only while that pod runs.
   */
  addOperator(opts: OperatorOptions): Operator {
    const name = opts.name ?? 'widget-operator';
    const image =
      opts.image ?? `ghcr.io/${opts.finalizer.split('/')[0]?.split('.')[0] ?? 'acme'}/${name}:1.4`;
    if (!this.core.store.get('nodes', '', 'node-1')) this.addNode('node-1', true);
    const serviceAccount = { namespace: opts.namespace, name };
    const deployment = deploymentBody(opts.namespace, name, {
      readyReplicas: 1,
      image,
      serviceAccount: name,
    });
    // What ties it to its resources, as its chart would install it: a Role in its namespace when it serves only that.
    if (opts.rbac !== false) {
      const scope = (opts.scope ?? 'own') === 'own' ? { namespace: opts.namespace } : {};
      this.addGrant({ ...opts.gvr, serviceAccount, ...scope });
    }
    this.insert(this.type({ group: 'apps', resource: 'deployments' }), deployment);
    const pod = podBody(opts.namespace, name, { nodeName: 'node-1', graceSeconds: opts.graceSeconds ?? 1 });
    (pod.spec as { containers: { image: string }[] }).containers[0]!.image = image;
    this.insert(this.type({ group: '', resource: 'pods' }), pod);
    const full = {
      scope: 'own' as const,
      delayMs: 50,
      graceSeconds: 1,
      what: 'bucket',
      ...opts,
      name,
      image,
    };
    const operator = new Operator(this.core, full, this.operatorCleanups);
    this.operators.push(operator);
    if (this.server) operator.start();
    return operator;
  }

  /**
   * A GitOps controller (Flux's kustomize-controller or Argo CD's application controller): its CRD, its namespace
   * (`flux-system`, `argocd`), its running Deployment with RBAC on its owners, and the controller model that applies
   * their namespaces again while they are live (see gitops.ts). Add owners with `addObject`.
   */
  addGitOps(flavour: GitOpsFlavour): GitOpsController {
    const t = GITOPS_TYPES[flavour];
    this.addCRD({ group: t.group, version: t.version, kind: t.kind, plural: t.plural });
    const home = flavour === 'flux' ? 'flux-system' : 'argocd';
    const name = flavour === 'flux' ? 'kustomize-controller' : 'argocd-application-controller';
    if (!this.core.store.get('namespaces', '', home)) this.addNamespace(home);
    if (!this.core.store.get('nodes', '', 'node-1')) this.addNode('node-1', true);
    this.addGrant({ group: t.group, resource: t.plural, serviceAccount: { namespace: home, name } });
    const deployment = deploymentBody(home, name, {
      readyReplicas: 1,
      image: `ghcr.io/${flavour}/${name}:2.4`,
      serviceAccount: name,
    });
    this.insert(this.type({ group: 'apps', resource: 'deployments' }), deployment);
    this.insert(this.type({ group: '', resource: 'pods' }), podBody(home, name, { nodeName: 'node-1' }));
    const controller = new GitOpsController(this.core, flavour, this.gitopsLog);
    this.gitops.push(controller);
    if (this.server) controller.start();
    return controller;
  }

  /** Stop renewing kube-controller-manager's Lease (it goes stale) while the controllers keep running. */
  stopControllerManagerLease(): void {
    this.lease?.stop();
  }

  /**
   * The client's only rights come from RoleBinding `binding` inside `namespace` (a CI identity given `admin` there):
   * every request outside that namespace is refused, and requests in it (the namespace's own GET included) are
   * allowed only while the RoleBinding exists — the namespace controller deletes it with the rest of the content.
   */
  rightsFromRoleBinding(namespace: string, binding = 'ci-admin'): void {
    const [, , saNamespace = 'ci', saName = 'namespace-teardown'] = CLIENT_USER.split(':');
    this.addObject(
      { group: 'rbac.authorization.k8s.io', version: 'v1', resource: 'rolebindings' },
      {
        namespace,
        name: binding,
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'admin' },
        subjects: [{ kind: 'ServiceAccount', name: saName, namespace: saNamespace }],
      },
    );
    const gone = (): boolean =>
      !this.core.store.get('rolebindings.rbac.authorization.k8s.io', namespace, binding);
    this.core.denyRules.push({ verb: '*', resource: '*', outside: namespace });
    this.core.denyRules.push({ verb: '*', resource: '*', namespace, when: gone });
  }

  /** Deny one permission to the client user (403 with the RBAC message). */
  denyRBAC(rule: DenyRule): void {
    this.core.denyRules.push({ ...rule });
  }

  /**
   * DELETE a CRD as kube-apiserver and its apiextensions controller do: the CRD keeps its
   * `customresourcecleanup.apiextensions.k8s.io` finalizer, gets a deletionTimestamp and `Terminating: True`, and each
   * of its objects is deleted (their own finalizers hold them; the CRD stays until they are gone, which this model does
   * not finish).
   */
  deleteCRD(name: string): void {
    const cur = this.core.store.get(CRD_GR, '', name);
    if (!cur) throw new Error(`FakeCluster: no CRD ${name}`);
    const next = clone(cur);
    next.metadata.deletionTimestamp = isoSeconds();
    next.metadata.finalizers = ['customresourcecleanup.apiextensions.k8s.io'];
    const status = asRecord(next.status);
    const terminating = {
      type: 'Terminating',
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
      lastTransitionTime: isoSeconds(),
    };
    next.status = { ...status, conditions: [...((status.conditions as unknown[]) ?? []), terminating] };
    this.core.store.update(CRD_GR, next);
    const [plural = '', ...group] = name.split('.');
    const rt = this.core.registry.byGroupResource(group.join('.'), plural);
    if (!rt) return;
    for (const obj of this.core.store.list(grOf(rt)))
      genericDelete(this.core.api, rt, obj, { dryRun: false }, { dryRun: false, warnings: [] });
  }

  /**
   * Change one stored object as a controller would, through the API layer (a new resourceVersion, watch events):
   * `change` edits a copy; `sub` names the subresource written (`status` where the type has one).
   */
  updateObject(gvr: Gvr, ns: string | undefined, name: string, change: (obj: any) => void, sub = ''): void {
    const rt = this.type(gvr);
    const cur = this.core.store.get(grOf(rt), rt.namespaced ? ns : '', name);
    if (!cur) throw new Error(`FakeCluster: no ${grOf(rt)} ${ns ?? ''}/${name}`);
    const next = clone(cur);
    change(next);
    this.core.api.commit(rt, cur, next, sub, systemCtx());
  }

  /** Remove one metadata finalizer as its controller would (deletes the object if it was the last). */
  removeFinalizer(gvr: Gvr, ns: string | undefined, name: string, finalizer: string): void {
    const rt = this.type(gvr);
    const cur = this.core.store.get(grOf(rt), rt.namespaced ? ns : '', name);
    if (!cur) return;
    const next = clone(cur);
    next.metadata.finalizers = (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.core.api.commit(rt, cur, next, '', systemCtx());
  }

  /** Answer the next matching request(s) with a canned response (JSON body, or as it is if a string or bytes). */
  failNext(
    match: { method?: string; path: RegExp; query?: RegExp },
    response: { status: number; body?: any; headers?: Record<string, string>; times?: number },
  ): void {
    this.misbehaveNext(match, 'respond', response.times ?? 1, response);
  }

  /**
   * The next matching request(s) misbehave: `reset` drops the connection, `hang` never answers, `endless-line`
   * answers 200 and streams one line that never ends, `endless-body` a list whose items never end, `gzip-bomb` the
   * same gzip-encoded. `times` may be Infinity.
   */
  misbehaveNext(
    match: { method?: string; path: RegExp; query?: RegExp },
    action: FaultAction,
    times = 1,
    response: { status: number; body?: any; headers?: Record<string, string> } = { status: 200 },
  ): void {
    const fault: Fault = {
      method: match.method?.toUpperCase(),
      path: new RegExp(match.path.source, match.path.flags.replace('g', '')),
      query: match.query,
      action,
      status: response.status,
      body: response.body as unknown,
      headers: response.headers,
      times,
    };
    this.front.faults.push(fault);
  }

  /**
   * The webhook `name` answers every call (about an object `applies` accepts) with `allowed: false` and this status,
   * as a policy engine that refuses on purpose does; its configuration must exist and match the request.
   */
  denyWebhook(name: string, denial: WebhookDenial, applies?: (obj: KObj | undefined) => boolean): void {
    this.core.webhookDenials.set(name, { denial, ...(applies ? { applies } : {}) });
  }

  /**
   * The mutating webhook `name` answers every call about an object `mutation.applies` accepts with the JSONPatch
   * `mutation.patch` gives (none: allowed as it is), applied as kube-apiserver applies it, before validation; its
   * configuration must exist (`addWebhook`, kind `Mutating`), match the request and be up.
   */
  mutateWebhook(name: string, mutation: WebhookMutation): void {
    this.core.webhookMutations.set(name, mutation);
  }

  /**
   * The mutating webhook `name` puts `finalizer` back into `metadata.finalizers` (`spec.finalizers` of a namespace
   * with `field: 'spec'`) of every object `applies` accepts that lacks it, on the operations its rules name. A PATCH
   * that removed it is answered 200 with it still there, the resourceVersion unchanged when nothing else changed; one
   * that would make it new on an object being deleted is the 422 of any new finalizer.
   */
  putBackFinalizer(
    name: string,
    finalizer: string,
    opts: { field?: 'metadata' | 'spec'; applies?: (obj: KObj) => boolean } = {},
  ): void {
    this.mutateWebhook(name, finalizerPutBack(finalizer, opts));
  }

  /** A ValidatingAdmissionPolicy (with its binding) denies the operations on the resources, for the objects `applies` accepts. */
  /** A ValidatingAdmissionPolicy and its binding as written in YAML (e.g. deploy/admission-policy.yaml), enforced. */
  addAdmissionPolicy(policy: AdmissionPolicy): void {
    this.core.api.admissionPolicies.push(policy);
  }

  denyByPolicy(denial: PolicyDenial, applies?: (obj: KObj | undefined) => boolean): void {
    this.core.api.policies.push({ denial, ...(applies ? { applies } : {}) });
  }

  /** Abruptly drop every open watch connection. */
  resetWatches(): void {
    this.core.hub.resetAll();
  }

  /** Send 410 Expired to every open watch, close it, and make all earlier resourceVersions too old. */
  expireWatches(): void {
    this.core.hub.expireAll();
  }

  /** The next `times` requests get 429 with Retry-After. */
  throttle(opts: { times: number; retryAfterSeconds: number }): void {
    this.front.throttle = { left: opts.times, retryAfterSeconds: opts.retryAfterSeconds };
  }

  /** Deep copy of all stored objects keyed by `resource.group`. */
  snapshot(): any {
    return this.core.store.snapshot();
  }

  /** Deep copy of one stored object. */
  get(gvr: Gvr, ns: string | undefined, name: string): any | undefined {
    const rt = this.core.registry.byGroupResource(gvr.group, gvr.resource);
    const gr = rt ? grOf(rt) : gvr.group ? `${gvr.resource}.${gvr.group}` : gvr.resource;
    return this.core.store.get(gr, rt && !rt.namespaced ? '' : ns, name);
  }

  namespace(name: string): NsObj | undefined {
    return this.core.store.get('namespaces', '', name) as NsObj | undefined;
  }

  /**
   * Resolves once each named namespace is gone, or the namespace controller has made `passes` passes over it: what
   * blocks it is then written in its conditions (or, for `metadata.finalizers`, on it) and will not change by
   * itself. An event to end a test's wait on, instead of a timeout a busy machine may use up first.
   */
  settled(names: readonly string[], passes = 1): Promise<void> {
    const seen = new Map<string, number>();
    return new Promise((resolve) => {
      const check = (): void => {
        if (names.every((n) => !this.namespace(n) || (seen.get(n) ?? 0) >= passes)) {
          stopPasses();
          stopStore();
          resolve();
        }
      };
      const stopPasses = this.controller.onPass((name) => {
        if (names.includes(name)) seen.set(name, (seen.get(name) ?? 0) + 1);
        check();
      });
      const stopStore = this.core.store.subscribe((e) => {
        if (e.gr === 'namespaces' && e.type === 'DELETED') check();
      });
      check();
    });
  }

  /** Number of open watch streams. */
  get openWatches(): number {
    return this.core.hub.open;
  }
}
