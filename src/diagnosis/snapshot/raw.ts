/** Raw API objects (unknown JSON) turned into the small states the rules read; tolerant of missing fields. */
import type { ObjectMeta } from '../../model/cluster.js';
import { servedWhere } from '../refs.js';
import type {
  ApiServiceState,
  BindingState,
  ConversionState,
  CrdState,
  LeaseState,
  NodeState,
  PodState,
  RbacRule,
  RoleState,
  WebhookState,
  WorkloadState,
} from '../types.js';
import { arr, obj, str, strs, type Json } from './untrusted-json.js';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const meta = (o: unknown): Json => obj(obj(o).metadata);

/** The condition of the given type in `status.conditions`. */
function condition(o: unknown, type: string): Json | undefined {
  return arr(obj(obj(o).status).conditions)
    .map(obj)
    .find((c) => c.type === type);
}

/** An APIService, without its backing (looked up separately). */
export function toApiService(o: unknown): ApiServiceState {
  const spec = obj(obj(o).spec);
  const svc = spec.service ? obj(spec.service) : undefined;
  const available = condition(o, 'Available');
  return {
    name: str(meta(o).name) ?? '',
    group: str(spec.group) ?? '',
    version: str(spec.version) ?? '',
    service: svc && { namespace: str(svc.namespace) ?? '', name: str(svc.name) ?? '', port: num(svc.port) },
    available: available && {
      status: str(available.status) ?? 'Unknown',
      reason: str(available.reason),
      message: str(available.message),
    },
  };
}

/** Ready addresses across EndpointSlices; an endpoint with no `ready` condition counts as ready (API contract). */
export function readyAddresses(slices: unknown[]): number {
  let n = 0;
  for (const slice of slices) {
    for (const ep of arr(obj(slice).endpoints).map(obj)) {
      if (obj(ep.conditions).ready !== false) n += strs(ep.addresses).length;
    }
  }
  return n;
}

/** The webhooks of one configuration that intercept DELETE; others are dropped. */
export function toWebhooks(o: unknown, kind: WebhookState['kind']): WebhookState[] {
  const configuration = str(meta(o).name) ?? '';
  const all = arr(obj(o).webhooks).map(obj);
  const clients = all.map((w) => clientOf(obj(w.clientConfig)));
  const served = all.map((w, i) => ({ name: str(w.name) ?? '', served: servedWhere(clients[i]!) }));
  return all.flatMap((w, index) => {
    const deleteResources = arr(w.rules).flatMap((r) => deleteTargets(obj(r)));
    if (deleteResources.length === 0) return [];
    return [
      {
        configuration,
        kind,
        name: str(w.name) ?? '',
        // admissionregistration.k8s.io/v1 defaults failurePolicy to Fail.
        failurePolicy: w.failurePolicy === 'Ignore' ? 'Ignore' : 'Fail',
        deleteResources: [...new Set(deleteResources)].sort(),
        ...clients[index]!,
        index,
        siblings: served.filter((_, i) => i !== index),
      },
    ];
  });
}

/** A webhook's `clientConfig`: its service, or its URL. */
function clientOf(client: Json): Pick<WebhookState, 'service' | 'url'> {
  const svc = client.service ? obj(client.service) : undefined;
  return {
    service: svc && { namespace: str(svc.namespace) ?? '', name: str(svc.name) ?? '' },
    url: str(client.url),
  };
}

function deleteTargets(rule: Json): string[] {
  const ops = strs(rule.operations);
  if (!ops.includes('DELETE') && !ops.includes('*')) return [];
  const groups = strs(rule.apiGroups);
  return strs(rule.resources).flatMap((res) =>
    (groups.length ? groups : ['']).map((g) => (res === '*' && g === '*' ? '*' : g ? `${res}.${g}` : res)),
  );
}

/** A pod with its node, grace period, finalizers and the claims it mounts. */
export function toPod(o: unknown): PodState {
  const m = meta(o);
  const spec = obj(obj(o).spec);
  const name = str(m.name) ?? '';
  const claims = arr(spec.volumes).flatMap((raw) => {
    const v = obj(raw);
    const claim = str(obj(v.persistentVolumeClaim).claimName);
    if (claim) return [claim];
    // Generic ephemeral volumes create a claim named <pod>-<volume>.
    return v.ephemeral !== undefined && str(v.name) ? [`${name}-${str(v.name)}`] : [];
  });
  return {
    name,
    uid: str(m.uid) ?? '',
    phase: str(obj(obj(o).status).phase) ?? 'Unknown',
    nodeName: str(spec.nodeName),
    deletionTimestamp: str(m.deletionTimestamp),
    terminationGracePeriodSeconds:
      num(m.deletionGracePeriodSeconds) ?? num(spec.terminationGracePeriodSeconds),
    finalizers: strs(m.finalizers),
    claims,
  };
}

/** A node's Ready status; `undefined` input means the node does not exist. */
export function toNode(name: string, o: unknown): NodeState {
  if (o === undefined) return { name, exists: false, ready: 'Unknown' };
  const ready = condition(o, 'Ready');
  const since = str(ready?.lastTransitionTime);
  return {
    name,
    exists: true,
    ready: str(ready?.status) ?? 'Unknown',
    ...(since ? { readySince: since } : {}),
  };
}

