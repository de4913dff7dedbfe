/**
 * The merge step's outputs: the worst result, each cluster's result and names, the report's path. The `clusters`
 * JSON holds no character a shell reads inside single quotes or unquoted (every other one is a `\uXXXX` escape). Pure.
 */
import type { FleetReport } from '../model/fleet.js';
import { MergeOutputs, type MergeOutputName } from '../settings/action-names.js';

/** What the `clusters` output says of each cluster. */
export interface ClusterOutput {
  result: string;
  /** Targets still present (stuck, or not deleted). */
  stuck: string[];
  forced: string[];
}

/** Characters JSON text may keep as they are in an output: none a shell gives a meaning to. */
const PLAIN = /[^A-Za-z0-9{}[\]":,._/@+\\-]/g;

/**
 * `JSON.stringify(value)` with every character outside PLAIN written as its `\uXXXX` escape: the same JSON to any
 * reader, and nothing a shell would run if a workflow put it in a script (`'`, `$`, `` ` ``, `;`, a space…).
 */
export function shellSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(PLAIN, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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
    [MergeOutputs.clusters]: shellSafeJson(clusters),
    [MergeOutputs.report]: reportPath,
  };
}
