/** The states of many pull requests: GraphQL in batches of 100, REST one by one where GraphQL is refused. */
import { messageOf } from '../shared/errors.js';
import {
  GRAPHQL_BATCH,
  GRAPHQL_INT_MAX,
  pullsQuery,
  pullsVariables,
  readPulls,
  type PullsData,
} from './graphql-pulls.js';
import { GitHubError, type GitHubApi, type GraphqlAnswer } from './port.js';
import type { RepoRef, PullState } from '../model/pulls.js';
import { getPullState } from './get-pull.js';

/** Pull requests asked about in one run; the others are kept as unknown. */
export const MAX_PULLS_PER_RUN = 2000;

/** What GitHub said, and how it was asked. */
export interface PullStates {
  states: Map<number, PullState>;
  /** `graphql`, or `rest` when GraphQL was refused (`fallback` says how). */
  via: 'graphql' | 'rest';
  fallback?: string;
}

/** Answers that mean "GraphQL is not offered to this token here", not "GitHub failed": asked again through REST. */
const REFUSED = new Set([400, 403, 404, 405, 410, 415, 422, 501]);

function refusal(error: unknown): string | undefined {
  if (!(error instanceof GitHubError) || error.kind === 'rate-limited' || error.kind === 'cap')
    return undefined;
  return error.status !== undefined && REFUSED.has(error.status) ? error.message : undefined;
}

/** An answer with no data whose errors concern no field (a query the server does not understand). */
function unsupported(answer: GraphqlAnswer<PullsData>): string | undefined {
  if (answer.data !== null || answer.errors.some((e) => Array.isArray(e.path))) return undefined;
  const first = answer.errors[0];
  return first
    ? `GitHub GraphQL refused the query: ${String(first.message ?? first.type ?? 'error').slice(0, 200)}`
    : 'GitHub GraphQL answered neither data nor errors';
}

function chunks(numbers: readonly number[], size: number): number[][] {
  const out: number[][] = [];
  for (let i = 0; i < numbers.length; i += size) out.push(numbers.slice(i, i + size));
  return out;
}

/**
 * Ask for every distinct number, at most `maxPulls` (lowest first), with their labels when `labels`. The first batch goes alone: when GraphQL is
 * refused, the rest go straight to REST; any other failure keeps that batch unknown, with the reason.
 */
export async function askPullStates(
  api: GitHubApi,
  repo: RepoRef,
  numbers: Iterable<number>,
  options: { labels?: boolean; maxPulls?: number } = {},
): Promise<PullStates> {
  const maxPulls = options.maxPulls ?? MAX_PULLS_PER_RUN;
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const states = new Map<number, PullState>();
  for (const n of sorted.slice(maxPulls))
    states.set(n, { state: 'unknown', error: `not asked: the cap of ${maxPulls} pull requests per run` });
  const asked = sorted.slice(0, maxPulls);
  let fallback: string | undefined;
  const viaRest = async (batch: readonly number[]): Promise<void> => {
    const answers = await Promise.all(batch.map((n) => getPullState(api, repo, n)));
    batch.forEach((n, i) => states.set(n, answers[i]!));
  };
  const viaGraphql = async (batch: number[]): Promise<void> => {
    if (fallback === undefined) {
      try {
        const answer = await api.graphql<PullsData>(pullsQuery(batch, options.labels), pullsVariables(repo));
        fallback ??= unsupported(answer);
        if (fallback === undefined) {
          for (const [n, s] of readPulls(batch, answer)) states.set(n, s);
          return;
        }
      } catch (error) {
        fallback ??= refusal(error);
        if (fallback === undefined) {
          for (const n of batch) states.set(n, { state: 'unknown', error: messageOf(error) });
          return;
        }
      }
    }
    await viaRest(batch);
  };
  const batches = chunks(
    asked.filter((n) => n <= GRAPHQL_INT_MAX),
    GRAPHQL_BATCH,
  );
  if (batches[0]) await viaGraphql(batches[0]);
  await Promise.all([...batches.slice(1).map(viaGraphql), viaRest(asked.filter((n) => n > GRAPHQL_INT_MAX))]);
  return { states, via: fallback === undefined ? 'graphql' : 'rest', fallback };
}
