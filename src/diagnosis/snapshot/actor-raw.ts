/** Raw API objects the actor model reads, turned into its small states; tolerant of missing fields. Pure. */
import type { ComponentPod, GitOpsOwner, PolicyBindingState } from '../types.js';
import { arr, obj, str, strs, type Json } from './untrusted-json.js';

/** A pod of kube-controller-manager or cloud-controller-manager: ready or not, and its `--cloud-provider`. */
export function toComponentPod(o: unknown): ComponentPod {
  const m = obj(obj(o).metadata);
  const words = arr(obj(obj(o).spec).containers).flatMap((c) => [
    ...strs(obj(c).command),
    ...strs(obj(c).args),
  ]);
  const flag = words.find((w) => w.startsWith('--cloud-provider='));
  const ready = arr(obj(obj(o).status).conditions)
    .map(obj)
    .some((c) => c.type === 'Ready' && c.status === 'True');
  return {
    namespace: str(m.namespace) ?? '',
    name: str(m.name) ?? '',
    component: str(obj(m.labels).component) ?? '',
    ready: ready && !str(m.deletionTimestamp),
    cloudProvider: flag ? flag.slice('--cloud-provider='.length) : '',
  };
}

const cond = (o: unknown, type: string): Json | undefined =>
  arr(obj(obj(o).status).conditions)
    .map(obj)
    .find((c) => c.type === type);

const line = (c: Json | undefined): string | undefined =>
  c &&
  `${str(c.type) ?? ''}=${str(c.status) ?? ''}${c.reason ? ` (${String(c.reason)})` : ''}${c.message ? `: ${String(c.message)}` : ''}`;

function ownerBase(o: unknown, kind: GitOpsOwner['kind'], group: string, resource: string) {
  const m = obj(obj(o).metadata);
  const deleting = str(m.deletionTimestamp);
  const [uid, resourceVersion, apiVersion] = [str(m.uid), str(m.resourceVersion), str(obj(o).apiVersion)];
  return {
    kind,
    group,
    resource,
    namespace: str(m.namespace) ?? '',
    name: str(m.name) ?? '',
    ...(deleting ? { deleting } : {}),
    ...(uid ? { uid } : {}),
    ...(resourceVersion ? { resourceVersion } : {}),
    ...(apiVersion ? { apiVersion } : {}),
    finalizers: strs(m.finalizers),
  };
}

/** One object of a Flux inventory, or of Argo CD's `status.resources` (`namespace` empty: cluster-scoped). */
type Applied = { namespace: string; name: string; group: string; kind: string };

/**
 * A Flux inventory id, `<namespace>_<name>_<group>_<kind>`, read as Flux's cli-utils reads it: the namespace up to the
 * first `_`, kind and group from the end, the rest the name (`__` in it a `:`, as RBAC names have); undefined when the
 * id is not of that form.
 */
function inventoryEntry(id: string): Applied | undefined {
  const [first, last] = [id.indexOf('_'), id.lastIndexOf('_')];
  const rest = id.slice(first + 1, last);
  const cut = rest.lastIndexOf('_');
  const name = rest.slice(0, cut).replaceAll('__', ':');
  const kind = id.slice(last + 1);
  if (first < 0 || last <= first || cut < 0 || !name || name.includes('_') || !kind) return undefined;
  return { namespace: id.slice(0, first), name, group: rest.slice(cut + 1), kind };
}

/** A Flux inventory: every entry it holds, or why it cannot be read whole. */
function inventoryOf(inventory: unknown): { entries: Applied[]; unread?: string } {
  if (inventory === undefined || inventory === null)
    return { entries: [], unread: 'it has no status.inventory' };
  const list = obj(inventory).entries ?? [];
  if (!Array.isArray(list)) return { entries: [], unread: 'its status.inventory.entries is not a list' };
  const ids = list.map((e) => str(obj(e).id) ?? '');
  const bad = ids.find((id) => inventoryEntry(id) === undefined);
  const entries = ids.flatMap((id) => inventoryEntry(id) ?? []);
  if (bad === undefined) return { entries };
  return {
    entries,
    unread: `its status.inventory holds an id that is not <namespace>_<name>_<group>_<kind> ("${bad.slice(0, 120)}")`,
  };
}

