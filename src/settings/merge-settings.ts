/** The merge action's inputs → one frozen MergeSettings, checked before any report is read. Pure. */
import { ConfigError } from '../shared/errors.js';
import { MergeInputs } from './action-names.js';
import { readClusterList } from './cluster-name.js';
import { ACTION_NAMING, Problems, type Naming } from './naming.js';
import { readBoolean, type InputReader } from './read-input.js';
import { readFailOn, type FailOn } from './settings.js';

/** Where `actions/download-artifact` puts the reports when the workflow names no other path. */
export const DEFAULT_REPORTS_DIR = 'namespace-teardown-reports';

/** Everything the merge needs to know from the user. */
export interface MergeSettings {
  /** Files or directories (searched through) holding the clusters' JSON reports. */
  readonly reports: readonly string[];
  /** The clusters the matrix ran, in its order: one without a readable report is `unknown`, never left out. */
  readonly clusters: readonly string[];
  readonly failOn: FailOn;
  readonly prComment: boolean;
  readonly githubToken: string | undefined;
}

function readClusters(read: InputReader, n: Naming): string[] {
  const clusters = readClusterList(read(MergeInputs.clusters), MergeInputs.clusters, n);
  if (clusters.length === 0)
    throw new ConfigError(
      `${n.input(MergeInputs.clusters)} is empty; give the clusters the matrix ran (its JSON list as is, or names one a line), so a cluster whose job wrote no report is reported \`unknown\` instead of left out.`,
      MergeInputs.clusters,
    );
  return clusters;
}

/** Read and check the merge's inputs; throws one ConfigError naming every input that is wrong. */
export function readMergeSettings(read: InputReader, n: Naming = ACTION_NAMING): MergeSettings {
  const p = new Problems();
  const reports = read(MergeInputs.reports)
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const githubToken = read(MergeInputs.githubToken).trim() || undefined;
  const settings: MergeSettings = {
    reports: reports.length ? reports : [DEFAULT_REPORTS_DIR],
    clusters: p.take(() => readClusters(read, n), []),
    failOn: p.take(() => readFailOn(read, n), 'leaked'),
    prComment: p.take(() => readBoolean(read, MergeInputs.prComment, false, n), false),
    githubToken,
  };
  if (settings.prComment && githubToken === undefined)
    p.errors.push(
      new ConfigError(
        `${n.input(MergeInputs.githubToken)} is empty; ${n.setting(MergeInputs.prComment, 'true')} needs a token that can write pull-request comments.`,
        MergeInputs.githubToken,
      ),
    );
  p.throwAny();
  return Object.freeze(settings);
}
