/** Remedies as commands a user can paste: finalizer patches guarded by the object's UID, /finalize calls. Pure. */
import type { NamespaceState } from '../model/cluster.js';
import { servedWhere } from './refs.js';
import { resourceName } from '../kube/paths.js';
import { shellCommand, shellQuote } from './shell.js';
import type { Leftover } from '../model/findings.js';
import type { WebhookState } from './types.js';

type PatchOp = { op: 'test'; path: string; value: string } | { op: 'remove'; path: string };

/**
 * A JSON patch that removes exactly the given finalizers: it first tests the uid and each entry at its index,
 * so it fails instead of removing the wrong entry when the object was recreated or its list changed.
 */
export function finalizerRemovalPatch(
  uid: string,
  current: readonly string[],
  remove: readonly string[],
): string {
  const indexes = current.flatMap((f, i) => (remove.includes(f) ? [i] : []));
  const ops: PatchOp[] = uid ? [{ op: 'test', path: '/metadata/uid', value: uid }] : [];
  for (const i of indexes)
    ops.push({ op: 'test', path: `/metadata/finalizers/${i}`, value: current[i] ?? '' });
  for (const i of [...indexes].reverse()) ops.push({ op: 'remove', path: `/metadata/finalizers/${i}` });
  return JSON.stringify(ops);
}

/**
 * The resource as kubectl should name it: `kialis.kiali.io`, or `gadgets.v1beta1.example.com` for objects listed at a
 * version other than the preferred one (its conversion webhook is down, so only that version can be read).
 */
export function kubectlResource(l: Pick<Leftover, 'resource' | 'pinned'>): string {
  const r = l.resource;
  return l.pinned && r.group ? `${r.resource}.${r.version}.${r.group}` : resourceName(r);
}

/** `kubectl patch` removing the given finalizers from one leftover object. */
export function patchObjectFinalizersCommand(l: Leftover, remove: readonly string[]): string {
  const patch = finalizerRemovalPatch(l.meta.uid, l.meta.finalizers, remove);
  const args = ['kubectl', 'patch', kubectlResource(l), l.meta.name];
  if (l.meta.namespace) args.push('-n', l.meta.namespace);
  return shellCommand(...args, '--type=json', '-p', patch);
}

/**
 * One command removing the given finalizers from every object of a type in a namespace whose finalizer list is
 * `shape`: the names are listed, not written out, and the patch tests each entry first, so an object whose list
 * differs is left alone (kubectl reports it and goes on).
 */
export function bulkPatchCommand(
  l: Pick<Leftover, 'resource' | 'pinned'>,
  namespace: string,
  shape: readonly string[],
  remove: readonly string[],
): string {
  const resource = kubectlResource(l);
  const patch = finalizerRemovalPatch('', shape, remove);
  const list = shellCommand('kubectl', 'get', resource, '-n', namespace, '-o', 'name');
  const each = shellCommand('xargs', '-r', 'kubectl', 'patch', '-n', namespace, '--type=json', '-p', patch);
  return `${list} | ${each}`;
}

/** `kubectl patch namespace` removing the given entries of `metadata.finalizers`. */
export function patchNamespaceFinalizersCommand(ns: NamespaceState, remove: readonly string[]): string {
  const patch = finalizerRemovalPatch(ns.uid, ns.metadataFinalizers, remove);
  return shellCommand('kubectl', 'patch', 'namespace', ns.name, '--type=json', '-p', patch);
}

/**
 * A pipeline that PUTs the namespace to `/finalize` without the given `spec.finalizers` (all of them when
 * `drop` is 'all'), built from a fresh GET so no other field is lost.
 */
export function finalizeNamespaceCommand(name: string, drop: readonly string[] | 'all'): string {
  const get = shellCommand('kubectl', 'get', 'namespace', name, '-o', 'json');
  const put = shellCommand(
    'kubectl',
    'replace',
    '--raw',
    `/api/v1/namespaces/${encodeURIComponent(name)}/finalize`,
    '-f',
    '-',
  );
  if (drop === 'all') return `${get} | jq ${shellQuote('.spec.finalizers = []')} | ${put}`;
  const args = drop.flatMap((f, i) => ['--arg', `f${i}`, f]);
  const keep = drop.map((_, i) => `. != $f${i}`).join(' and ');
  return `${get} | ${shellCommand('jq', ...args, `.spec.finalizers |= map(select(${keep}))`)} | ${put}`;
}

/** Force-deletes one pod without waiting for the kubelet. */
export function forceDeletePodCommand(namespace: string, pod: string): string {
  return shellCommand('kubectl', 'delete', 'pod', pod, '-n', namespace, '--force', '--grace-period=0');
}

/** Lists the EndpointSlices of a Service, to see whether anything backs it. */
export function endpointSlicesCommand(namespace: string, service: string): string {
  return shellCommand(
    'kubectl',
    'get',
    'endpointslices',
    '-n',
    namespace,
    '-l',
    `kubernetes.io/service-name=${service}`,
  );
}

/** The `force-finalizers` setting that would allow removing these finalizers. */
export function forceFinalizersPolicy(finalizers: readonly string[]): string {
  return `force-finalizers: ${[...new Set(finalizers)].sort().join(', ')}`;
}

/** The setting that would allow PUTting the namespace to `/finalize`. */
export const FORCE_FINALIZE_NAMESPACE_POLICY = 'force-finalize-namespace: true';

/** The webhooks of `w`'s configuration that `hooks` does not cover: served elsewhere, so possibly up. */
export function otherWebhooks(w: WebhookState, hooks: readonly WebhookState[]): string[] {
  const down = new Set(hooks.filter((h) => h.configuration === w.configuration).map(servedWhere));
  return w.siblings.filter((s) => !down.has(s.served)).map((s) => s.name);
}

/**
 * The commands that clear broken webhooks: a configuration whose every webhook is served where these are (read
 * down) is deleted; one that also holds webhooks served elsewhere keeps them, and a JSON patch removes only these,
 * each by its index after a test of its name (highest first, so the others' indexes hold).
 */
export function removeWebhooksCommands(hooks: readonly WebhookState[]): string[] {
  const byConfig = Map.groupBy(hooks, (w) => `${w.kind}/${w.configuration}`);
  return [...byConfig.values()].map((group) => {
    const first = group[0]!;
    const kind = first.kind.toLowerCase();
    if (otherWebhooks(first, group).length === 0)
      return shellCommand('kubectl', 'delete', kind, first.configuration);
    const ops = [...new Map(group.map((w) => [w.index, w])).values()]
      .sort((a, b) => b.index - a.index)
      .flatMap((w) => [
        { op: 'test', path: `/webhooks/${w.index}/name`, value: w.name },
        { op: 'remove', path: `/webhooks/${w.index}` },
      ]);
    return shellCommand(
      'kubectl',
      'patch',
      kind,
      first.configuration,
      '--type=json',
      '-p',
      JSON.stringify(ops),
    );
  });
}
