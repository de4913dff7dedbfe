/**
 * A GitOps controller model, as far as a teardown meets one: Flux's kustomize-controller (Kustomizations) or Argo CD's
 * application controller (Applications). While an owner exists, is not suspended (Flux `spec.suspend`) or still syncs
 * on its own (Argo CD `spec.syncPolicy.automated`) and is not being deleted, every namespace it manages that is gone
 * is created again. An owner being deleted is pruned through its finalizer: Flux deletes what its inventory holds when
 * `spec.prune` is true and it is not suspended; Argo CD deletes its managed namespace under
 * `resources-finalizer.argocd.argoproj.io`. Every act is logged, e.g. `recreated namespace pr-5`.
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

  /** An owner being deleted: prune what it manages when its finalizer says so, then release it. */
  private finalize(o: KObj): void {
    const finalizer = this.flavour === 'flux' ? FLUX_FINALIZER : ARGO_FINALIZER;
    const finalizers = o.metadata.finalizers ?? [];
    if (!finalizers.includes(finalizer)) return;
    const spec = asRecord(o.spec);
    const prunes = this.flavour === 'argo' || (spec.prune === true && spec.suspend !== true);
    const name = `${GITOPS_TYPES[this.flavour].kind} ${o.metadata.namespace}/${o.metadata.name}`;
    if (prunes) {
      for (const ns of managed(this.flavour, o)) {
        if (!this.core.store.get('namespaces', undefined, ns)) continue;
        const options = parseDeleteOptions(new URLSearchParams(), undefined);
        deleteObject(this.core.api, this.namespaceType(), '', ns, options, systemCtx());
        this.log.push(`${name}: pruned namespace ${ns}`);
      }
    } else this.log.push(`${name}: deleted without pruning`);
    const next = clone(o);
    next.metadata.finalizers = finalizers.filter((f) => f !== finalizer);
    try {
      this.core.api.commit(this.rt(), o, next, '', systemCtx());
    } catch {
      // A conflict: the next event reconciles it again.
    }
  }
}

/**
 * A Flux Kustomization in `flux-system` whose inventory holds the Namespace objects `namespaces` and, in each,
 * `objectsPerNamespace` ConfigMaps (as kustomize-controller records what it applied).
 */
export function kustomizationBody(o: {
  name: string;
  namespaces: string[];
  prune?: boolean;
  suspend?: boolean;
  objectsPerNamespace?: number;
}): Record<string, unknown> {
  const entries = o.namespaces.flatMap((ns) => [
    { id: `_${ns}__Namespace`, v: 'v1' },
    ...Array.from({ length: o.objectsPerNamespace ?? 0 }, (_, i) => ({
      id: `${ns}_cm-${i}__ConfigMap`,
      v: 'v1',
    })),
  ]);
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
    },
    status: {
      inventory: { entries },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'ReconciliationSucceeded', message: 'Applied revision' },
      ],
    },
  };
}

/** An Argo CD Application in `argocd` syncing into `namespace` (created with CreateNamespace=true), automated. */
export function applicationBody(o: {
  name: string;
  namespace: string;
  resources?: number;
  finalizer?: boolean;
  automated?: boolean;
}): Record<string, unknown> {
  const resources = Array.from({ length: o.resources ?? 0 }, (_, i) => ({
    version: 'v1',
    kind: 'ConfigMap',
    namespace: o.namespace,
    name: `cm-${i}`,
  }));
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