/**
 * A CRD from its metadata alone (`plural.group` is its name): Helm and app.kubernetes.io hints about who installed it,
 * and whether it is itself being deleted.
 */
export function crdFromMeta(m: ObjectMeta): CrdState {
  const dot = m.name.indexOf('.');
  return {
    name: m.name,
    group: dot < 0 ? '' : m.name.slice(dot + 1),
    plural: dot < 0 ? m.name : m.name.slice(0, dot),
    kind: '',
    hints: ownerHints({ ...m.labels, ...m.ownerAnnotations }),
    ...(m.deletionTimestamp ? { deleting: m.deletionTimestamp } : {}),
  };
}

function ownerHints(pairs: Record<string, string>): string[] {
  return Object.entries(pairs)
    .filter(([k]) => /^(meta\.helm\.sh\/|app\.kubernetes\.io\/|operators\.coreos\.com\/|olm\.)/.test(k))
    .map(([k, v]) => `${k}=${v}`)
    .sort();
}

/** A Deployment, StatefulSet or DaemonSet with the images, args and labels used to match it to a finalizer. */
export function toWorkload(o: unknown, kind: string): WorkloadState {
  const m = meta(o);
  const status = obj(obj(o).status);
  const pod = obj(obj(obj(obj(o).spec).template).spec);
  const containers = [...arr(pod.containers), ...arr(pod.initContainers)].map(obj);
  const hints = [
    ...containers.flatMap((c) => [str(c.image) ?? '', ...strs(c.args), ...strs(c.command)]),
    ...Object.entries(obj(m.labels)).map(([k, v]) => `${k}=${String(v)}`),
  ].filter((h) => h !== '');
  return {
    namespace: str(m.namespace) ?? '',
    name: str(m.name) ?? '',
    kind,
    readyReplicas: num(status.readyReplicas) ?? num(status.numberReady) ?? 0,
    deleting: str(m.deletionTimestamp) !== undefined,
    hints,
    serviceAccount: str(pod.serviceAccountName) ?? str(pod.serviceAccount) ?? 'default',
    containers: containers.flatMap((c) => (str(c.name) ? [str(c.name)!] : [])),
  };
}

function toRules(v: unknown): RbacRule[] {
  return arr(v)
    .map(obj)
    .map((r) => ({ apiGroups: strs(r.apiGroups), resources: strs(r.resources), verbs: strs(r.verbs) }));
}

/** A Role or ClusterRole with its rules (aggregated ClusterRoles carry the aggregated rules already). */
export function toRole(o: unknown, kind: RoleState['kind']): RoleState {
  const namespace = str(meta(o).namespace);
  return {
    kind,
    ...(namespace ? { namespace } : {}),
    name: str(meta(o).name) ?? '',
    rules: toRules(obj(o).rules),
  };
}

/** A RoleBinding or ClusterRoleBinding. */
export function toBinding(o: unknown, kind: BindingState['kind']): BindingState {
  const namespace = str(meta(o).namespace);
  const ref = obj(obj(o).roleRef);
  return {
    kind,
    ...(namespace ? { namespace } : {}),
    name: str(meta(o).name) ?? '',
    role: { kind: str(ref.kind) ?? '', name: str(ref.name) ?? '' },
    subjects: arr(obj(o).subjects)
      .map(obj)
      .map((x) => ({
        kind: str(x.kind) ?? '',
        name: str(x.name) ?? '',
        ...(str(x.namespace) ? { namespace: str(x.namespace) } : {}),
      })),
  };
}

/** A Lease: its holder and last renewal. */
export function toLease(o: unknown): LeaseState {
  const spec = obj(obj(o).spec);
  return {
    namespace: str(meta(o).namespace) ?? '',
    name: str(meta(o).name) ?? '',
    holder: str(spec.holderIdentity),
    renewTime: str(spec.renewTime),
    durationSeconds: num(spec.leaseDurationSeconds),
  };
}

/** A CRD's versions and conversion settings, for a type whose conversion failed. */
export function toConversionDefinition(o: unknown): NonNullable<ConversionState['definition']> {
  const spec = obj(obj(o).spec);
  const versions = arr(spec.versions).map(obj);
  const conversion = obj(spec.conversion);
  const client = obj(obj(conversion.webhook).clientConfig ?? conversion.webhookClientConfig);
  const svc = client.service ? obj(client.service) : undefined;
  return {
    storageVersion: str(versions.find((v) => v.storage === true)?.name),
    served: versions.filter((v) => v.served !== false).flatMap((v) => (str(v.name) ? [str(v.name)!] : [])),
    storedVersions: strs(obj(obj(o).status).storedVersions),
    strategy: str(conversion.strategy),
    service: svc && {
      namespace: str(svc.namespace) ?? '',
      name: str(svc.name) ?? '',
      path: str(svc.path),
      port: num(svc.port),
    },
    url: str(client.url),
  };
}
