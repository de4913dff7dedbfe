/** The sweep: list candidates, ask GitHub about their pull requests in batches, decide: the targets of the run. */
import { compareText } from '../shared/compare.js';
import type { GitHubApi } from '../github/port.js';
import { askPullStates, type PullStates } from '../github/pull-states.js';
import type { PullState } from '../model/pulls.js';
import type { NamespaceState } from '../model/cluster.js';
import { isProtected, type Settings } from '../settings/settings.js';
import { formatAge, formatDuration } from '../shared/duration.js';
import { identityProblem, type Resolved } from '../targets/resolve.js';
import { selectorMatches } from '../targets/selector.js';
import { fenceRefusal } from '../targets/fence.js';
import type { TeardownDeps } from '../teardown/delete-and-wait.js';
import type { RunTargets } from '../teardown/run-teardown.js';
import type { Logger } from '../shared/ports.js';
import { decide, prNumberOf } from './decide.js';
import { unreadPulls } from './unread.js';
import { candidateSelector } from '../settings/sweep-inputs.js';
import { webUrl } from '../shared/urls.js';
import type { Decision, SweepEntry, SweepReport, SweepSettings } from '../model/sweep.js';

/** What the sweep needs: the cluster to list, GitHub to ask, the clock and the log. */
export interface SweepDeps extends Pick<TeardownDeps, 'kube' | 'logger' | 'clock'> {
  github: GitHubApi;
  /** `https://github.com` or the GitHub Enterprise Server address, for pull request links. */
  serverUrl: string;
}

/**
 * The namespaces listed by `listedBy`, each checked client-side as the selector path does: a list answer that
 * ignored the selector (a proxy, an aggregated layer, a bug) must never make a namespace a candidate.
 */
async function listCandidates(
  deps: SweepDeps,
  listedBy: string,
): Promise<{ candidates: NamespaceState[]; unmatched: number }> {
  const candidates: NamespaceState[] = [];
  const others: string[] = [];
  for (const ns of await deps.kube.listNamespaces(listedBy)) {
    if (ns.name && selectorMatches(listedBy, ns.labels)) candidates.push(ns);
    else others.push(ns.name || '(no name)');
  }
  if (others.length > 0) {
    const shown = others.slice(0, 5).join(', ') + (others.length > 5 ? ', …' : '');
    deps.logger.warning(
      `the namespace list answered ${others.length} namespace(s) that do not match "${listedBy}" (${shown}): ` +
        'not candidates, never touched',
    );
  }
  return { candidates, unmatched: others.length };
}

/** Ask about each distinct pull request number once; the client bounds concurrency and rate limits. */
async function askGitHub(
  sweep: SweepSettings,
  keepLabel: string | undefined,
  candidates: NamespaceState[],
  github: GitHubApi,
): Promise<PullStates> {
  const numbers = new Set<number>();
  for (const ns of candidates) {
    if (!ns.uid) continue;
    const pr = prNumberOf(ns.labels[sweep.prLabel]);
    if (typeof pr === 'number') numbers.add(pr);
  }
  return askPullStates(github, sweep.repository, numbers, { labels: keepLabel !== undefined });
}

/** One warning when GitHub left pull requests unknown (no answer in time, a rate limit, another PR's answer). */
function warnUnknown(states: Map<number, PullState>, logger: Logger): void {
  const unknown = [...states].filter(([, s]) => s.state === 'unknown');
  const [first] = unknown;
  if (!first) return;
  const why = first[1].state === 'unknown' ? first[1].error : '';
  logger.warning(`${unknown.length} pull request(s) unknown, their namespaces kept; PR #${first[0]}: ${why}`);
}

/** GitHub's link to the pull request when it is the one asked about (this server, this path), else one made here. */
function pullUrl(pull: PullState | undefined, serverUrl: string, path: string): string {
  const given = pull && 'url' in pull ? webUrl(pull.url, serverUrl) : undefined;
  return given?.pathname.toLowerCase() === path.toLowerCase() ? given.href : `${serverUrl}${path}`;
}

/** A candidate that would go, protected or without the run's target label: marked, so it is never touched. */
function guard(
  settings: Settings,
  ns: NamespaceState,
  decision: Decision,
): Pick<SweepEntry, 'protected' | 'missingLabel'> {
  if (decision.decision !== 'go') return {};
  if (isProtected(settings, ns.name)) return { protected: true };
  return fenceRefusal(settings.targetLabel, ns) ? { missingLabel: settings.targetLabel } : {};
}

