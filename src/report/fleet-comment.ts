/** The fleet's pull-request comment: the summary's headline, one row per cluster, fix first, a link to the run. Pure. */
import type { FleetReport } from '../model/fleet.js';
import { Budget } from './budget.js';
import { mdLink, visible } from './escape.js';
import { CLUSTER_HEADER, clusterRow, fleetHeadline, renderFleetFixFirst } from './fleet-blocks.js';

/** GitHub refuses a comment body over 65,536 characters: this leaves room for the marker and the link. */
export const COMMENT_BUDGET = 60_000;

/** The comment body (without the hidden marker, which the poster adds), within GitHub's size for a comment. */
export function renderFleetComment(fleet: FleetReport): string {
  const b = new Budget(COMMENT_BUDGET);
  b.add(fleetHeadline(fleet));
  b.table('rows of the clusters table', CLUSTER_HEADER, fleet.clusters, clusterRow, 100);
  if (!b.add(renderFleetFixFirst(fleet))) b.cut.push('the fix-first block');
  const { runUrl, serverUrl } = fleet.context;
  const run = runUrl ? mdLink('Workflow run and full summary', runUrl, serverUrl) : '';
  if (b.cut.length) b.parts.push(`<sub>Left out to fit a comment: ${b.cut.join('; ')}.</sub>`);
  return visible([...b.parts, run].filter(Boolean).join('\n\n') + '\n', true);
}
