/** Which version of each namespace a run has read: a test's timeout comes only once the run is up to date. */
import type { KubeClient } from '../../src/kube/client.js';
import type { NamespaceEvent } from '../../src/kube/port.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import type { Progress } from '../../src/teardown/progress.js';
import type { FakeCluster } from '../fake-apiserver/index.js';

/** Records the newest resourceVersion the run read of each namespace, by GET, list or watch, and its progress. */
export class SeenVersions {
  private readonly versions = new Map<string, number>();
  private readonly waiting = new Set<() => void>();
  private progress: Progress | undefined;

  /** The run's progress listener: a target gone counts once the run has finished its story. */
  readonly onProgress = (p: Progress): void => {
    this.progress = p;
    for (const check of [...this.waiting]) check();
  };

  private note(ns: NamespaceState | undefined): void {
    if (!ns?.resourceVersion) return;
    this.versions.set(ns.name, Math.max(this.versions.get(ns.name) ?? 0, Number(ns.resourceVersion)));
    for (const check of [...this.waiting]) check();
  }

  /** The client, with every namespace it returns noted. */
  wrap(kube: KubeClient): KubeClient {
    const note = (ns: NamespaceState | undefined): void => this.note(ns);
    const onEvent =
      (fn: (e: NamespaceEvent) => void) =>
      (e: NamespaceEvent): void => {
        if ('namespace' in e) note(e.namespace);
        fn(e);
      };
    return {
      ...kube,
      getNamespace: async (name) => {
        const ns = await kube.getNamespace(name);
        note(ns);
        return ns;
      },
      listNamespaces: async (selector) => {
        const items = await kube.listNamespaces(selector);
        items.forEach(note);
        return items;
      },
      listAllNamespaces: (onPage) => kube.listAllNamespaces((items) => (items.forEach(note), onPage(items))),
      watchNamespace: (name, rv, fn) => kube.watchNamespace(name, rv, onEvent(fn)),
      watchAllNamespaces: (rv, fn) => kube.watchAllNamespaces(rv, onEvent(fn)),
    };
  }

  /**
   * Resolves once the run has read each of `names` (all of the cluster's when empty) at its current version, and has
   * finished the story of each that is gone.
   */
  caughtUp(cluster: FakeCluster, names: readonly string[]): Promise<void> {
    return new Promise((resolve) => {
      const check = (): void => {
        const current = names.length ? names : [...this.versions.keys()];
        const behind = current.filter((n) => {
          const rv = cluster.namespace(n)?.metadata.resourceVersion;
          return rv !== undefined && (this.versions.get(n) ?? 0) < Number(rv);
        });
        const gone = names.filter((n) => !cluster.namespace(n)).length;
        if (behind.length > 0 || (this.progress?.gone ?? 0) < gone) return;
        this.waiting.delete(check);
        resolve();
      };
      this.waiting.add(check);
      check();
    });
  }
}
