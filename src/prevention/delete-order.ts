/**
 * The order of the namespace DELETEs across targets: a target that hosts a live actor for objects in another target
 * goes after it, or its actor dies before it releases them (a leak the teardown itself would cause). Pure.
 */
import { heldBy, isBuiltInFinalizer, releaseVerdict, type Snapshot } from '../diagnosis/index.js';
import type { Leftover } from '../model/findings.js';
import { intercepts } from './pre-mortem.js';

/** A target whose objects a host's actor releases, and in words why. */
export interface Served {
  target: string;
  why: string;
}

/** Leftovers holding each custom finalizer. */
function holders(s: Snapshot): Map<string, Leftover[]> {
  const by = new Map<string, Leftover[]>();
  for (const l of s.leftovers)
    for (const f of new Set(l.meta.finalizers))
      if (!isBuiltInFinalizer(f)) by.set(f, [...(by.get(f) ?? []), l]);
  return by;
}

/** Add `target` to what `host` serves, once. */
function serve(out: Map<string, Served[]>, host: string, target: string, why: string): void {
  const list = out.get(host) ?? [];
  if (!list.some((x) => x.target === target)) out.set(host, [...list, { target, why }]);
}

/**
 * Backends that must answer for a target's deletes: a `failurePolicy: Fail` webhook on DELETE of types it holds, an
 * APIService (discovery of every namespace needs it), served — alive — from another target.
 */
function backends(out: Map<string, Served[]>, target: string, s: Snapshot, hosts: ReadonlySet<string>): void {
  const live = (b: { readyEndpoints: number } | undefined): boolean => (b?.readyEndpoints ?? 0) > 0;
  for (const w of s.webhooks) {
    const host = w.service?.namespace;
    if (!host || host === target || !hosts.has(host) || w.failurePolicy !== 'Fail' || !live(w.backing))
      continue;
    if (!s.leftovers.some((l) => w.deleteResources.some((e) => intercepts(e, l)))) continue;
    serve(
      out,
      host,
      target,
      `webhook ${w.name} (failurePolicy Fail) must answer the deletes in ${target}; its service is ${host}/${w.service?.name ?? ''}`,
    );
  }
  for (const a of s.apiServices) {
    const host = a.service?.namespace;
    if (!host || host === target || !hosts.has(host) || a.available?.status !== 'True') continue;
    serve(
      out,
      host,
      target,
      `APIService ${a.name} is served from ${host}/${a.service?.name ?? ''}: every namespace deletion needs its discovery`,
    );
  }
}

/**
 * For the targets read before their DELETE (name → pre-mortem snapshot): host → the other targets whose objects a
 * live actor in it releases, or whose deletes its webhook or APIService must answer. Two targets that serve each
 * other are left out (neither can wait for the other).
 */
export function servedBy(snapshots: ReadonlyMap<string, Snapshot>): Map<string, Served[]> {
  const out = new Map<string, Served[]>();
  const hosts = new Set(snapshots.keys());
  for (const [target, s] of snapshots) {
    backends(out, target, s, hosts);
    for (const [finalizer, objects] of holders(s)) {
      const v = releaseVerdict(s, finalizer, heldBy(objects));
      if (v.kind !== 'running' && v.kind !== 'working') continue;
      for (const a of v.actors) {
        const host = a.namespace;
        if (!host || host === target || !snapshots.has(host) || a.liveness.state !== 'live') continue;
        serve(
          out,
          host,
          target,
          `${a.name} releases ${finalizer} on ${objects.length} object(s) in ${target}`,
        );
      }
    }
  }
  const serves = (host: string, target: string): boolean =>
    out.get(host)?.some((x) => x.target === target) ?? false;
  const kept = [...out].map(([host, list]) => [host, list.filter((x) => !serves(x.target, host))] as const);
  return new Map(kept.filter(([, list]) => list.length > 0));
}

/** Kinds an actor of another target can run as or be served by: workloads, pods, Services. */
const HOSTING = new Set([
  'deployments.apps',
  'statefulsets.apps',
  'daemonsets.apps',
  'replicasets.apps',
  'pods',
  'services',
]);

/** Whether a target holds anything that may be an actor for another target's objects. */
export function mayHost(s: Snapshot): boolean {
  return s.leftovers.some((l) =>
    HOSTING.has(l.resource.group ? `${l.resource.resource}.${l.resource.group}` : l.resource.resource),
  );
}
