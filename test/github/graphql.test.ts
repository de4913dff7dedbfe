import { askPullStates } from '../../src/github/pull-states.js';
import { graphqlUrl } from '../../src/github/create.js';
import {
  askedNumbers,
  beforeEachNock,
  fromBody,
  client,
  github,
  graphqlApi,
  GRAPHQL_PATH,
  pull,
  resetAfter,
} from './helpers.js';

const REPO = { owner: 'acme', repo: 'shop' };
const CLOSED_AT = '2026-11-20T10:00:00Z';
const url = (n: number): string => `https://ghe.example.com/acme/shop/pull/${n}`;
const range = (from: number, to: number): number[] =>
  Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** GitHub's answer for the numbers a query asks: even numbers open, odd ones merged, 13 missing. */
function answer(body: unknown, rateLimit = { cost: 1, remaining: 4000, resetAt: '2026-11-22T13:00:00Z' }) {
  const repository: Record<string, object | null> = {};
  const errors: object[] = [];
  for (const n of askedNumbers(body)) {
    if (n === 13) {
      repository[`pr${n}`] = null;
      errors.push({ type: 'NOT_FOUND', path: ['repository', `pr${n}`], message: 'Could not resolve' });
    } else
      repository[`pr${n}`] =
        n % 2 === 0
          ? { number: n, state: 'OPEN', closedAt: null, mergedAt: null, url: url(n) }
          : { number: n, state: 'MERGED', closedAt: CLOSED_AT, mergedAt: CLOSED_AT, url: url(n) };
  }
  return errors.length ? { data: { rateLimit, repository }, errors } : { data: { rateLimit, repository } };
}

