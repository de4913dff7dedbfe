/**
 * GitOps owners as actors that recreate a namespace: a Flux Kustomization or HelmRelease, an Argo CD Application or
 * ApplicationSet that applies the Namespace object itself (or creates it), alive when its controller is (a workload RBAC
 * ties to the owner's type, or the owner's own `status.reconciledAt`), not when it is suspended or being deleted. Pure.
 */
import type { NamespaceState } from '../../model/cluster.js';
import { secondsBetween } from '../refs.js';
import type { GitOpsOwner, Snapshot } from '../types.js';
import type { Actor, Liveness } from './actor-types.js';
import { releasers } from './workloads.js';

/** What the recreate verdict reads: the owners, and what ties their controllers to them. */
export type GitOpsView = Pick<Snapshot, 'takenAt' | 'workloads' | 'rbac' | 'leases' | 'readErrors'> & {
  namespace: Pick<NamespaceState, 'name' | 'labels'>;
  gitops: GitOpsOwner[];
};

/** Argo CD refreshes every Application at least every 3 minutes (timeout.reconciliation, plus jitter). */
const RECONCILED_WITHIN_S = 600;

/** Labels by which a GitOps controller marks the objects it applied: label → the owner kind it names. */
const TRACKING: { name: string; namespace?: string; kind: GitOpsOwner['kind'] }[] = [
  {
    name: 'kustomize.toolkit.fluxcd.io/name',
    namespace: 'kustomize.toolkit.fluxcd.io/namespace',
    kind: 'Kustomization',
  },
  { name: 'helm.toolkit.fluxcd.io/name', namespace: 'helm.toolkit.fluxcd.io/namespace', kind: 'HelmRelease' },
  { name: 'argocd.argoproj.io/instance', kind: 'Application' },
  { name: 'app.kubernetes.io/instance', kind: 'Application' },
];

const ref = (o: GitOpsOwner): string => `${o.kind} ${o.namespace}/${o.name}`;

/** Why `o` would bring `ns` back: it applies the Namespace object, creates it, or the namespace carries its label. */
export function linkOf(o: GitOpsOwner, ns: string, labels: Record<string, string>): string | undefined {
  if (o.createsNamespace.includes(ns)) {
    const how =
      o.kind === 'Kustomization'
        ? `its status.inventory holds the Namespace object (_${ns}__Namespace)`
        : o.kind === 'HelmRelease'
          ? 'spec.install.createNamespace: true'
          : 'it creates its destination namespace (CreateNamespace=true, or the Namespace is among its resources)';
    return `${ref(o)} targets namespace ${ns}: ${how}`;
  }
  for (const t of TRACKING) {
    if (t.kind !== o.kind || labels[t.name] !== o.name) continue;
    if (t.namespace && labels[t.namespace] !== o.namespace) continue;
    return `namespace ${ns} carries ${t.name}=${o.name}: ${ref(o)} applied it`;
  }
  return undefined;
}

/** Whether the owner will apply again: not suspended, not being deleted, and its controller alive. */
function ownerLiveness(v: GitOpsView, o: GitOpsOwner): Liveness {
  if (o.deleting)
    return { state: 'down', evidence: [`${ref(o)} is being deleted (it prunes, it does not apply)`] };
  if (o.paused) return { state: 'down', evidence: [`${ref(o)}: ${o.paused}`] };
  const ago = secondsBetween(o.reconciledAt, v.takenAt);
  // A time more than a minute ahead of the snapshot is no evidence (a skewed or forged clock): read on.
  if (ago !== undefined && ago >= -60) {
    const when = `${ref(o)} was reconciled ${ago}s ago (status.reconciledAt)`;
    return { state: ago <= RECONCILED_WITHIN_S ? 'live' : 'down', evidence: [when] };
  }
  // Its own status, where its controller wrote lately: that controller ran then, whatever its rights show.
  const wrote = o.activity && secondsBetween(o.activity.at, v.takenAt);
  if (o.activity && wrote !== undefined && wrote >= -60 && wrote <= RECONCILED_WITHIN_S)
    return { state: 'live', evidence: [`${ref(o)}: its controller wrote ${o.activity.field} ${wrote}s ago`] };
  // Its controller: the workloads RBAC lets update objects of the owner's type.
  const s = { ...v, leftovers: [], crds: [], earlier: undefined } as unknown as Snapshot;
  const found = releasers(s, { types: [{ group: o.group, resource: o.resource }], uids: [] });
  const tied = found.actors.filter((a) => a.reach !== 'any');
  const live = tied.find((a) => a.liveness.state === 'live');
  if (live) return { state: 'live', evidence: [live.link, ...live.liveness.evidence].slice(0, 2) };
  if (tied.length > 0) return { state: 'down', evidence: tied[0]!.liveness.evidence };
  const why = found.unread[0] ?? `no workload that may update ${o.resource}.${o.group} was found`;
  const old =
    o.activity && wrote !== undefined
      ? [`its status was last written ${wrote}s ago (${o.activity.field})`]
      : [];
  return { state: 'unknown', evidence: [`whether its controller runs could not be told: ${why}`, ...old] };
}

/** The ApplicationSet that generates an Application: in the Application's namespace, as its ownerReference says. */
function generatorOf(o: GitOpsOwner): Pick<Actor, 'generator'> {
  const [kind, name] = o.generatedBy?.split(' ') ?? [];
  return kind && name ? { generator: { kind, namespace: o.namespace, name } } : {};
}

/** The GitOps owners that would bring the namespace back once it is gone, with their liveness. */
export function recreators(v: GitOpsView): Actor[] {
  const ns = v.namespace.name;
  return v.gitops.flatMap((o): Actor[] => {
    const link = linkOf(o, ns, v.namespace.labels);
    if (!link) return [];
    const generated = o.generatedBy ? `; generated by ${o.generatedBy}` : '';
    const others = [...new Set([...o.targets.map((t) => t.namespace), ...o.createsNamespace])].filter(
      (n) => n !== ns,
    );
    const beyond =
      others.length > 0 || o.reachUnread
        ? { beyond: { namespaces: others, ...(o.reachUnread ? { unread: o.reachUnread } : {}) } }
        : {};
    return [
      {
        name: ref(o),
        kind: 'gitops-owner',
        role: 'recreates',
        link: `${link}${generated}`,
        reach: 'specific',
        liveness: ownerLiveness(v, o),
        namespace: o.namespace,
        ...beyond,
        ...generatorOf(o),
      },
    ];
  });
}
