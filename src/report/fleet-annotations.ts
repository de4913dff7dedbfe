/**
 * The fleet's annotations within GitHub's budget: one per cause across clusters (with the first cluster's fix), one
 * per cluster that is unknown or failed as a whole, then per cluster what else needs a person. Pure.
 */
import type { FleetReport } from '../model/fleet.js';
import type { Outcome } from '../model/run.js';
import { listNames } from './brief.js';
import { oneLineScript } from './commands.js';
import { fleetCauses, type FleetCause } from './fleet-causes.js';
import { withinLimits, type Annotation, type Level } from './annotations.js';

/** Names in one annotation's title; all of them are in the summary. */
const NAMES = 8;

function causeAnnotation(c: FleetCause): Annotation {
  const names = c.members.map(
    (m) =>
      `${m.cluster}: ${listNames(
        m.cause.targets.map((t) => t.name),
        3,
      )}`,
  );
  const first = c.members.find((m) => m.cause.command);
  const others = c.members.filter((m) => m !== first && m.cause.command).map((m) => m.cluster);
  const fix = first?.cause.command ? ` Fix on ${first.cluster}: ${oneLineScript(first.cause.command)}` : '';
  const more = others.length ? ` The same for ${listNames(others, NAMES)}: see the summary.` : '';
  return {
    level: 'error',
    title: `${c.namespaces} namespace(s) stuck in ${c.members.length} cluster(s): ${listNames(names, NAMES)}`,
    message: `${c.summary}.${fix}${more}`,
  };
}

/** Per cluster, the namespaces of an outcome that needs a person, as one annotation. */
const PER_CLUSTER: { outcome: Outcome; level: Level; words: string }[] = [
  { outcome: 'error', level: 'error', words: 'ended in error' },
  { outcome: 'refused', level: 'error', words: 'refused, not touched' },
  { outcome: 'active', level: 'warning', words: 'not deleted (still Active)' },
  { outcome: 'forced', level: 'warning', words: 'gone only after forcing' },
];

/** A cluster nothing is known of, or whose run failed as a whole: first, since no cause below covers it. */
function wholeClusters(fleet: FleetReport): Annotation[] {
  return fleet.clusters.flatMap((c): Annotation[] => {
    if (!c.report)
      return [{ level: 'error', title: `Cluster ${c.name}: unknown`, message: c.why ?? 'no report' }];
    if (c.report.error)
      return [{ level: 'error', title: `Cluster ${c.name}: the run failed`, message: c.report.error }];
    return [];
  });
}

function perOutcome(fleet: FleetReport): Annotation[] {
  return fleet.clusters.flatMap((c) =>
    PER_CLUSTER.flatMap((p): Annotation[] => {
      const hit = (c.report?.targets ?? []).filter((t) => t.outcome === p.outcome);
      if (!hit.length) return [];
      const notes = [...new Set(hit.map((t) => t.note).filter(Boolean))].slice(0, 3).join('; ');
      const names = listNames(
        hit.map((t) => t.name),
        NAMES,
      );
      return [
        {
          level: p.level,
          title: `Cluster ${c.name}: ${hit.length} namespace(s) ${p.words}`,
          message: `${names}${notes ? `: ${notes}` : ''}`,
        },
      ];
    }),
  );
}

/** The annotations to emit and how many were left out; one error is kept free for the step's failure line. */
export function planFleetAnnotations(fleet: FleetReport): { emit: Annotation[]; overflow: number } {
  const reserved = fleet.failures.length > 0 ? 1 : 0;
  const explained = new Set(fleet.clusters.filter((c) => !c.report).map((c) => c.name));
  const problems = fleet.problems
    .filter((p) => !p.cluster || !explained.has(p.cluster))
    .map((p): Annotation => ({ level: 'error', title: `Report ${p.source} not used`, message: p.problem }));
  const notes = fleet.notes.map((n): Annotation => ({ level: 'notice', title: 'Merge', message: n }));
  return withinLimits(
    [
      ...wholeClusters(fleet),
      ...problems,
      ...fleetCauses(fleet).map(causeAnnotation),
      ...perOutcome(fleet),
      ...notes,
    ],
    reserved,
  );
}
