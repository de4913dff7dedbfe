/** Per custom resource type: how many went in the custom-resources phase, how long their finalizers took. Pure. */
import { compareText } from '../shared/compare.js';
import type { EarlyObject, EarlyTypeSummary } from '../model/prevention.js';

function median(sorted: readonly number[]): number {
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : Math.round((sorted[mid - 1]! + sorted[mid]!) / 2);
}

/** One summary per type, sorted by type; finalizer times count only objects that held finalizers and went. */
export function summarizeTypes(objects: readonly EarlyObject[]): EarlyTypeSummary[] {
  const byType = new Map<string, EarlyObject[]>();
  for (const o of objects) byType.set(o.type, [...(byType.get(o.type) ?? []), o]);
  return [...byType]
    .sort((a, b) => compareText(a[0], b[0]))
    .map(([type, list]) => {
      const times = list
        .filter((o) => o.finalizers.length > 0 && o.ms !== undefined)
        .map((o) => o.ms!)
        .sort((a, b) => a - b);
      const left: EarlyTypeSummary['left'] = {};
      for (const o of list) if (o.left) left[o.left.reason] = (left[o.left.reason] ?? 0) + 1;
      return {
        type,
        found: list.length,
        gone: list.filter((o) => o.goneAt !== undefined).length,
        ...(times.length ? { finalizerMs: { median: median(times), max: times[times.length - 1]! } } : {}),
        left,
      };
    });
}