/** Decide for every candidate; protected or unlabelled ones that would go are marked and never become targets to touch. */
export function decideAll(
  settings: Settings,
  sweep: SweepSettings,
  candidates: NamespaceState[],
  pulls: Map<number, PullState>,
  now: number,
  serverUrl: string,
): SweepEntry[] {
  const { owner, repo } = sweep.repository;
  const rules = { ...sweep, lifeMs: settings.lifecycle.maxAgeMs, keepLabel: settings.lifecycle.keepLabel };
  return candidates
    .map((ns): SweepEntry => {
      const label = ns.labels[sweep.prLabel];
      const pr = prNumberOf(label);
      const pull = typeof pr === 'number' ? pulls.get(pr) : undefined;
      // Without a UID no delete can carry the precondition that keeps it from another namespace of that name.
      const unverified = identityProblem(ns.name, ns);
      const decision: Decision = unverified
        ? { decision: 'keep', reason: unverified }
        : decide({ label, createdAt: ns.creationTimestamp, annotations: ns.annotations, pull }, rules, now);
      return {
        namespace: ns.name,
        label,
        pr: typeof pr === 'number' ? pr : undefined,
        pull,
        prUrl: typeof pr === 'number' ? pullUrl(pull, serverUrl, `/${owner}/${repo}/pull/${pr}`) : undefined,
        createdAt: ns.creationTimestamp,
        ...decision,
        ...guard(settings, ns, decision),
      };
    })
    .sort((a, b) => compareText(a.namespace, b.namespace));
}

/** Why the run refuses a namespace the sweep chose, if it does: protected, or without the target label. */
function refusal(e: SweepEntry, ns: NamespaceState | undefined): Pick<Resolved, 'refused' | 'missingLabel'> {
  if (e.protected) return { refused: 'protected namespace chosen by the sweep; not touched' };
  if (e.missingLabel === undefined || !ns) return {};
  return { refused: fenceRefusal(e.missingLabel, ns), missingLabel: e.missingLabel };
}

/**
 * The sweep's choice, for the run to work on: with `plan` no target, with `on` the namespaces that go (a protected one
 * refused); and the sweep's report, with why the check fails for the pull requests GitHub left unread.
 */
export async function sweepTargets(settings: Settings, deps: SweepDeps): Promise<RunTargets> {
  const sweep = settings.sweep!;
  const listedBy = candidateSelector(sweep, settings.selector);
  const { candidates, unmatched, asked } = await deps.logger.group('Sweep: ask GitHub', async () => {
    const { candidates, unmatched } = await listCandidates(deps, listedBy);
    const asked = await askGitHub(sweep, settings.lifecycle.keepLabel, candidates, deps.github);
    if (asked.fallback) deps.logger.info(`GraphQL refused, asked through REST: ${asked.fallback}`);
    warnUnknown(asked.states, deps.logger);
    deps.logger.info(
      `${candidates.length} candidate namespace(s) (${listedBy}), ${asked.states.size} pull request(s) of ` +
        `${sweep.repository.owner}/${sweep.repository.repo}, ${deps.github.sent} GitHub request(s) (${asked.via})`,
    );
    return { candidates, unmatched, asked };
  });
  const pulls = asked.states;
  const entries = decideAll(settings, sweep, candidates, pulls, deps.clock.now(), deps.serverUrl);
  for (const e of entries) {
    const verb = e.decision === 'go' ? (sweep.mode === 'plan' ? 'would go' : 'goes') : 'kept';
    const guarded = e.protected
      ? ' (protected: not touched)'
      : e.missingLabel !== undefined
        ? ` (without the target label ${e.missingLabel}: not touched)`
        : '';
    const line = `${e.namespace}: ${verb} — ${e.reason}${guarded}`;
    if (e.invalidLabel || e.invalidAnnotation) deps.logger.warning(line);
    else deps.logger.info(line);
  }
  const byName = new Map(candidates.map((ns) => [ns.name, ns]));
  const chosen: Resolved[] =
    sweep.mode === 'plan'
      ? []
      : entries
          .filter((e) => e.decision === 'go')
          .map((e) => ({
            name: e.namespace,
            state: byName.get(e.namespace),
            ...refusal(e, byName.get(e.namespace)),
          }));
  const lifeMs = settings.lifecycle.maxAgeMs;
  const summary: SweepReport = {
    mode: sweep.mode,
    repository: `${sweep.repository.owner}/${sweep.repository.repo}`,
    prLabel: sweep.prLabel,
    closedFor: formatDuration(sweep.closedForMs),
    maxAge: sweep.maxAgeMs !== undefined ? formatDuration(sweep.maxAgeMs) : undefined,
    lifetime: lifeMs !== undefined ? formatAge(lifeMs) : undefined,
    keepLabel: settings.lifecycle.keepLabel,
    listedBy,
    ...(unmatched ? { unmatched } : {}),
    pulls: pulls.size,
    githubRequests: deps.github.sent,
    githubApi: asked.via,
    githubFallback: asked.fallback,
    entries,
  };
  return { targets: chosen, sweep: { report: summary, failures: unreadPulls(settings.failOn, entries) } };
}
