/** An in-memory Kube that records every call and applies API-server rules for the calls forcing makes. */
import {
  KubeError,
  type DeleteAnswer,
  type Discovery,
  type Kube,
  type MetaPage,
  type WatchHandle,
  type WriteAnswer,
} from '../../src/kube/port.js';
import { type ApiResource, type NamespaceState, type ObjectMeta } from '../../src/model/cluster.js';

type Res = Pick<ApiResource, 'group' | 'version' | 'resource'>;

interface Stored {
  res: Res;
  meta: ObjectMeta;
}

const label = (res: Res): string => (res.group === '' ? res.resource : `${res.resource}.${res.group}`);
const pathOf = (res: Res, namespace: string, name: string): string =>
  `${res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`}/namespaces/${namespace}/${res.resource}/${name}`;
const list = (items: readonly string[]): string => `[${items.join(',')}]`;

/** The answer a write gets: the object as stored after it. */
const answerOf = (meta: ObjectMeta, spec: string[] = []): WriteAnswer => ({
  meta: structuredClone(meta),
  specFinalizers: [...spec],
  specFinalizerManagers: [],
  object: { metadata: structuredClone(meta), ...(spec.length ? { spec: { finalizers: [...spec] } } : {}) },
});

/** A namespace as an object's metadata, for its answers. */
const nsMeta = (ns: NamespaceState): ObjectMeta => ({
  name: ns.name,
  uid: ns.uid,
  resourceVersion: ns.resourceVersion,
  finalizers: [...ns.metadataFinalizers],
  ownerReferences: [],
  labels: { ...ns.labels },
  ...(ns.deletionTimestamp ? { deletionTimestamp: ns.deletionTimestamp } : {}),
});

const MUTATING = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';

/** Reads and writes as compact lines, e.g. `PATCH kialis.kiali.io x/kiali uid=u rv=7 [a]`. */
export class RecordingKube implements Kube {
  readonly calls: string[] = [];
  readonly namespaces = new Map<string, NamespaceState>();
  readonly objects = new Map<string, Stored>();
  /** Whole objects by path (pods, nodes) for the reads and the pod delete of step 0. */
  readonly raws = new Map<string, { metadata: ObjectMeta } & Record<string, unknown>>();
  private rv = 100;
  private hooks: { method: string; run: () => void }[] = [];
  /** What a mutating webhook puts back on each write, by object path or namespace name (`name/spec` for /finalize). */
  private readonly insists = new Map<string, string[]>();
  /** The MutatingWebhookConfigurations served to a list, when set. */
  private mutating: unknown[] | undefined;

  /** A mutating webhook puts `finalizers` back on every write to `key` (an object's path, `NAME` or `NAME/spec`). */
  putBack(key: string, ...finalizers: string[]): this {
    this.insists.set(key, finalizers);
    return this;
  }

  /** Serve these MutatingWebhookConfigurations to a list of them. */
  serveMutating(configs: unknown[]): this {
    this.mutating = structuredClone(configs);
    return this;
  }

  /** `next` with what a webhook insists on for `key` put back at the end, as the server's admission would. */
  private admitted(key: string, next: readonly string[]): string[] {
    const back = (this.insists.get(key) ?? []).filter((f) => !next.includes(f));
    return [...next, ...back];
  }

  addNamespace(ns: NamespaceState): this {
    this.namespaces.set(ns.name, structuredClone(ns));
    return this;
  }

  addObject(res: Res, meta: ObjectMeta): this {
    this.objects.set(pathOf(res, meta.namespace ?? '', meta.name), { res, meta: structuredClone(meta) });
    return this;
  }

  addRaw(path: string, body: { metadata: ObjectMeta } & Record<string, unknown>): this {
    this.raws.set(path, structuredClone(body));
    return this;
  }

  /** Run `fn` just before the next call of `method` is handled, e.g. to make a concurrent change. */
  before(
    method: 'patchFinalizers' | 'finalizeNamespace' | 'getNamespace' | 'getRaw' | 'deletePod',
    fn: () => void,
  ): this {
    this.hooks.push({ method, run: fn });
    return this;
  }

  /** Only the writes, for "zero writes" assertions. */
  get writes(): string[] {
    return this.calls.filter((c) => !c.startsWith('GET '));
  }

  private hook(method: string): void {
    const i = this.hooks.findIndex((h) => h.method === method);
    if (i >= 0) this.hooks.splice(i, 1)[0]!.run();
  }

  private nextRv(): string {
    return String(++this.rv);
  }

  /** Bump a resourceVersion as another writer would: an object by its path, or a namespace by its name. */
  touch(path: string): void {
    const stored = this.objects.get(path);
    if (stored) stored.meta.resourceVersion = this.nextRv();
    const ns = this.namespaces.get(path);
    if (ns) ns.resourceVersion = this.nextRv();
  }

  async getNamespace(name: string): Promise<NamespaceState | undefined> {
    this.calls.push(`GET namespace ${name}`);
    this.hook('getNamespace');
    const ns = this.namespaces.get(name);
    return ns ? structuredClone(ns) : undefined;
  }

  async getRaw(path: string): Promise<unknown> {
    this.calls.push(`GET ${path}`);
    this.hook('getRaw');
    const raw = this.raws.get(path);
    if (raw) return structuredClone(raw);
    const stored = this.objects.get(path);
    return stored
      ? { apiVersion: `${stored.res.group}/${stored.res.version}`, metadata: structuredClone(stored.meta) }
      : undefined;
  }

  private check(
    kind: string,
    name: string,
    current: { uid: string; resourceVersion: string },
    guard: { uid: string; resourceVersion: string },
  ): void {
    if (guard.uid !== current.uid) {
      throw new KubeError(
        `Operation cannot be fulfilled on ${kind} "${name}": the UID in the precondition (${guard.uid}) does not match the UID in record (${current.uid}). The object might have been deleted and then recreated`,
        409,
        'Conflict',
      );
    }
    if (guard.resourceVersion !== current.resourceVersion) {
      throw new KubeError(
        `Operation cannot be fulfilled on ${kind} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        409,
        'Conflict',
      );
    }
  }

  private checkNoNew(
    kind: string,
    name: string,
    old: readonly string[],
    next: readonly string[],
    deleting: boolean,
  ): void {
    const added = next.filter((f) => !old.includes(f));
    if (deleting && added.length > 0) {
      throw new KubeError(
        `${kind} "${name}" is invalid: metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted`,
        422,
        'Invalid',
      );
    }
  }

  async patchFinalizers(
    res: Res,
    namespace: string | undefined,
    name: string,
    guard: { uid: string; resourceVersion: string },
    finalizers: string[],
  ): Promise<WriteAnswer | 'gone'> {
    this.calls.push(
      `PATCH ${label(res)} ${namespace ?? ''}/${name} uid=${guard.uid} rv=${guard.resourceVersion} ${list(finalizers)}`,
    );
    this.hook('patchFinalizers');
    if (res.resource === 'namespaces') return this.patchNamespace(name, guard, finalizers);
    const path = pathOf(res, namespace ?? '', name);
    const stored = this.objects.get(path);
    if (!stored) return 'gone';
    this.check(label(res), name, stored.meta, guard);
    const next = this.admitted(path, finalizers);
    this.checkNoNew(
      label(res),
      name,
      stored.meta.finalizers,
      next,
      stored.meta.deletionTimestamp !== undefined,
    );
    // An object that comes out of admission as it was is not written: same resourceVersion.
    if (list(next) === list(stored.meta.finalizers)) return answerOf(stored.meta);
    stored.meta.finalizers = next;
    stored.meta.resourceVersion = this.nextRv();
    // Removing the last finalizer of a deleting object removes it in the same request.
    if (stored.meta.deletionTimestamp !== undefined && next.length === 0) this.objects.delete(path);
    return answerOf(stored.meta);
  }

  async patchSpec(
    res: Res,
    namespace: string,
    name: string,
    guard: { uid: string; resourceVersion: string },
    spec: Record<string, unknown>,
  ): Promise<WriteAnswer | 'gone'> {
    this.calls.push(
      `PATCH ${label(res)} ${namespace}/${name} uid=${guard.uid} rv=${guard.resourceVersion} spec=${JSON.stringify(spec)}`,
    );
    const stored = this.objects.get(pathOf(res, namespace, name));
    if (!stored) return 'gone';
    this.check(label(res), name, stored.meta, guard);
    stored.meta.resourceVersion = this.nextRv();
    return { ...answerOf(stored.meta), object: { metadata: structuredClone(stored.meta), spec } };
  }

  private patchNamespace(
    name: string,
    guard: { uid: string; resourceVersion: string },
    finalizers: string[],
  ): WriteAnswer | 'gone' {
    const ns = this.namespaces.get(name);
    if (!ns) return 'gone';
    this.check('namespaces', name, ns, guard);
    const next = this.admitted(name, finalizers);
    this.checkNoNew('Namespace', name, ns.metadataFinalizers, next, ns.deletionTimestamp !== undefined);
    if (list(next) === list(ns.metadataFinalizers)) return answerOf(nsMeta(ns), ns.specFinalizers);
    ns.metadataFinalizers = next;
    ns.resourceVersion = this.nextRv();
    this.removeIfDone(ns);
    return answerOf(nsMeta(ns), ns.specFinalizers);
  }

  async finalizeNamespace(
    name: string,
    guard: { uid: string; resourceVersion: string },
    specFinalizers: string[],
  ): Promise<WriteAnswer | 'gone'> {
    this.calls.push(
      `PUT namespace ${name}/finalize uid=${guard.uid} rv=${guard.resourceVersion} ${list(specFinalizers)}`,
    );
    this.hook('finalizeNamespace');
    const ns = this.namespaces.get(name);
    if (!ns) return 'gone';
    this.check('namespaces', name, ns, guard);
    const next = this.admitted(`${name}/spec`, specFinalizers);
    if (list(next) === list(ns.specFinalizers)) return answerOf(nsMeta(ns), ns.specFinalizers);
    ns.specFinalizers = next;
    ns.resourceVersion = this.nextRv();
    this.removeIfDone(ns);
    return answerOf(nsMeta(ns), next);
  }

  async deletePod(namespace: string, name: string, uid: string): Promise<DeleteAnswer | 'gone'> {
    this.calls.push(`DELETE pod ${namespace}/${name} grace=0 uid=${uid}`);
    this.hook('deletePod');
    const path = `/api/v1/namespaces/${namespace}/pods/${name}`;
    const pod = this.raws.get(path);
    if (!pod) return 'gone';
    if (pod.metadata.uid !== uid) {
      throw new KubeError(
        `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${pod.metadata.uid}`,
        409,
        'Conflict',
      );
    }
    pod.metadata.deletionTimestamp ??= '2026-11-22T10:00:00Z';
    pod.metadata.deletionGracePeriodSeconds = 0;
    if (pod.metadata.finalizers.length > 0) return { removed: false, answer: answerOf(pod.metadata) };
    this.raws.delete(path);
    return { removed: true, answer: answerOf(pod.metadata) };
  }

  private removeIfDone(ns: NamespaceState): void {
    const empty = ns.metadataFinalizers.length === 0 && ns.specFinalizers.length === 0;
    if (ns.deletionTimestamp !== undefined && empty) this.namespaces.delete(ns.name);
  }

  // Forcing never lists, discovers, watches or deletes: fail loudly if it starts to.
  listNamespaces(): Promise<NamespaceState[]> {
    return this.unused('listNamespaces');
  }
  listAllNamespaces(): Promise<string> {
    return this.unused('listAllNamespaces');
  }
  discover(): Promise<Discovery> {
    return this.unused('discover');
  }
  listMetadata(): Promise<MetaPage> {
    return this.unused('listMetadata');
  }
  async listRaw(path: string): Promise<{ items: unknown[] }> {
    // Only who put a finalizer back is looked up in a list: the cluster's mutating webhooks.
    if (path !== MUTATING || !this.mutating) return this.unused(`listRaw ${path}`);
    this.calls.push(`GET ${path}`);
    return { items: structuredClone(this.mutating) };
  }
  deleteNamespace(): Promise<DeleteAnswer | 'gone'> {
    return this.unused('deleteNamespace');
  }
  watchNamespace(): Promise<WatchHandle> {
    return this.unused('watchNamespace');
  }
  watchObjects(): Promise<WatchHandle> {
    return this.unused('watchObjects');
  }
  deleteObject(): Promise<DeleteAnswer | 'gone'> {
    return this.unused('deleteObject');
  }
  watchAllNamespaces(): Promise<WatchHandle> {
    return this.unused('watchAllNamespaces');
  }
  private unused(method: string): Promise<never> {
    this.calls.push(`UNEXPECTED ${method}`);
    return Promise.reject(new Error(`RecordingKube: ${method} is not expected from forcing`));
  }
}
