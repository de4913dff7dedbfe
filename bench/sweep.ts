/**
 * The sweep at scale: 200 preview namespaces over 150 pull requests, against the fake API server and a local
 * GitHub stand-in over HTTP with a simulated round trip. Prints requests to each side and the wall time.
 * Usage: tsx bench/sweep.ts [--latency MS] (default 50).
 */
import { FakeCluster, FAST } from '../test/fake-apiserver/index.js';
import { FakeGitHub } from '../test/github/fake-github.js';
import { seed, sweepOnce, TOKEN } from './github-sweep.js';

const latency = Number(process.argv[process.argv.indexOf('--latency') + 1] ?? 50) || 0;

/** PRs 1–50 have two namespaces (app, db), 51–150 one: 200 in all. */
const namespaces = (pr: number): string[] =>
  (pr <= 50 ? ['app', 'db'] : ['app']).map((part) => `pr-${pr}-${part}`);

async function once(mode: 'plan' | 'on'): Promise<void> {
  const cluster = new FakeCluster({ controller: FAST });
  const gh = new FakeGitHub(TOKEN);
  gh.delayMs = latency;
  seed(cluster, gh, 150, namespaces);
  const line = await sweepOnce(
    cluster,
    gh,
    { sweep: mode, timeout: '2m' },
    { pollMs: 2000, progressMs: 60_000 },
    (report, wall, startedAt) => {
      const byMethod = new Map<string, number>();
      for (const r of cluster.requests) {
        const kind = r.method === 'GET' && /(^|&)watch=(true|1)/.test(r.query) ? 'WATCH' : r.method;
        byMethod.set(kind, (byMethod.get(kind) ?? 0) + 1);
      }
      const lastGitHub = Math.max(...gh.requests.map((r) => r.at));
      const entries = report.sweep!.entries;
      return JSON.stringify({
        mode,
        latencyMs: latency,
        namespaces: entries.length,
        pulls: report.sweep!.pulls,
        go: entries.filter((e) => e.decision === 'go').length,
        kept: entries.filter((e) => e.decision === 'keep').length,
        outcomes: report.targets.reduce<Record<string, number>>(
          (m, t) => ((m[t.outcome] = (m[t.outcome] ?? 0) + 1), m),
          {},
        ),
        githubRequests: gh.requests.length,
        clusterRequests: cluster.requests.length,
        clusterByMethod: Object.fromEntries(byMethod),
        githubPhaseMs: lastGitHub - startedAt,
        wallMs: Math.round(wall),
      });
    },
  );
  console.log(line);
}

for (const mode of ['plan', 'on'] as const) await once(mode);
