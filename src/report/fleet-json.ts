/**
 * The fleet's JSON report as text, in pieces: the text of `JSON.stringify(fleet, null, 2)`, made one target at a time
 * (src/report/json.ts), so 10,000 targets across 50 clusters are never one string; what `visible` escapes is written
 * as its JSON escape, as in a cluster's report. Pure.
 */
import type { FleetCluster, FleetReport } from '../model/fleet.js';
import { visible } from './escape.js';
import { reportJson } from './json.js';

/** A value's JSON, lines after the first indented by `by`, nothing in it a terminal would act on. */
const indent = (text: string, by: string): string => visible(text.replace(/\n/g, `\n${by}`), true);

/** The object's entries JSON.stringify keeps (undefined values are left out), in order. */
const kept = (o: object): [string, unknown][] =>
  Object.entries(o).filter(([, value]) => JSON.stringify(value) !== undefined);

function* clusterJson(c: FleetCluster, by: string): Generator<string> {
  const entries = kept(c);
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    const comma = i < entries.length - 1 ? ',' : '';
    yield `\n${by}  ${JSON.stringify(key)}: `;
    if (key === 'report') yield* reportJson(value as NonNullable<FleetCluster['report']>, `${by}  `);
    else yield indent(JSON.stringify(value, null, 2), `${by}  `);
    yield comma;
  }
  yield `\n${by}}`;
}

/** The pieces of `JSON.stringify(fleet, null, 2)`, in order; joined, they parse back to the fleet. */
export function* fleetJson(fleet: FleetReport): Generator<string> {
  const entries = kept(fleet);
  yield '{';
  for (const [i, [key, value]] of entries.entries()) {
    const comma = i < entries.length - 1 ? ',' : '';
    yield `\n  ${JSON.stringify(key)}: `;
    if (key !== 'clusters' || fleet.clusters.length === 0) yield indent(JSON.stringify(value, null, 2), '  ');
    else {
      yield '[';
      for (const [j, c] of fleet.clusters.entries()) {
        yield '\n    ';
        yield* clusterJson(c, '    ');
        if (j < fleet.clusters.length - 1) yield ',';
      }
      yield '\n  ]';
    }
    yield comma;
  }
  yield '\n}';
}
