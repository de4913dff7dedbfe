/**
 * A GitOps controller model, as far as a teardown meets one: Flux's kustomize-controller (Kustomizations) or Argo CD's
 * application controller (Applications). While an owner exists, is not suspended (Flux `spec.suspend`) or still syncs
 * on its own (Argo CD `spec.syncPolicy.automated`) and is not being deleted, every namespace it manages that is gone
 * is created again. An owner being deleted is pruned through its finalizer: Flux deletes every object its inventory
 * holds (cluster-scoped ones too) when its `spec.deletionPolicy` says so (`MirrorPrune`, the default, follows
 * `spec.prune`; `Delete` and `WaitForTermination` always; `Orphan` never) and it is not suspended; Argo CD deletes
 * every object of its `status.resources`, and its managed namespace, under `resources-finalizer.argocd.argoproj.io`.
 * Every act is logged, e.g. `recreated namespace pr-5`, `… pruned ClusterRole web-reader`.
 */
import { type Core, systemCtx } from './core.js';
import { deleteObject, parseDeleteOptions } from './delete.js';
import { asRecord, clone } from './meta.js';
import { grOf, type ResourceType } from './registry.js';
import type { KObj } from './types.js';

/** Which controller. */
export type GitOpsFlavour = 'flux' | 'argo';

export const FLUX_FINALIZER = 'finalizers.fluxcd.io';
export const ARGO_FINALIZER = 'resources-finalizer.argocd.argoproj.io';

/** Where each flavour's owners live, as the model serves them. */
export const GITOPS_TYPES: Record<
  GitOpsFlavour,
  { group: string; version: string; kind: string; plural: string }
> = {
  flux: {
    group: 'kustomize.toolkit.fluxcd.io',
    version: 'v1',
    kind: 'Kustomization',
    plural: 'kustomizations',
  },
  argo: { group: 'argoproj.io', version: 'v1alpha1', kind: 'Application', plural: 'applications' },
};

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The namespaces an owner manages: a Flux inventory's `_<ns>__Namespace` entries, Argo CD's CreateNamespace target. */
function managed(flavour: GitOpsFlavour, o: KObj): string[] {
  const spec = asRecord(o.spec);
  if (flavour === 'flux')
    return list(asRecord(asRecord(o.status).inventory).entries).flatMap((e) => {
      const m = /^_([^_]+)__Namespace$/.exec(String(asRecord(e).id ?? ''));
      return m ? [m[1]!] : [];
    });
  const dest = asRecord(spec.destination).namespace;
  const options = list(asRecord(spec.syncPolicy).syncOptions);
  return typeof dest === 'string' && options.includes('CreateNamespace=true') ? [dest] : [];
}

/** One object an owner applied, as its inventory or `status.resources` names it. */
interface Applied {
  namespace: string;
  name: string;
  group: string;
  kind: string;
}

/**
 * A Flux inventory id, `<namespace>_<name>_<group>_<kind>`, read as Flux's cli-utils reads it: the namespace up to
 * the first `_`, the kind and group from the end, the rest the name (`__` in it a `:`, as in RBAC names).
 */
export function parseInventoryId(id: string): Applied | undefined {
  const first = id.indexOf('_');
  const last = id.lastIndexOf('_');
  const rest = id.slice(first + 1, last);
  const cut = rest.lastIndexOf('_');
  if (first < 0 || last <= first || cut < 0) return undefined;
  const name = rest.slice(0, cut).replaceAll('__', ':');
  if (name.includes('_')) return undefined;
  return { namespace: id.slice(0, first), name, group: rest.slice(cut + 1), kind: id.slice(last + 1) };
}

/** Every object the owner applied: a Flux inventory, Argo CD's `status.resources`. */
function applied(flavour: GitOpsFlavour, o: KObj): Applied[] {
  const status = asRecord(o.status);
  if (flavour === 'flux')
    return list(asRecord(status.inventory).entries).flatMap(
      (e) => parseInventoryId(String(asRecord(e).id ?? '')) ?? [],
    );
  return list(status.resources).map((r) => {
    const m = asRecord(r);
    const text = (v: unknown): string => (typeof v === 'string' ? v : '');
    return { namespace: text(m.namespace), name: text(m.name), group: text(m.group), kind: text(m.kind) };
  });
}