describe('pull request states through GraphQL', () => {
  beforeEachNock();

  test('250 pull requests: three queries of at most 100 aliases, owner and name as variables', async () => {
    const batches: number[][] = [];
    const scope = graphqlApi()
      .post(GRAPHQL_PATH, (body: { variables?: unknown }) => {
        expect(body.variables).toEqual({ owner: 'acme', name: 'shop' });
        return true;
      })
      .times(3)
      .reply(
        200,
        fromBody((body) => (batches.push(askedNumbers(body)), answer(body))),
      );
    const { api } = await client();
    const got = await askPullStates(api, REPO, range(1, 250).reverse());
    scope.done();
    expect(batches.map((b) => b.length).sort((a, b) => a - b)).toEqual([50, 100, 100]);
    expect(batches.flat().sort((a, b) => a - b)).toEqual(range(1, 250));
    expect(api.sent).toBe(3);
    expect(got.via).toBe('graphql');
    expect(got.states.get(2)).toEqual({ state: 'open', url: 'https://ghe.example.com/acme/shop/pull/2' });
    expect(got.states.get(7)).toEqual({ state: 'merged', closedAt: CLOSED_AT, url: url(7) });
    expect(got.states.get(13)).toEqual({ state: 'missing' });
  });

  test('a partial answer: the pull request with an error is unknown with the reason, the others are answered', async () => {
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: {
          repository: {
            pr1: { number: 1, state: 'CLOSED', closedAt: CLOSED_AT, mergedAt: null, url: url(1) },
            pr2: null,
            pr3: { number: 3, state: 'OPEN', closedAt: null, mergedAt: null, url: url(3) },
          },
        },
        errors: [
          {
            type: 'FORBIDDEN',
            path: ['repository', 'pr2'],
            message: 'Resource not accessible by integration',
          },
        ],
      });
    const { api } = await client();
    const got = await askPullStates(api, REPO, [1, 2, 3]);
    expect(got.states.get(1)).toEqual({ state: 'closed', closedAt: CLOSED_AT, url: url(1) });
    expect(got.states.get(2)).toEqual({
      state: 'unknown',
      error: 'GitHub GraphQL: FORBIDDEN: Resource not accessible by integration',
    });
    expect(got.states.get(3)).toMatchObject({ state: 'open' });
  });

  test('a repository GitHub cannot resolve keeps every pull request unknown (never "missing")', async () => {
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, {
        data: { repository: null },
        errors: [
          {
            type: 'NOT_FOUND',
            path: ['repository'],
            message: "Could not resolve to a Repository with the name 'acme/shop'.",
          },
        ],
      });
    const { api } = await client();
    const got = await askPullStates(api, REPO, [4, 5]);
    expect([...got.states.values()].map((s) => s.state)).toEqual(['unknown', 'unknown']);
    expect(got.states.get(4)).toMatchObject({
      error: expect.stringMatching(/NOT_FOUND: Could not resolve to a Repository/),
    });
  });

  test('rate limit inside a 200 answer: waits until x-ratelimit-reset, then asks again', async () => {
    const { api, clock, logger } = await client();
    const scope = graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(
        200,
        { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation ID 1.' }] },
        { 'x-ratelimit-remaining': '3', 'x-ratelimit-reset': resetAfter(clock, 30) },
      )
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const got = await askPullStates(api, REPO, [1, 2]);
    scope.done();
    expect(clock.slept).toEqual([31_000]);
    expect(logger.lines.join('\n')).toMatch(/rate limit: waiting 31 s before GitHub GraphQL/);
    expect(got.states.get(2)).toMatchObject({ state: 'open' });
  });

  test('a used-up point budget that resets too late: that batch unknown, saying why; nothing more is sent', async () => {
    const { api, clock } = await client({ maxWaitMs: 60_000 });
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(
        200,
        { errors: [{ type: 'RATE_LIMIT', message: 'API rate limit already exceeded for user ID 7.' }] },
        { 'x-ratelimit-reset': resetAfter(clock, 3600) },
      );
    const got = await askPullStates(api, REPO, range(1, 150));
    expect(api.sent).toBe(1);
    expect(got.states.get(1)).toEqual({
      state: 'unknown',
      error: 'GitHub GraphQL answered RATE_LIMIT: API rate limit already exceeded for user ID 7.',
    });
    expect(got.states.get(150)).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/rate limit: resets in 3601 s, later than the longest wait/),
    });
    expect(clock.slept).toEqual([]);
  });

  test('a rate-limit error with neither a reset time nor retry-after: waits a minute, then asks again', async () => {
    const { api, clock } = await client();
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] })
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const got = await askPullStates(api, REPO, [2]);
    expect(clock.slept).toEqual([60_000]);
    expect(got.states.get(2)).toMatchObject({ state: 'open' });
  });

  test("the answer's rateLimit says the budget is spent: the next query waits for resetAt", async () => {
    const { api, clock } = await client();
    const resetAt = new Date(clock.now() + 20_000).toISOString();
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body, { cost: 1, remaining: 0, resetAt })),
      )
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const got = await askPullStates(api, REPO, range(1, 200));
    expect(clock.slept).toEqual([21_000]);
    expect(got.states.size).toBe(200);
    expect([...got.states.values()].every((s) => s.state !== 'unknown')).toBe(true);
  });

  test('secondary rate limit (403 with retry-after): waits, then asks again', async () => {
    const { api, clock } = await client();
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '7' })
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const got = await askPullStates(api, REPO, [2]);
    expect(clock.slept).toEqual([7000]);
    expect(got).toMatchObject({ via: 'graphql' });
    expect(got.states.get(2)).toMatchObject({ state: 'open' });
  });

  test('502 is retried with backoff, then answered', async () => {
    const { api, clock } = await client();
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(502, 'bad gateway')
      .post(GRAPHQL_PATH)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const got = await askPullStates(api, REPO, [1, 2]);
    expect(clock.slept).toEqual([1000]);
    expect(api.sent).toBe(2);
    expect(got.states.get(1)).toMatchObject({ state: 'merged' });
  });

  test('502 that never ends: the batch is unknown with the reason, and REST is not tried', async () => {
    const { api } = await client({ maxRetries: 2 });
    graphqlApi().post(GRAPHQL_PATH).times(3).reply(502, 'bad gateway');
    const got = await askPullStates(api, REPO, [1, 2]);
    expect(api.sent).toBe(3);
    expect(got.via).toBe('graphql');
    expect(got.states.get(1)).toEqual({ state: 'unknown', error: 'GitHub answered 502: bad gateway' });
  });

  test.each([
    { name: '404 (no GraphQL endpoint)', status: 404, body: { message: 'Not Found' } },
    {
      name: '403 that is not a rate limit',
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    },
    {
      name: 'a query the server does not understand',
      status: 200,
      body: { errors: [{ message: "Field 'pullRequest' doesn't exist on type 'Repository'" }] },
    },
  ])('GraphQL refused ($name): the same pull requests through REST, one by one', async ({ status, body }) => {
    const { api } = await client();
    const gql = graphqlApi().post(GRAPHQL_PATH).reply(status, body);
    const rest = github()
      .get('/repos/acme/shop/pulls/1')
      .reply(200, pull(1, { state: 'open' }))
      .get('/repos/acme/shop/pulls/2')
      .reply(200, pull(2, { state: 'closed', merged_at: null, closed_at: CLOSED_AT }))
      .get('/repos/acme/shop/pulls/3')
      .reply(404, { message: 'Not Found' });
    const got = await askPullStates(api, REPO, [1, 2, 3]);
    gql.done();
    rest.done();
    expect(got.via).toBe('rest');
    expect(got.fallback).toBeDefined();
    expect([...got.states.values()].map((s) => s.state)).toEqual(['open', 'closed', 'missing']);
  });

  test('the first query is refused: no other batch goes to GraphQL', async () => {
    const { api } = await client();
    const gql = graphqlApi().post(GRAPHQL_PATH).reply(404, { message: 'Not Found' });
    let rest = 0;
    const scope = github();
    for (const n of range(1, 230))
      scope.get(`/repos/acme/shop/pulls/${n}`).reply(() => (rest++, [200, pull(n, { state: 'open' })]));
    const got = await askPullStates(api, REPO, range(1, 230));
    gql.done();
    expect(rest).toBe(230);
    expect(api.sent).toBe(231);
    expect(got.states.size).toBe(230);
  });

  test('the cap counts pull requests: 2,050 asked for, 2,000 asked in 20 queries, 50 kept unknown', async () => {
    graphqlApi()
      .post(GRAPHQL_PATH)
      .times(20)
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    const { api } = await client();
    const got = await askPullStates(api, REPO, range(1, 2050));
    expect(api.sent).toBe(20);
    const unknown = [...got.states].filter(([, s]) => s.state === 'unknown');
    expect(unknown.map(([n]) => n)).toEqual(range(2001, 2050));
    expect(unknown[0]![1]).toEqual({
      state: 'unknown',
      error: 'not asked: the cap of 2000 pull requests per run',
    });
  });

  test("a number beyond GraphQL's Int goes through REST, the rest through GraphQL", async () => {
    graphqlApi()
      .post(GRAPHQL_PATH, (body: unknown) => askedNumbers(body).join() === '2')
      .reply(
        200,
        fromBody((body) => answer(body)),
      );
    github().get('/repos/acme/shop/pulls/3000000000').reply(404, { message: 'Not Found' });
    const { api } = await client();
    const got = await askPullStates(api, REPO, [2, 3_000_000_000]);
    expect(got.states.get(3_000_000_000)).toEqual({ state: 'missing' });
    expect(got.states.get(2)).toMatchObject({ state: 'open' });
  });
});

describe('where the GraphQL endpoint is', () => {
  test.each([
    { name: 'github.com by default', env: {}, want: 'https://api.github.com/graphql' },
    {
      name: 'GITHUB_GRAPHQL_URL wins',
      env: {
        GITHUB_API_URL: 'https://ghe.example.com/api/v3',
        GITHUB_GRAPHQL_URL: 'https://ghe.example.com/api/graphql/',
      },
      want: 'https://ghe.example.com/api/graphql',
    },
    {
      name: 'GitHub Enterprise Server without GITHUB_GRAPHQL_URL: next to the REST API, never github.com',
      env: { GITHUB_API_URL: 'https://ghe.example.com/api/v3' },
      want: 'https://ghe.example.com/api/graphql',
    },
    {
      name: 'another REST address',
      env: { GITHUB_API_URL: 'http://127.0.0.1:9/gh' },
      want: 'http://127.0.0.1:9/gh/graphql',
    },
  ])('$name', ({ env, want }) => {
    expect(graphqlUrl(env)).toBe(want);
  });
});
