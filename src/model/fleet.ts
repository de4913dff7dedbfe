/** The vocabulary of a fleet: one run per cluster, merged into one answer. */
import type { RunContext, RunReport, RunResult } from './run.js';

/** A cluster's result: its run's, or `unknown` when no readable report says what happened there. */
export type ClusterResult = RunResult | 'unknown';

/** Cluster results from best to worst: the fleet's result is the worst of its clusters'. */
export const CLUSTER_RESULTS: readonly ClusterResult[] = [
  'skipped',
  'planned',
  'clean',
  'forced',
  'stuck',
  'error',
  'unknown',
];

/** The merged report's own schema version (the cluster reports inside keep theirs). */
export const FLEET_VERSION = 1;

/** One cluster of the fleet. */
export interface FleetCluster {
  /** The run's `cluster-name` (or its default), or the name the `clusters` list expected. */
  name: string;
  result: ClusterResult;
  /** The cluster's own report; absent when the result is `unknown`. */
  report?: RunReport;
  /** The file the report was read from (absent for runs made in this process). */
  source?: string;
  /** Why the result is `unknown`: no report, or what was wrong with the one found. */
  why?: string;
}

/** A report file that could not be used, and why: always named, never skipped in silence. */
export interface ReportProblem {
  source: string;
  /** The cluster it names, when that much could be read. */
  cluster?: string;
  problem: string;
}

/** The merged answer: what the fleet summary, annotations, outputs, comment and JSON are made from. */
export interface FleetReport {
  version: typeof FLEET_VERSION;
  kind: 'fleet';
  /** The workflow the merge ran in (or, for the command line, what every report agrees on). */
  context: RunContext;
  finishedAt: string;
  failOn: string;
  /** Every cluster expected or reported, in the order of the `clusters` list, then by name. */
  clusters: FleetCluster[];
  problems: ReportProblem[];
  /** What is worth a line without failing the check: a report replaced by a later one, a cluster not in the list. */
  notes: string[];
  /** The worst result across the clusters. */
  result: ClusterResult;
  /** Reasons the fleet's check fails, each naming its cluster; empty when it passes. */
  failures: string[];
}