/** Whether deleting a Flux owner deletes what it applied (kustomize-controller's finalizerShouldDeleteResources). */
function fluxPrunes(spec: Record<string, unknown>): boolean {
  if (spec.suspend === true) return false;
  const policy = spec.deletionPolicy ?? 'MirrorPrune';
  if (policy === 'MirrorPrune') return spec.prune === true;
  return policy === 'Delete' || policy === 'WaitForTermination';
}

/** Whether it applies on its own: not suspended (Flux), automated sync (Argo CD). */
function applies(flavour: GitOpsFlavour, o: KObj): boolean {
  const spec = asRecord(o.spec);
  if (flavour === 'flux') return spec.suspend !== true;
  const automated = asRecord(spec.syncPolicy).automated;
  return automated !== undefined && automated !== null;
}

/** The controller: watches its owners and the namespaces, reconciles on every change. */
export class GitOpsController {
  private unsubscribe: (() => void) | undefined;
  private pending = false;

  constructor(
    private readonly core: Core,
    readonly flavour: GitOpsFlavour,
    /** Where its acts are logged, in order. */
    readonly log: string[],
  ) {}

  start(): void {
    const gr = grOf(this.rt());
    this.unsubscribe = this.core.store.subscribe((e) => {
      if (e.gr !== gr && e.gr !== 'namespaces') return;
      if (this.pending) return;
      this.pending = true;
      setImmediate(() => {
        this.pending = false;
        this.reconcile();
      });
    });
    this.reconcile();
  }

  stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
  }

  private rt(): ResourceType {
    const t = GITOPS_TYPES[this.flavour];
    const rt = this.core.registry.byGroupResource(t.group, t.plural);
    if (!rt) throw new Error(`GitOpsController: ${t.plural}.${t.group} is not served (add its CRD)`);
    return rt;
  }

  private namespaceType(): ResourceType {
    return this.core.registry.byGroupResource('', 'namespaces')!;
  }

  private reconcile(): void {
    if (!this.unsubscribe) return;
    for (const o of this.core.store.list(grOf(this.rt()))) {
      if (o.metadata.deletionTimestamp) this.finalize(o);
      else if (applies(this.flavour, o)) for (const ns of managed(this.flavour, o)) this.ensure(o, ns);
    }
  }

  /** Create the namespace again when it is gone (a Terminating one waits until it is). */
  private ensure(o: KObj, ns: string): void {
    if (this.core.store.get('namespaces', undefined, ns)) return;
    const labels =
      this.flavour === 'flux'
        ? {
            'kustomize.toolkit.fluxcd.io/name': o.metadata.name,
            'kustomize.toolkit.fluxcd.io/namespace': o.metadata.namespace ?? '',
          }
        : { 'argocd.argoproj.io/instance': o.metadata.name };
    this.core.api.create(this.namespaceType(), '', { metadata: { name: ns, labels } }, systemCtx());
    this.log.push(`recreated namespace ${ns}`);
  }

  /** An owner being deleted: prune what it applied when its finalizer says so, then release it. */
  private finalize(o: KObj): void {
    const finalizer = this.flavour === 'flux' ? FLUX_FINALIZER : ARGO_FINALIZER;
    const finalizers = o.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const prunes = this.flavour === 'argo' || fluxPrunes(asRecord(o.spec));
    const name = `${GITOPS_TYPES[this.flavour].kind} ${o.metadata.namespace}/${o.metadata.name}`;
    if (prunes) {
      const namespaces = managed(this.flavour, o).map((ns) => ({
        namespace: '',
        name: ns,
        group: '',
        kind: 'Namespace',
      }));
      const all = new Map([...applied(this.flavour, o), ...namespaces].map((a) => [JSON.stringify(a), a]));
      for (const a of all.values()) this.prune(name, a);
    } else this.log.push(`${name}: deleted without pruning`);
    const next = clone(o);
    next.metadata.finalizers = finalizers.filter((f) => f !== finalizer);
    try {
      this.core.api.commit(this.rt(), o, next, '', systemCtx());
    } catch {
      // A conflict: the next event reconciles it again.
    }
  }

  /** Delete one object the owner applied, when it is there (the namespace's own objects go with it anyway). */
  private prune(owner: string, a: Applied): void {
    const rt = this.core.registry.all().find((t) => t.group === a.group && t.kind === a.kind);
    if (!rt || !this.core.store.get(grOf(rt), rt.namespaced ? a.namespace : undefined, a.name)) return;
    const options = parseDeleteOptions(new URLSearchParams(), undefined);
    deleteObject(this.core.api, rt, rt.namespaced ? a.namespace : '', a.name, options, systemCtx());
    const what =
      rt.kind === 'Namespace'
        ? `namespace ${a.name}`
        : `${rt.kind} ${rt.namespaced ? `${a.namespace}/` : ''}${a.name}`;
    this.log.push(`${owner}: pruned ${what}`);
  }
}

