/**
 * The custom-resources phase of one target: DELETE its custom resources (Background propagation, a UID precondition
 * each, only in the target), then wait — by watch, within its share of the timeout — for those whose controllers
 * were seen running. Nothing is forced here; whatever is left goes with the namespace.
 */
import type { Leftover } from '../model/findings.js';
import { objectLabel, type Snapshot } from '../diagnosis/index.js';
import { resourceName } from '../kube/paths.js';
import { KubeError, type Kube } from '../kube/port.js';
import { type ApiResource, type NamespaceState } from '../model/cluster.js';
import { mapPool } from '../shared/map-pool.js';
import { messageOf } from '../shared/errors.js';
import { formatDuration } from '../shared/duration.js';
import type { Clock, Logger } from '../shared/ports.js';
import type { Catalog } from './custom-resource-types.js';
import { waitDecision } from './custom-resource-decision.js';
import { waitObjectsGone } from './custom-resource-wait.js';
import type { CustomResourcesPhase, EarlyObject } from '../model/prevention.js';
import { summarizeTypes } from './custom-resource-summary.js';
import { identityProblem } from '../targets/resolve.js';

/** What the phase needs: the port (guarded against writes after cancel), and when it must end. */
export interface PhaseDeps {
  kube: Kube;
  logger: Logger;
  clock: Clock;
  signal?: AbortSignal;
  /** The phase's end: its share of the timeout, never past the run's wait deadline. */
  deadline: number;
  /** `force: dry-run`: plan only, delete nothing. */
  dryRun: boolean;
  /** Plan mode (`dry-run: true`): each DELETE is sent as a dry run for the server to answer; nothing is waited for. */
  plan?: boolean;
}

interface Item {
  leftover: Leftover;
  type: ApiResource;
  record: EarlyObject;
}

const iso = (ms: number): string => new Date(ms).toISOString();

/** The target's custom resources, with the decision whether to wait for each. */
function itemsOf(state: NamespaceState, snapshot: Snapshot, catalog: Catalog): Item[] {
  return snapshot.leftovers.flatMap((l): Item[] => {
    const type = catalog.types.get(resourceName(l.resource));
    // Only what the scan of this very namespace returned: nothing outside the target is ever deleted.
    if (!type || (l.meta.namespace !== undefined && l.meta.namespace !== state.name)) return [];
    const d = waitDecision(snapshot, l);
    const record: EarlyObject = {
      object: objectLabel(l.resource, l.meta.name),
      type: resourceName(l.resource),
      finalizers: [...l.meta.finalizers],
      waited: d.wait,
      why: d.why,
    };
    if (!d.wait) record.left = { reason: d.reason, detail: d.why };
    return [{ leftover: l, type, record }];
  });
}

/** DELETE one object; its record says when it was requested, gone at once, or refused. */
async function deleteOne(deps: PhaseDeps, namespace: string, item: Item): Promise<void> {
  const { meta } = item.leftover;
  const rec = item.record;
  // Only what a running controller will clean up goes early: the rest goes with the namespace either way.
  if (!rec.waited) return;
  if (deps.clock.now() >= deps.deadline) {
    rec.left = {
      reason: 'wait-share-ran-out',
      detail: 'not deleted early: the custom resources’ share of the timeout ran out',
    };
    rec.waited = false;
    return;
  }
  if (meta.deletionTimestamp) {
    rec.requestedAt = meta.deletionTimestamp;
    return;
  }
  try {
    const res = { group: item.type.group, version: item.type.version, resource: item.type.resource };
    const answer = await deps.kube.deleteObject(res, namespace, meta.name, { uid: meta.uid });
    const now = deps.clock.now();
    rec.requestedAt = iso(now);
    // Gone when the answer shows it: NotFound, or removed in that request (a Status Success, nothing holding it).
    if (answer === 'gone' || answer.removed) rec.goneAt = iso(now);
  } catch (error) {
    const cancelled = error instanceof KubeError && error.reason === 'Cancelled';
    // A UID precondition that fails means the object we saw is gone (a new one took the name): not ours to delete.
    if (error instanceof KubeError && error.code === 409 && /precondition/i.test(error.message)) {
      rec.requestedAt = rec.goneAt = iso(deps.clock.now());
      return;
    }
    rec.left = { reason: cancelled ? 'cancelled' : 'delete-refused', detail: messageOf(error) };
    rec.waited = false;
  }
}

/** Plan mode: the DELETE of one object sent as a dry run (the adapter's), the server's answer recorded; no wait. */
async function planOne(deps: PhaseDeps, namespace: string, item: Item): Promise<void> {
  const { meta } = item.leftover;
  const rec = item.record;
  // Only what a running controller will clean up would go early: the rest goes with the namespace either way.
  if (!rec.waited) return;
  if (meta.deletionTimestamp) {
    rec.left = { reason: 'dry-run', detail: `already being deleted since ${meta.deletionTimestamp}` };
    return;
  }
  const res = { group: item.type.group, version: item.type.version, resource: item.type.resource };
  try {
    const answer = await deps.kube.deleteObject(res, namespace, meta.name, { uid: meta.uid });
    const detail =
      answer === 'gone'
        ? 'gone already: nothing to delete'
        : 'would be deleted first and waited for: the server accepted the DELETE (dry run)';
    rec.left = { reason: 'dry-run', detail };
  } catch (error) {
    rec.left = { reason: 'delete-refused', detail: `the DELETE (dry run) was refused: ${messageOf(error)}` };
    rec.waited = false;
  }
}

