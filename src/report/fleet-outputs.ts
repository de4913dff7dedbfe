/** The merge step's outputs: the worst result, each cluster's result and names, the report's path. Pure. */
import type { FleetReport } from '../model/fleet.js';
import { MergeOutputs, type MergeOutputName } from '../settings/action-names.js';

/** What the `clusters` output says of each cluster. */
export interface ClusterOutput {
  result: string;
  /** Targets still present (stuck, or not deleted). */
  stuck: string[];
  forced: string[];
}

/** Output name → value. */
export function fleetOutputsOf(fleet: FleetReport, reportPath: string): Record<MergeOutputName, string> {
  // fromEntries defines each key as its own property: a cluster named `__proto__` stays a cluster.
  const clusters = Object.fromEntries(
    fleet.clusters.map((c): [string, ClusterOutput] => {
      const targets = c.report?.targets ?? [];
      const names = (keep: (o: string) => boolean): string[] =>
        targets.filter((t) => keep(t.outcome)).map((t) => t.name);
      return [
        c.name,
        {
          result: c.result,
          stuck: names((o) => o === 'stuck' || o === 'active'),
          forced: names((o) => o === 'forced'),
        },
      ];
    }),
  );
  return {
    [MergeOutputs.result]: fleet.result,
    [MergeOutputs.clusters]: JSON.stringify(clusters),
    [MergeOutputs.report]: reportPath,
  };
}
