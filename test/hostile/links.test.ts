/**
 * Links in the summary and the PR comment come only from parsed URLs on the GitHub server: a pull request `url` from
 * GitHub that tries to end its link early, point elsewhere or run script never does, and is replaced by the link
 * made from the server address and the number asked.
 */
import type { NamespaceState } from '../../src/model/cluster.js';
import type { PullState } from '../../src/model/pulls.js';
import type { RunReport } from '../../src/model/run.js';
import { renderComment } from '../../src/report/comment.js';
import { renderSummary } from '../../src/report/markdown.js';
import { readSettings } from '../../src/settings/settings.js';
import { decideAll } from '../../src/sweep/sweep-targets.js';
import { gfm, gfmProblems } from '../helpers/gfm.js';
import { runReport } from '../helpers/reports.js';

const SERVER = 'https://github.com';
const LABEL = 'preview.example.com/pr';
const NOW = Date.parse('2026-11-22T12:00:00Z');
const OWN = (n: number): string => `${SERVER}/acme/shop/pull/${n}`;

const settings = readSettings(
  (name) =>
    ({
      sweep: 'plan',
      'sweep-pr-label': LABEL,
      'sweep-repository': 'acme/shop',
      'github-token': 'ghs_x',
    })[name] ?? '',
);

const ROWS: { name: string; url: string; expect: string }[] = [
  { name: "GitHub's own link", url: OWN(1), expect: OWN(1) },
  {
    name: 'a ) that would end the markdown link',
    url: `${OWN(2)})[merged](https://evil.example)`,
    expect: OWN(2),
  },
  { name: 'another host', url: 'https://evil.example/acme/shop/pull/3', expect: OWN(3) },
  { name: 'a look-alike host', url: 'https://github.com.evil.example/acme/shop/pull/4', expect: OWN(4) },
  {
    name: 'credentials before the host',
    url: 'https://github.com@evil.example/acme/shop/pull/5',
    expect: OWN(5),
  },
  { name: 'another pull request', url: OWN(99), expect: OWN(6) },
  { name: 'another repository', url: `${SERVER}/mallory/shop/pull/7`, expect: OWN(7) },
  { name: 'script', url: 'javascript:alert(document.cookie)//acme/shop/pull/8', expect: OWN(8) },
  { name: 'not a URL', url: 'see pull 9', expect: OWN(9) },
];

function sweepReport(): RunReport {
  const candidates: NamespaceState[] = ROWS.map((_, i) => ({
    name: `pr-${i + 1}`,
    uid: `uid-${i + 1}`,
    phase: 'Active',
    labels: { [LABEL]: String(i + 1) },
    creationTimestamp: '2026-11-01T00:00:00Z',
    resourceVersion: '1',
    metadataFinalizers: [],
    specFinalizers: [],
    conditions: [],
  }));
  const pulls = new Map<number, PullState>(
    ROWS.map((r, i) => [i + 1, { state: 'closed', closedAt: '2026-11-20T00:00:00Z', url: r.url }]),
  );
  const entries = decideAll(settings, settings.sweep!, candidates, pulls, NOW, SERVER);
  return runReport([], {
    context: {
      repository: 'acme/shop',
      runUrl: `${SERVER}/acme/shop/actions/runs/7`,
      serverUrl: SERVER,
    },
    sweep: {
      mode: 'plan',
      repository: 'acme/shop',
      prLabel: LABEL,
      closedFor: '1h',
      listedBy: LABEL,
      pulls: ROWS.length,
      githubRequests: 1,
      githubApi: 'graphql',
      entries,
    },
  });
}

describe('a pull request url from GitHub', () => {
  const report = sweepReport();
  test.each(ROWS.map((r, i) => ({ ...r, i })))('$name: the link is $expect', ({ i, expect: want }) => {
    expect(report.sweep!.entries[i]!.prUrl).toBe(want);
  });

  test('the summary links only to those pull requests and the run, and keeps its table', () => {
    const summary = renderSummary(report);
    const allowed = [...ROWS.map((_, i) => OWN(i + 1)), `${SERVER}/acme/shop/actions/runs/7`];
    expect(gfmProblems(summary, allowed)).toEqual([]);
    expect(gfm.render(summary)).not.toContain('evil.example');
  });

  test('a url that reaches the renderer as it came is escaped or left out, never a link elsewhere', () => {
    const raw = sweepReport();
    raw.sweep!.entries.forEach((e, i) => (e.prUrl = ROWS[i]!.url));
    const summary = renderSummary(raw);
    const html = gfm.render(summary);
    expect(html).not.toMatch(/href="(?!https:\/\/github\.com\/)/);
    expect(html).toContain(`href="${OWN(2)}%29%5Bmerged%5D%28https://evil.example%29"`);
    expect(gfmProblems(summary, [/^https:\/\/github\.com\//])).toEqual([]);
  });
});

describe('the link to the workflow run', () => {
  test.each([
    { name: 'a repository name with a ) in it', repository: 'acme/shop)[x](https://evil.example' },
    { name: 'a repository name with a space and a title', repository: 'acme/shop "t"' },
  ])('$name: every link of the summary and the comment goes to the run, on the server', ({ repository }) => {
    const report = runReport([], {
      context: { repository, runUrl: `${SERVER}/${repository}/actions/runs/7`, serverUrl: SERVER },
    });
    for (const text of [renderSummary(report), renderComment(report)]) {
      const hrefs = [...gfm.render(text).matchAll(/href="([^"]*)"/g)].map((m) => m[1]!);
      expect(hrefs.length).toBeGreaterThan(0);
      for (const href of hrefs)
        expect(href).toMatch(/^https:\/\/github\.com\/acme\/shop[^ ()"]*\/actions\/runs\/7$/);
    }
  });

  test('a server other than the run says: no link', () => {
    const report = runReport([], {
      context: { runUrl: 'https://evil.example/acme/shop/actions/runs/7', serverUrl: SERVER },
    });
    expect(gfm.render(renderComment(report))).not.toContain('href=');
  });
});
