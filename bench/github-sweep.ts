/**
 * Section 8: a sweep of many preview namespaces over as many pull requests, against the fake API server and a local
 * GitHub stand-in that answers after a simulated round trip — asked through GraphQL, and through REST (GraphQL
 * refused). GitHub requests, wall time, and whether both paths decided the same.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { performance } from 'node:perf_hooks';
import { runEngine } from '../src/entry/engine.js';
import { createGitHub } from '../src/github/create.js';
import { createKube } from '../src/kube/client.js';
import { readSettings } from '../src/settings/settings.js';
import { RecordingLogger, systemClock, type Logger } from '../src/shared/ports.js';
import { FakeCluster } from '../test/fake-apiserver/index.js';
import type { RunReport } from '../src/model/run.js';
import { FakeGitHub } from '../test/github/fake-github.js';
import type { Options } from './args.js';
import { shortMs as ms, type Target } from './stats.js';

export const TOKEN = 'bench-token';
const LABEL = 'preview.example.com/pr';
/** The stand-in's answer time, like a round trip from a runner to api.github.com. */
export const GITHUB_LATENCY_MS = 50;
const REQUEST_GOAL = 15;

export interface SweepRun {
  api: 'graphql' | 'rest';
  githubRequests: number;
  wallMs: number;
  /** From the first GitHub request's arrival to the last one's, plus one answer time. */
  githubMs: number;
  go: number;
  keep: number;
  /** Kept by the keep label on their pull request. */
  keptByLabel: number;
  unknown: number;
  /** namespace → decision, to compare the two paths. */
  decisions: string;
}

export interface GithubSweepResult {
  namespaces: number;
  pulls: number;
  latencyMs: number;
  runs: SweepRun[];
}

const hoursAgo = (h: number): string => new Date(Date.now() - h * 3_600_000).toISOString();

/**
 * `pulls` pull requests, each with the namespaces `namespaces(pr)` labelled with its number (one by default); every
 * third PR open, every tenth unknown to GitHub, the rest closed or merged two days ago; every seventh carries the
 * keep label `keep-preview` (the sweep asks for labels in the same queries).
 */
export function seed(
  cluster: FakeCluster,
  gh: FakeGitHub,
  pulls: number,
  namespaces = (pr: number): string[] => [`pr-${pr}`],
): void {
  for (let pr = 1; pr <= pulls; pr++) {
    for (const name of namespaces(pr))
      cluster.addNamespace(name, { labels: { [LABEL]: String(pr) }, createdAt: hoursAgo(72) });
    const labels = pr % 7 === 0 ? ['preview', 'keep-preview'] : ['preview'];
    if (pr % 3 === 0) gh.pulls.set(pr, { state: 'open', labels });
    else if (pr % 10 !== 1)
      gh.pulls.set(pr, {
        state: 'closed',
        closed_at: hoursAgo(48),
        merged_at: pr % 2 ? hoursAgo(48) : null,
        labels,
      });
  }
}

/**
 * Start both stand-ins, run the real engine's sweep with `inputs` (beside the label, repository and token) and
 * `deps`, and `read` the report, its wall time and its start (epoch ms) before both stop.
 */
export async function sweepOnce<T>(
  cluster: FakeCluster,
  gh: FakeGitHub,
  inputs: Record<string, string>,
  deps: { pollMs?: number; progressMs?: number; logger?: Logger },
  read: (report: RunReport, wallMs: number, startedAt: number) => T,
): Promise<T> {
  const { kubeconfig } = await cluster.start();
  const base = await gh.start();
  try {
    const all: Record<string, string> = {
      'sweep-pr-label': LABEL,
      'sweep-repository': 'acme/shop',
      'github-token': TOKEN,
      // action.yml's default.
      'keep-label': 'keep-preview',
      ...inputs,
    };
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const github = await createGitHub({ token: TOKEN, baseUrl: base, clock: systemClock });
    const kube = createKube(kc);
    const wiring = {
      kube,
      logger: new RecordingLogger(),
      clock: systemClock,
      serverUrl: 'https://github.com',
    };
    const t0 = performance.now();
    const startedAt = Date.now();
    const report = await runEngine(
      readSettings((n) => all[n] ?? ''),
      { ...wiring, ...deps, github: async () => github },
      {},
    );
    const wallMs = performance.now() - t0;
    await kube.close();
    return read(report, wallMs, startedAt);
  } finally {
    await cluster.stop();
    await gh.stop();
  }
}

