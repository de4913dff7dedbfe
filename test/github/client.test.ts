import { GitHubClient, type Send } from '../../src/github/client.js';
import { getPullState } from '../../src/github/get-pull.js';
import { beforeEachNock, client, github, pull, resetAfter, SkipClock } from './helpers.js';

const REPO = { owner: 'acme', repo: 'shop' };
const PULL = '/repos/acme/shop/pulls';

describe('pull request state through the GitHub client', () => {
  beforeEachNock();

  test.each([
    {
      name: 'open',
      body: {
        number: 1,
        state: 'open',
        merged_at: null,
        closed_at: null,
        html_url: 'https://ghe.example.com/acme/shop/pull/1',
      },
      want: { state: 'open', url: 'https://ghe.example.com/acme/shop/pull/1' },
    },
    {
      name: 'closed without merge',
      body: { number: 1, state: 'closed', merged_at: null, closed_at: '2026-11-20T10:00:00Z' },
      want: { state: 'closed', closedAt: '2026-11-20T10:00:00Z' },
    },
    {
      name: 'merged',
      body: {
        number: 1,
        state: 'closed',
        merged_at: '2026-11-20T09:00:00Z',
        closed_at: '2026-11-20T09:00:01Z',
      },
      want: { state: 'merged', closedAt: '2026-11-20T09:00:00Z' },
    },
  ])('$name', async ({ body, want }) => {
    const scope = github().get(`${PULL}/1`).reply(200, body);
    const { api } = await client();
    expect(await getPullState(api, REPO, 1)).toMatchObject(want);
    scope.done();
  });

  test('404 is a missing pull request', async () => {
    github().get(`${PULL}/9`).reply(404, { message: 'Not Found' });
    const { api } = await client();
    expect(await getPullState(api, REPO, 9)).toEqual({ state: 'missing' });
  });

  test('403 without a rate limit is unknown, asked once, and the message does not hold the token', async () => {
    const scope = github()
      .get(`${PULL}/3`)
      .reply(403, { message: 'Resource not accessible by integration' }, { 'x-ratelimit-remaining': '4990' });
    const { api, clock } = await client();
    const got = await getPullState(api, REPO, 3);
    expect(got).toMatchObject({ state: 'unknown', error: expect.stringMatching(/403.*not accessible/) });
    expect(JSON.stringify(got)).not.toContain('ghs_');
    expect(clock.slept).toEqual([]);
    expect(api.sent).toBe(1);
    scope.done();
  });

  test('primary rate limit: waits until x-ratelimit-reset, then asks again', async () => {
    const { api, clock, logger } = await client();
    const scope = github()
      .get(`${PULL}/5`)
      .reply(
        403,
        { message: 'API rate limit exceeded for installation ID 1.' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAfter(clock, 40) },
      )
      .get(`${PULL}/5`)
      .reply(200, pull(5, { state: 'open' }));
    expect(await getPullState(api, REPO, 5)).toMatchObject({ state: 'open' });
    expect(clock.slept).toEqual([41_000]);
    expect(logger.lines.join('\n')).toMatch(/rate limit: waiting 41 s/);
    scope.done();
  });

  test('a success that uses up the primary limit pauses the next request until the reset', async () => {
    const { api, clock } = await client();
    github()
      .get(`${PULL}/1`)
      .reply(200, pull(1, { state: 'open' }), {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': resetAfter(clock, 20),
      })
      .get(`${PULL}/2`)
      .reply(200, pull(2, { state: 'open' }));
    await getPullState(api, REPO, 1);
    await getPullState(api, REPO, 2);
    expect(clock.slept).toEqual([21_000]);
  });

  test('primary limit resetting later than the longest wait: unknown, and no further request is sent', async () => {
    const { api, clock } = await client({ maxWaitMs: 60_000 });
    const scope = github()
      .get(`${PULL}/5`)
      .reply(
        403,
        { message: 'API rate limit exceeded' },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': resetAfter(clock, 3600) },
      );
    expect(await getPullState(api, REPO, 5)).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/403/),
    });
    expect(await getPullState(api, REPO, 6)).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/rate limit: resets in \d+ s, later than the longest wait/),
    });
    expect(api.sent).toBe(1);
    expect(clock.slept).toEqual([]);
    scope.done();
  });

  test('secondary rate limit: waits retry-after seconds, then asks again', async () => {
    const { api, clock } = await client();
    const scope = github()
      .get(`${PULL}/7`)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '9' })
      .get(`${PULL}/7`)
      .reply(200, pull(7, { state: 'closed', merged_at: null, closed_at: '2026-11-01T00:00:00Z' }));
    expect(await getPullState(api, REPO, 7)).toMatchObject({ state: 'closed' });
    expect(clock.slept).toEqual([9000]);
    scope.done();
  });

  test('secondary limit that never lifts: gives up after the retries, unknown', async () => {
    const { api } = await client({ maxRetries: 2 });
    github()
      .get(`${PULL}/7`)
      .times(3)
      .reply(429, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '1' });
    expect(await getPullState(api, REPO, 7)).toMatchObject({ state: 'unknown' });
    expect(api.sent).toBe(3);
  });

  test('5xx is retried with backoff, then answered', async () => {
    const { api, clock } = await client();
    github()
      .get(`${PULL}/8`)
      .reply(502, 'bad gateway')
      .get(`${PULL}/8`)
      .reply(200, pull(8, { state: 'open' }));
    expect(await getPullState(api, REPO, 8)).toMatchObject({ state: 'open' });
    expect(clock.slept).toEqual([1000]);
  });

  test('a repeated GET is revalidated with its ETag; the 304 returns the stored body', async () => {
    const { api } = await client();
    const scope = github()
      .get(`${PULL}/4`)
      .reply(200, pull(4, { state: 'open' }), { etag: 'W/"abc"' })
      .get(`${PULL}/4`)
      .matchHeader('if-none-match', 'W/"abc"')
      .reply(304, '');
    expect(await getPullState(api, REPO, 4)).toMatchObject({ state: 'open' });
    expect(await getPullState(api, REPO, 4)).toMatchObject({
      state: 'open',
      url: 'https://ghe.example.com/acme/shop/pull/4',
    });
    scope.done();
  });

  test('never more than the concurrency bound in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const send: Send = async (route) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return { status: 200, data: pull(Number(route.split('/').pop()), { state: 'open' }), headers: {} };
    };
    const api = new GitHubClient(send, { clock: new SkipClock(), limits: { concurrency: 3 } });
    const numbers = Array.from({ length: 12 }, (_, i) => i + 1);
    const states = await Promise.all(numbers.map((n) => getPullState(api, REPO, n)));
    expect(states.every((s) => s.state === 'open')).toBe(true);
    expect(most).toBe(3);
    expect(api.sent).toBe(12);
  });

  test('the request cap: past it nothing is sent and the answer is unknown', async () => {
    const { api } = await client({ maxRequests: 2 });
    const scope = github();
    for (const n of [1, 2]) scope.get(`${PULL}/${n}`).reply(200, pull(n, { state: 'open' }));
    const states = await Promise.all([1, 2, 3, 4].map((n) => getPullState(api, REPO, n)));
    expect(states.map((s) => s.state)).toEqual(['open', 'open', 'unknown', 'unknown']);
    expect(states[3]).toMatchObject({ error: expect.stringMatching(/cap of 2 GitHub requests/) });
    expect(api.sent).toBe(2);
  });
});
