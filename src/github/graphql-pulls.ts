/** One GraphQL query for the states of up to 100 pull requests (aliases), and its answer read. Pure. */
import type { GraphqlAnswer, GraphqlError } from './port.js';
import type { RepoRef, PullState } from '../model/pulls.js';
import { otherPull } from './same-pull.js';

/** Pull requests per query: GitHub's node limit for one connection page, and a query that costs one point. */
export const GRAPHQL_BATCH = 100;

/** The largest number GraphQL's `Int` holds; a larger label value is asked through REST. */
export const GRAPHQL_INT_MAX = 2 ** 31 - 1;

interface PullNode {
  number?: number;
  state?: string;
  closedAt?: string | null;
  mergedAt?: string | null;
  url?: string;
  labels?: { totalCount?: number; nodes?: ({ name?: string } | null)[] | null } | null;
}

/** The shape of the answer's `data`. */
export interface PullsData {
  rateLimit?: { cost?: number; remaining?: number; resetAt?: string };
  repository?: Record<string, PullNode | null> | null;
}

const alias = (n: number): string => `pr${n}`;

/** GitHub allows at most 100 labels on an issue or pull request: one page holds them all. */
export const LABELS_PER_PULL = 100;

/**
 * The query; numbers are validated integers written as literals, owner and name go as variables. With `labels`,
 * each pull request's label names come in the same query (100 connections of one page each: still one point).
 */
export function pullsQuery(numbers: readonly number[], labels = false): string {
  const more = labels ? ` labels(first: ${LABELS_PER_PULL}) { totalCount nodes { name } }` : '';
  const fields = numbers.map(
    (n) => `    ${alias(n)}: pullRequest(number: ${n}) { number state closedAt mergedAt url${more} }`,
  );
  return [
    'query($owner: String!, $name: String!) {',
    '  rateLimit { cost remaining resetAt }',
    '  repository(owner: $owner, name: $name) {',
    ...fields,
    '  }',
    '}',
  ].join('\n');
}

/** The variables of `pullsQuery`. */
export function pullsVariables(repo: RepoRef): Record<string, string> {
  return { owner: repo.owner, name: repo.repo };
}

const describe = (e: GraphqlError): string =>
  `GitHub GraphQL: ${e.type ? `${e.type}: ` : ''}${String(e.message ?? 'error').slice(0, 200)}`;

/** The label names when the answer holds all of them; undefined when it holds none or only some. */
function labelsOf(node: PullNode): { labels?: string[] } {
  const nodes = node.labels?.nodes;
  if (!Array.isArray(nodes)) return {};
  const names = nodes.map((l) => l?.name).filter((name): name is string => typeof name === 'string');
  return names.length === node.labels?.totalCount ? { labels: names } : {};
}

function stateOf(n: number, node: PullNode): PullState {
  const other = otherPull(n, node);
  if (other) return { state: 'unknown', error: other };
  const url = typeof node.url === 'string' ? node.url : undefined;
  const labels = labelsOf(node);
  if (node.state === 'OPEN') return { state: 'open', url, ...labels };
  if (node.state === 'MERGED' && typeof node.mergedAt === 'string')
    return { state: 'merged', closedAt: node.mergedAt, url, ...labels };
  if (node.state === 'CLOSED' && typeof node.closedAt === 'string')
    return { state: 'closed', closedAt: node.closedAt, url, ...labels };
  return { state: 'unknown', error: `unexpected pull request state "${String(node.state)}"` };
}

/**
 * Each number's state from one answer. An error on one alias concerns that pull request only: `NOT_FOUND` is a
 * missing one (as REST's 404), any other keeps it unknown with GitHub's words; no node and no error is unknown too,
 * and so is a node that is another pull request than its alias asked for.
 */
export function readPulls(
  numbers: readonly number[],
  answer: GraphqlAnswer<PullsData>,
): Map<number, PullState> {
  const byAlias = new Map<string, GraphqlError>();
  const general: GraphqlError[] = [];
  for (const e of answer.errors) {
    const key = e.path?.[0] === 'repository' ? e.path[1] : undefined;
    if (typeof key === 'string') byAlias.set(key, e);
    else general.push(e);
  }
  const repository = answer.data?.repository;
  const whole = general[0];
  return new Map(
    numbers.map((n): [number, PullState] => {
      const error = byAlias.get(alias(n));
      const node = repository?.[alias(n)];
      if (node) return [n, stateOf(n, node)];
      if (error?.type === 'NOT_FOUND') return [n, { state: 'missing' }];
      if (error) return [n, { state: 'unknown', error: describe(error) }];
      if (whole) return [n, { state: 'unknown', error: describe(whole) }];
      return [n, { state: 'unknown', error: 'GitHub GraphQL answered no pull request and no error' }];
    }),
  );
}
