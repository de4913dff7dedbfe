/**
 * The sweep at scale: 200 preview namespaces over 150 pull requests, against the fake API server and a local
 * GitHub stand-in over HTTP with a simulated round trip. Prints requests to each side and the wall time.
 * Usage: tsx bench/sweep.ts [--latency MS] (default 50).
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { runEngine } from '../src/entry/engine.js';
import { createGitHub } from '../src/github/client.js';
import { createKube } from '../src/kube/client.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock } from '../src/shared/ports.js';
import { FakeCluster } from '../test/fake-apiserver/index.js';
import { FakeGitHub } from '../test/github/fake-github.js';

const LABEL = 'preview.example.com/pr';
const TOKEN = 'bench-token';
const FAST = { queueDelayMs: 20, finalizerRecheckMs: 60, errorBackoffMaxMs: 200 };
const latency = Number(process.argv[process.argv.indexOf('--latency') + 1] ?? 50) || 0;
const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();

/** PRs 1–50 have two namespaces (app, db), 51–150 one: 200 in all. Every third PR is open, every tenth is
 * unknown to GitHub, the rest closed or merged two days ago. */
function seed(cluster: FakeCluster, gh: FakeGitHub): void {
  for (let pr = 1; pr <= 150; pr++) {
    for (const part of pr <= 50 ? ['app', 'db'] : ['app'])
      cluster.addNamespace(`pr-${pr}-${part}`, { labels: { [LABEL]: String(pr) }, createdAt: hoursAgo(72) });
    if (pr % 3 === 0) gh.pulls.set(pr, { state: 'open' });
    else if (pr % 10 !== 1)
      gh.pulls.set(pr, { state: 'closed', closed_at: hoursAgo(48), merged_at: pr % 2 ? hoursAgo(48) : null });
  }
}

async function once(mode: 'plan' | 'on'): Promise<void> {
  const cluster = new FakeCluster({ controller: FAST });
  const gh = new FakeGitHub(TOKEN);
  gh.delayMs = latency;
  seed(cluster, gh);
  const { kubeconfig } = await cluster.start();
  const api = await gh.start();
  try {
    const settings = readSettings(
      (n) =>
        ({
          sweep: mode,
          'sweep-pr-label': LABEL,
          'sweep-repository': 'acme/shop',
          'github-token': TOKEN,
          timeout: '2m',
        })[n] ?? '',
    );
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const github = await createGitHub({ token: TOKEN, baseUrl: api, clock: systemClock });
    const t0 = performance.now();
    const startedAt = Date.now();
    const report = await runEngine(
      settings,
      {
        kube: createKube(kc),
        logger: new RecordingLogger(),
        clock: systemClock,
        github: async () => github,
        serverUrl: 'https://github.com',
        pollMs: 2000,
        progressMs: 60_000,
      },
      {},
    );
    const wall = performance.now() - t0;
    const byMethod = new Map<string, number>();
    for (const r of cluster.requests) {
      const kind = r.method === 'GET' && /(^|&)watch=(true|1)/.test(r.query) ? 'WATCH' : r.method;
      byMethod.set(kind, (byMethod.get(kind) ?? 0) + 1);
    }
    const lastGitHub = Math.max(...gh.requests.map((r) => r.at));
    const entries = report.sweep!.entries;
    console.log(
      JSON.stringify({
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
      }),
    );
  } finally {
    await cluster.stop();
    await gh.stop();
  }
}

for (const mode of ['plan', 'on'] as const) await once(mode);
