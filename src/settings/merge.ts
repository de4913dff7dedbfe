/** The merge action's inputs → one frozen MergeSettings, checked before any report is read. Pure. */
import { ConfigError } from '../shared/errors.js';
import { MergeInputs } from './action-names.js';
import { readClusterList } from './cluster-name.js';
import { readBoolean, readFailOn, type FailOn, type InputReader } from './settings.js';

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

/** Read and check the merge's inputs; throws ConfigError naming the input, the value and what is allowed. */
export function readMergeSettings(read: InputReader): MergeSettings {
  const reports = read(MergeInputs.reports)
    .split('\n')
    .map((s) => s.trim())
    .filter(Boolean);
  const clusters = readClusterList(read(MergeInputs.clusters), MergeInputs.clusters);
  if (clusters.length === 0)
    throw new ConfigError(
      'Input "clusters" is empty; give the clusters the matrix ran (its JSON list as is, or names one a line), so a cluster whose job wrote no report is reported `unknown` instead of left out.',
      MergeInputs.clusters,
    );
  const githubToken = read(MergeInputs.githubToken).trim() || undefined;
  const prComment = readBoolean(read, MergeInputs.prComment, false);
  if (prComment && githubToken === undefined)
    throw new ConfigError(
      'Input "github-token" is empty; "pr-comment: true" needs a token that can write pull-request comments.',
      MergeInputs.githubToken,
    );
  return Object.freeze({
    reports: reports.length ? reports : [DEFAULT_REPORTS_DIR],
    clusters,
    failOn: readFailOn(read),
    prComment,
    githubToken,
  });
}