/** The cluster-scoped objects among `applied`. */
const clusterScoped = (applied: Applied[]): GitOpsOwner['clusterObjects'] =>
  applied.filter((a) => a.namespace === '').map(({ group, kind, name }) => ({ group, kind, name }));

/**
 * A Flux Kustomization: the namespace it applies into (`spec.targetNamespace`), and what its inventory holds — a
 * `_<ns>__Namespace` entry is the Namespace object itself, `<ns>_<name>_<group>_<kind>` an object in it, an entry
 * without a namespace any other cluster-scoped object (a CRD, a ClusterRole).
 */
export function toKustomization(o: unknown): GitOpsOwner {
  const spec = obj(obj(o).spec);
  const { entries, unread } = inventoryOf(obj(obj(o).status).inventory);
  const target = str(spec.targetNamespace);
  const targets = [
    ...(target ? [{ namespace: target, field: 'spec.targetNamespace' }] : []),
    ...entries
      .filter((e) => e.namespace !== '')
      .map((e) => ({ namespace: e.namespace, field: 'status.inventory' })),
  ];
  const ready = line(cond(o, 'Ready'));
  const deletionPolicy = str(spec.deletionPolicy);
  return {
    ...ownerBase(o, 'Kustomization', 'kustomize.toolkit.fluxcd.io', 'kustomizations'),
    targets: dedupe(targets),
    createsNamespace: entries
      .filter((e) => e.kind === 'Namespace' && e.group === '' && e.namespace === '')
      .map((e) => e.name),
    prune: spec.prune === true,
    objects: entries.length,
    ...(unread ? { reachUnread: unread } : { clusterObjects: clusterScoped(entries) }),
    ...(deletionPolicy ? { deletionPolicy } : {}),
    ...(spec.suspend === true ? { paused: 'spec.suspend: true' } : {}),
    ...(ready ? { ready } : {}),
  };
}

/** A Flux HelmRelease: it installs into `spec.targetNamespace` (else its own), creating it with `install.createNamespace`. */
export function toHelmRelease(o: unknown): GitOpsOwner {
  const spec = obj(obj(o).spec);
  const base = ownerBase(o, 'HelmRelease', 'helm.toolkit.fluxcd.io', 'helmreleases');
  const target = str(spec.targetNamespace) ?? base.namespace;
  const creates = obj(spec.install).createNamespace === true;
  const ready = line(cond(o, 'Ready'));
  return {
    ...base,
    targets: [
      { namespace: target, field: str(spec.targetNamespace) ? 'spec.targetNamespace' : 'metadata.namespace' },
    ],
    createsNamespace: creates ? [target] : [],
    ...(spec.suspend === true ? { paused: 'spec.suspend: true' } : {}),
    ...(ready ? { ready } : {}),
  };
}

/**
 * An Argo CD Application: its `spec.destination.namespace`; it creates that namespace with the sync option
 * `CreateNamespace=true` or when the Namespace object is among its resources; it applies on its own only with
 * automated sync.
 */
