/** The objects one finding is about, in words and in commands, from one object to thousands. Pure. */
import { compareText } from '../shared/compare.js';
import { objectLabel } from './refs.js';
import { resourceName } from '../kube/paths.js';
import { bulkPatchCommand, kubectlResource, patchObjectFinalizersCommand } from './remedy.js';
import type { Evidence, Leftover } from '../model/findings.js';

/** Up to this many objects are named and patched one by one; more are counted and patched by one command per type. */
export const FEW = 3;
/** Objects listed in a finding's evidence; the rest are counted (all of them are in its force targets). */
export const EVIDENCE_OBJECTS = 10;

/** `2,000`. */
export const count = (n: number): string => n.toLocaleString('en-US');

/** `widgets.example.com/a`, `a, b and c`, or `2,000 widgets.example.com objects (a, b, c and 1,997 more)`. */
export function holderPhrase(objects: readonly Leftover[]): string {
  const sorted = [...objects].sort((a, b) =>
    compareText(objectLabel(a.resource, a.meta.name), objectLabel(b.resource, b.meta.name)),
  );
  if (sorted.length <= FEW) return sorted.map((l) => objectLabel(l.resource, l.meta.name)).join(', ');
  const types = new Map<string, number>();
  for (const l of sorted) types.set(resourceName(l.resource), (types.get(resourceName(l.resource)) ?? 0) + 1);
  const what =
    types.size === 1
      ? `${count(sorted.length)} ${[...types.keys()][0]!} objects`
      : `${count(sorted.length)} objects of ${types.size} types (${[...types].map(([t, n]) => `${count(n)} ${t}`).join(', ')})`;
  const names = sorted.slice(0, FEW).map((l) => l.meta.name);
  return `${what} (${names.join(', ')} and ${count(sorted.length - FEW)} more)`;
}

/** Evidence for the first objects, and a count of the rest. */
export function listedEvidence(objects: readonly Leftover[], one: (l: Leftover) => Evidence[]): Evidence[] {
  const shown = objects.slice(0, EVIDENCE_OBJECTS).flatMap(one);
  if (objects.length <= EVIDENCE_OBJECTS) return shown;
  const more = count(objects.length - EVIDENCE_OBJECTS);
  return [
    ...shown,
    { object: '…', field: 'more objects', value: `${more} more, the same way (all in the JSON report)` },
  ];
}

/**
 * Commands removing `remove` from the objects: one each (with a UID test) for a few, one per type and finalizer list
 * for more. `bulk` is always the per-type form, which names no object, so one loop serves many namespaces.
 */
export function removalCommands(
  objects: readonly Leftover[],
  remove: readonly string[],
  namespace: string,
): { commands: string[]; bulk: string[] } {
  const shapes = new Map<string, { l: Leftover; shape: string[] }>();
  for (const l of objects) {
    const k = `${kubectlResource(l)}\u0000${l.meta.finalizers.join('\u0000')}`;
    if (!shapes.has(k)) shapes.set(k, { l, shape: l.meta.finalizers });
  }
  const bulk = [...shapes.keys()]
    .sort()
    .map((k) => shapes.get(k)!)
    .map(({ l, shape }) => bulkPatchCommand(l, namespace, shape, remove));
  const each = [...objects]
    .sort((a, b) => compareText(objectLabel(a.resource, a.meta.name), objectLabel(b.resource, b.meta.name)))
    .map((l) => patchObjectFinalizersCommand(l, remove));
  return { commands: objects.length <= FEW ? each : bulk, bulk };
}