/** Wait for the waited, requested, not yet gone objects, type by type, all at once. */
async function waitForThem(deps: PhaseDeps, namespace: string, items: Item[]): Promise<void> {
  const byType = new Map<string, Item[]>();
  for (const i of items) {
    if (!i.record.waited || i.record.left || i.record.goneAt || !i.record.requestedAt) continue;
    byType.set(i.record.type, [...(byType.get(i.record.type) ?? []), i]);
  }
  await Promise.all(
    [...byType.values()].map(async (group) => {
      const byUid = new Map(group.map((i) => [i.leftover.meta.uid, i.record]));
      await waitObjectsGone(deps.kube, group[0]!.type, namespace, byUid.keys(), {
        deadline: deps.deadline,
        signal: deps.signal,
        clock: deps.clock,
        logger: deps.logger,
        onGone: (uid, at) => {
          const r = byUid.get(uid);
          if (r) r.goneAt = iso(at);
        },
      });
    }),
  );
  for (const { record: r } of items) {
    if (!r.waited || r.left || r.goneAt) continue;
    r.left = deps.signal?.aborted
      ? { reason: 'cancelled', detail: 'the run was cancelled during the wait' }
      : {
          reason: 'wait-share-ran-out',
          detail: 'still there when the custom resources’ share of the timeout ran out',
        };
  }
}

/**
 * Why the namespace under the target's name is no longer the one read at the start (gone, or recreated with new
 * content, as a GitOps controller does), read right before the phase; undefined when it still is.
 */
async function notTheTarget(kube: Kube, state: NamespaceState): Promise<string | undefined> {
  const now = await kube.getNamespace(state.name);
  if (now === undefined)
    return 'gone before the custom resources phase: none of its custom resources deleted';
  const problem = identityProblem(state.name, now);
  if (problem) return `read again before the custom resources phase, ${problem}`;
  if (now.uid === state.uid) return undefined;
  return `recreated under the same name (new UID ${now.uid}) after it was read: none of its custom resources deleted`;
}

/** Run the phase for one Active target, from the pre-mortem's snapshot. Never throws for one object. */
export async function customResourcesFirst(
  deps: PhaseDeps,
  state: NamespaceState,
  snapshot: Snapshot,
  catalog: Catalog,
): Promise<CustomResourcesPhase> {
  const skippedTypes = catalog.skipped;
  if (catalog.error)
    return { mode: 'skipped', note: catalog.error, tookMs: 0, objects: [], types: [], skippedTypes };
  const items = itemsOf(state, snapshot, catalog);
  const objects = items.map((i) => i.record);
  if (items.length === 0) {
    return { mode: 'skipped', note: 'no custom resources', tookMs: 0, objects, types: [], skippedTypes };
  }
  const changed = await notTheTarget(deps.kube, state);
  if (changed) return { mode: 'skipped', note: changed, tookMs: 0, objects: [], types: [], skippedTypes };
  if (deps.plan) {
    await mapPool(items, 8, (i) => planOne(deps, state.name, i));
    return { mode: 'dry-run', tookMs: 0, objects, types: summarizeTypes(objects), skippedTypes };
  }
  if (deps.dryRun) {
    for (const r of objects)
      r.left ??= { reason: 'dry-run', detail: `would be deleted first${r.waited ? ', and waited for' : ''}` };
    return { mode: 'dry-run', tookMs: 0, objects, types: summarizeTypes(objects), skippedTypes };
  }
  const started = deps.clock.now();
  await mapPool(items, 8, (i) => deleteOne(deps, state.name, i));
  const waiting = objects.filter((r) => r.waited && !r.left && !r.goneAt).length;
  const share = formatDuration(Math.max(0, deps.deadline - deps.clock.now()));
  deps.logger.info(
    `${state.name}: deleted ${objects.filter((r) => r.requestedAt).length} of ${objects.length} custom resource(s) first; waiting up to ${share} for ${waiting} whose controllers run`,
  );
  await waitForThem(deps, state.name, items);
  for (const r of objects)
    if (r.goneAt && r.requestedAt) r.ms = Math.max(0, Date.parse(r.goneAt) - Date.parse(r.requestedAt));
  const tookMs = deps.clock.now() - started;
  const gone = objects.filter((r) => r.goneAt).length;
  deps.logger.info(
    `${state.name}: ${gone} of ${objects.length} custom resource(s) gone in ${formatDuration(tookMs)}; the rest go with the namespace`,
  );
  return { mode: 'done', tookMs, objects, types: summarizeTypes(objects), skippedTypes };
}