export function toApplication(o: unknown): GitOpsOwner {
  const spec = obj(obj(o).spec);
  const status = obj(obj(o).status);
  const dest = str(obj(spec.destination).namespace);
  const policy = obj(spec.syncPolicy);
  const resources = arr(status.resources).map(obj);
  const applied = resources.map((r) => ({
    namespace: str(r.namespace) ?? '',
    name: str(r.name) ?? '',
    group: str(r.group) ?? '',
    kind: str(r.kind) ?? '',
  }));
  const unread = resourcesUnread(status.resources, applied);
  const namespaces = resources
    .filter((r) => r.kind === 'Namespace' && !r.group)
    .flatMap((r) => str(r.name) ?? []);
  const inNs = resources.flatMap((r) => (str(r.namespace) ? [str(r.namespace)!] : []));
  const createOption = strs(policy.syncOptions).includes('CreateNamespace=true');
  const owner = arr(obj(obj(o).metadata).ownerReferences)
    .map(obj)
    .find((r) => r.kind === 'ApplicationSet');
  const reconciledAt = str(status.reconciledAt);
  const sync = str(obj(status.sync).status);
  return {
    ...ownerBase(o, 'Application', 'argoproj.io', 'applications'),
    targets: dedupe([
      ...(dest ? [{ namespace: dest, field: 'spec.destination.namespace' }] : []),
      ...inNs.map((namespace) => ({ namespace, field: 'status.resources' })),
    ]),
    createsNamespace: [...new Set([...namespaces, ...(createOption && dest ? [dest] : [])])],
    ...(policy.automated === undefined || policy.automated === null
      ? { paused: 'no spec.syncPolicy.automated: it applies only when someone syncs it' }
      : {}),
    objects: resources.length,
    ...(unread ? { reachUnread: unread } : { clusterObjects: clusterScoped(applied) }),
    ...(reconciledAt ? { reconciledAt } : {}),
    ...(sync ? { ready: `sync=${sync}` } : {}),
    ...(owner ? { generatedBy: `ApplicationSet ${str(owner.name) ?? ''}` } : {}),
  };
}

/** Why Argo CD's `status.resources` cannot be read whole, when it cannot. */
function resourcesUnread(resources: unknown, applied: Applied[]): string | undefined {
  if (resources === undefined || resources === null) return 'it has no status.resources';
  if (!Array.isArray(resources)) return 'its status.resources is not a list';
  if (applied.some((a) => !a.kind || !a.name))
    return 'its status.resources holds an entry without its kind or name';
  return undefined;
}

function dedupe(targets: GitOpsOwner['targets']): GitOpsOwner['targets'] {
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(t.namespace) && seen.add(t.namespace));
}

/**
 * An Argo CD ApplicationSet: the namespace its template's `spec.destination.namespace` names, when it is literal
 * (a `{{…}}` template is resolved in the Applications it generates, which are read themselves).
 */
export function toApplicationSet(o: unknown): GitOpsOwner {
  const template = obj(obj(obj(obj(o).spec).template).spec);
  const dest = str(obj(template.destination).namespace);
  const literal = dest && !dest.includes('{{') ? dest : undefined;
  const createOption = strs(obj(template.syncPolicy).syncOptions).includes('CreateNamespace=true');
  return {
    ...ownerBase(o, 'ApplicationSet', 'argoproj.io', 'applicationsets'),
    targets: literal ? [{ namespace: literal, field: 'spec.template.spec.destination.namespace' }] : [],
    createsNamespace: literal && createOption ? [literal] : [],
  };
}

/** A ValidatingAdmissionPolicyBinding's paramRef and its policy's paramKind (`v1 ConfigMap`). */
export function toPolicyBinding(binding: string, policy: string, b: unknown, p: unknown): PolicyBindingState {
  const ref = obj(obj(obj(b).spec).paramRef);
  const kind = obj(obj(obj(p).spec).paramKind);
  const selector = obj(ref.selector);
  const labels = Object.entries(obj(selector.matchLabels)).map(([k, v]) => `${k}=${String(v)}`);
  const paramRef = {
    ...(str(ref.name) ? { name: str(ref.name) } : {}),
    ...(str(ref.namespace) ? { namespace: str(ref.namespace) } : {}),
    ...(labels.length ? { selector: labels.join(',') } : {}),
    ...(str(ref.parameterNotFoundAction)
      ? { parameterNotFoundAction: str(ref.parameterNotFoundAction) }
      : {}),
  };
  return {
    binding,
    policy: str(obj(obj(b).spec).policyName) ?? policy,
    ...(Object.keys(paramRef).length ? { paramRef } : {}),
    ...(str(kind.kind) ? { paramKind: `${str(kind.apiVersion) ?? 'v1'} ${str(kind.kind)!}` } : {}),
  };
}