function once(api: 'graphql' | 'rest', pulls: number, latencyMs: number): Promise<SweepRun> {
  const cluster = new FakeCluster();
  const gh = new FakeGitHub(TOKEN);
  gh.delayMs = latencyMs;
  gh.graphql = api === 'graphql';
  seed(cluster, gh, pulls);
  return sweepOnce(cluster, gh, { sweep: 'plan' }, {}, (report, wallMs) => {
    const entries = report.sweep!.entries;
    const at = gh.requests.map((r) => r.at);
    return {
      api,
      githubRequests: gh.requests.length,
      wallMs,
      githubMs: Math.max(...at) - Math.min(...at) + latencyMs,
      go: entries.filter((e) => e.decision === 'go').length,
      keep: entries.filter((e) => e.decision === 'keep').length,
      keptByLabel: entries.filter((e) => e.keptBy !== undefined).length,
      unknown: entries.filter((e) => e.pull?.state === 'unknown').length,
      decisions: JSON.stringify(entries.map((e) => [e.namespace, e.decision])),
    };
  });
}

/** Section 8: both paths, GraphQL first. */
export async function runGithubSweep(opts: Options, log: (line: string) => void): Promise<GithubSweepResult> {
  const pulls = opts.smoke ? 20 : opts.quick ? 100 : 1000;
  const runs: SweepRun[] = [];
  for (const api of ['graphql', 'rest'] as const) {
    const run = await once(api, pulls, GITHUB_LATENCY_MS);
    log(
      `sweep: ${pulls} namespaces through ${api}: ${run.githubRequests} GitHub requests, ${Math.round(run.wallMs)} ms`,
    );
    runs.push(run);
  }
  return { namespaces: pulls, pulls, latencyMs: GITHUB_LATENCY_MS, runs };
}

/** The target: GitHub requests of the GraphQL path, with the same decisions as the REST path. */
export function githubSweepTargets(r: GithubSweepResult): Target[] {
  const [gql, rest] = r.runs as [SweepRun, SweepRun];
  const same = gql.decisions === rest.decisions;
  return [
    {
      id: 'sweep-requests',
      name: `Sweep of ${r.namespaces.toLocaleString('en-US')} namespaces over ${r.pulls.toLocaleString('en-US')} pull requests: GitHub requests`,
      goal: `≤ ${REQUEST_GOAL} requests, the same decisions as through REST`,
      pass: gql.githubRequests <= REQUEST_GOAL && same && gql.unknown === 0 && gql.keptByLabel > 0,
      measured:
        `${gql.githubRequests} request(s) in ${ms(gql.wallMs)} (REST: ${rest.githubRequests} in ${ms(rest.wallMs)}); ` +
        `decisions ${same ? 'identical' : 'DIFFER'}, ${gql.keptByLabel} kept by label`,
    },
  ];
}

/** Section 8 of BENCHMARKS.md. */
export function renderGithubSweep(r: GithubSweepResult): string {
  const rows = r.runs.map(
    (x) =>
      `| ${x.api === 'graphql' ? '**GraphQL**, 100 pull requests per query' : 'REST, one `GET …/pulls/N` per pull request (GraphQL refused: 404)'} | ${x.githubRequests} | ${ms(x.githubMs)} | ${ms(x.wallMs)} | ${x.go} go, ${x.keep} kept (${x.keptByLabel} by label), ${x.unknown} unknown |`,
  );
  return `## 8. Sweep: asking GitHub about ${r.pulls.toLocaleString('en-US')} pull requests

**Setup.** ${r.namespaces.toLocaleString('en-US')} namespaces, one per pull request, labelled with its number, on the fake API server
(in this process); a local GitHub stand-in (test/github/fake-github.ts, HTTP on 127.0.0.1) that answers every request
after ${r.latencyMs} ms, like a round trip to api.github.com. Every third pull request is open, every tenth unknown to
GitHub, the others closed or merged two days ago; every seventh carries the keep label \`keep-preview\` (the default
\`keep-label\`), so each query asks for the labels too (\`labels(first: 100)\` on each pull request, still one point) and
those previews are kept. The engine is the real one, \`runEngine\` with \`sweep: plan\` (nothing is
deleted), the client from \`createGitHub\` with its defaults (4 requests in flight). Once with the stand-in's GraphQL
endpoint, once with it answering 404 there, so that the sweep asks through REST.

| Path | GitHub requests | GitHub phase | Wall time (whole sweep) | Decisions |
| --- | --- | --- | --- | --- |
${rows.join('\n')}

The GitHub phase runs from the first request's arrival to the last one's, plus one answer time. Through REST the
${r.pulls.toLocaleString('en-US')} requests take ${Math.ceil(r.pulls / 4)} rounds of four at ${r.latencyMs} ms at the least; through GraphQL the ${Math.ceil(r.pulls / 100)}
queries (the first alone, to learn whether GraphQL is offered) take ${1 + Math.ceil((Math.ceil(r.pulls / 100) - 1) / 4)} rounds. Before, a sweep sent one REST request per pull
request and stopped at 500; the default \`GITHUB_TOKEN\` has 1,000 REST requests per hour per repository, and a
GraphQL query of 100 pull requests costs one point of its own budget.`;
}