/**
 * A Flux Kustomization in `flux-system` whose inventory holds the Namespace objects `namespaces` and, in each,
 * `objectsPerNamespace` ConfigMaps (as kustomize-controller records what it applied), then the ids of `more`
 * (e.g. `_web-reader_rbac.authorization.k8s.io_ClusterRole`).
 */
export function kustomizationBody(o: {
  name: string;
  namespaces: string[];
  prune?: boolean;
  suspend?: boolean;
  deletionPolicy?: string;
  objectsPerNamespace?: number;
  more?: string[];
}): Record<string, unknown> {
  const entries = o.namespaces.flatMap((ns) => [
    { id: `_${ns}__Namespace`, v: 'v1' },
    ...Array.from({ length: o.objectsPerNamespace ?? 0 }, (_, i) => ({
      id: `${ns}_cm-${i}__ConfigMap`,
      v: 'v1',
    })),
  ]);
  entries.push(...(o.more ?? []).map((id) => ({ id, v: 'v1' })));
  return {
    apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
    kind: 'Kustomization',
    metadata: { namespace: 'flux-system', name: o.name, finalizers: [FLUX_FINALIZER] },
    spec: {
      interval: '1m',
      path: './previews',
      prune: o.prune ?? true,
      sourceRef: { kind: 'GitRepository', name: 'previews' },
      ...(o.suspend ? { suspend: true } : {}),
      ...(o.deletionPolicy ? { deletionPolicy: o.deletionPolicy } : {}),
    },
    status: {
      inventory: { entries },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision' },
      ],
    },
  };
}

/**
 * An Argo CD Application in `argocd` syncing into `namespace` (created with CreateNamespace=true), automated, whose
 * `status.resources` hold `resources` ConfigMaps there, then `more` (a cluster-scoped one has no `namespace`).
 */
export function applicationBody(o: {
  name: string;
  namespace: string;
  resources?: number;
  finalizer?: boolean;
  automated?: boolean;
  more?: Record<string, unknown>[];
}): Record<string, unknown> {
  const resources: Record<string, unknown>[] = Array.from({ length: o.resources ?? 0 }, (_, i) => ({
    version: 'v1',
    kind: 'ConfigMap',
    namespace: o.namespace,
    name: `cm-${i}`,
  }));
  resources.push(...(o.more ?? []));
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Application',
    metadata: {
      namespace: 'argocd',
      name: o.name,
      ...(o.finalizer === false ? {} : { finalizers: [ARGO_FINALIZER] }),
    },
    spec: {
      project: 'default',
      source: { repoURL: 'https://git.example.com/shop.git', path: 'deploy', targetRevision: o.name },
      destination: { server: 'https://kubernetes.default.svc', namespace: o.namespace },
      syncPolicy: {
        ...(o.automated === false ? {} : { automated: { prune: true, selfHeal: true } }),
        syncOptions: ['CreateNamespace=true'],
      },
    },
    status: { reconciledAt: new Date().toISOString(), sync: { status: 'Synced' }, resources },
  };
}
