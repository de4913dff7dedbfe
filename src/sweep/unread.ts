/** Pull requests a sweep could not read: their namespaces are kept, and the check says so. Pure. */
import type { Settings } from '../settings/settings.js';
import type { SweepEntry } from '../model/sweep.js';

/**
 * The check fails when a pull request could not be read (no answer in time, a rate limit, another PR's answer):
 * its namespace was kept, rightly, but a sweep that cannot see GitHub must not pass unseen night after night.
 */
export function unreadPulls(failOn: Settings['failOn'], entries: readonly SweepEntry[]): string[] {
  if (failOn === 'never') return [];
  const prs = [...new Set(entries.filter((e) => e.pull?.state === 'unknown').map((e) => e.pr!))];
  if (prs.length === 0) return [];
  const named = prs
    .slice(0, 10)
    .map((n) => `#${n}`)
    .join(', ');
  const more = prs.length > 10 ? ` and ${prs.length - 10} more` : '';
  return [
    `${prs.length} pull request(s) could not be read from GitHub, so their namespaces were kept: ${named}${more}`,
  ];
}
