/** The client within the run's bounds: rate-limit waits, retries and calls end by the deadline; answers by size. */
import nock from 'nock';
import { getPullState } from '../../src/github/get-pull.js';
import { askPullStates } from '../../src/github/pull-states.js';
import { createGitHub } from '../../src/github/create.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { FakeGitHub } from './fake-github.js';
import {
  beforeEachNock,
  client,
  github,
  graphqlApi,
  GRAPHQL_PATH,
  pull,
  resetAfter,
  SkipClock,
  TOKEN,
} from './helpers.js';

const REPO = { owner: 'acme', repo: 'shop' };
const PULL = '/repos/acme/shop/pulls';

describe('waits and retries end by the deadline (injected clock)', () => {
  beforeEachNock();

  test('a secondary limit asking 60 s with 15 s left: no wait, no second request, unknown saying why', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() + 15_000);
    github()
      .get(`${PULL}/1`)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '60' });
    const got = await getPullState(api, REPO, 1);
    expect(got).toEqual({
      state: 'unknown',
      error:
        "GET /repos/acme/shop/pulls/1: not sent: GitHub's rate limit, asked to wait 60 s with 15 s left before the deadline",
    });
    expect(api.sent).toBe(1);
    expect(clock.slept).toEqual([]);
  });

  test('the same limit asking 7 s with 15 s left: waits 7 s, then asks again', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() + 15_000);
    github()
      .get(`${PULL}/1`)
      .reply(403, { message: 'You have exceeded a secondary rate limit.' }, { 'retry-after': '7' })
      .get(`${PULL}/1`)
      .reply(200, pull(1, { state: 'open' }));
    expect(await getPullState(api, REPO, 1)).toMatchObject({ state: 'open' });
    expect(clock.slept).toEqual([7000]);
  });

  test('GraphQL RATE_LIMITED with no reset time and 15 s left: one query, the batch unknown, no minute-long wait', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() + 15_000);
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, { errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded' }] });
    const got = await askPullStates(api, REPO, [1, 2]);
    expect(api.sent).toBe(1);
    expect(clock.slept).toEqual([]);
    expect(got.states.get(2)).toEqual({
      state: 'unknown',
      error:
        "GitHub GraphQL: not sent: GitHub GraphQL's rate limit, asked to wait 60 s with 15 s left before the deadline",
    });
  });

  test('a primary limit that resets after the deadline pauses nothing past it: later calls are not sent', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() + 15_000);
    github()
      .get(`${PULL}/1`)
      .reply(200, pull(1, { state: 'open' }), {
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': resetAfter(clock, 120),
      });
    expect(await getPullState(api, REPO, 1)).toMatchObject({ state: 'open' });
    expect(await getPullState(api, REPO, 2)).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(/asked to wait 121 s with 15 s left before the deadline/),
    });
    expect(api.sent).toBe(1);
  });

  test('a 502 with less time left than the backoff: not retried past the deadline', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() + 800);
    github().get(`${PULL}/1`).reply(502, 'bad gateway');
    expect(await getPullState(api, REPO, 1)).toMatchObject({
      state: 'unknown',
      error: expect.stringMatching(
        /not sent: a retry after GitHub answered 502, asked to wait 1 s with 0 s left before the deadline/,
      ),
    });
    expect(api.sent).toBe(1);
    expect(clock.slept).toEqual([]);
  });

  test('after the deadline nothing is sent', async () => {
    const { api: unbounded, clock } = await client();
    const api = unbounded.until(clock.now() - 1);
    expect(await getPullState(api, REPO, 1)).toEqual({
      state: 'unknown',
      error: 'GET /repos/acme/shop/pulls/1: not sent: the deadline has passed',
    });
    expect(api.sent).toBe(0);
  });

  test('`until` gives another deadline to the same client: its count and rate-limit pause go with it', async () => {
    const { api: unbounded, clock } = await client();
    const late = unbounded.until(clock.now() - 1);
    const fresh = unbounded.until(clock.now() + 60_000);
    github()
      .get(`${PULL}/1`)
      .reply(200, pull(1, { state: 'open' }));
    expect(await getPullState(late, REPO, 1)).toMatchObject({ state: 'unknown' });
    expect(await getPullState(fresh, REPO, 1)).toMatchObject({ state: 'open' });
    expect([unbounded.sent, late.sent, fresh.sent]).toEqual([1, 1, 1]);
  });
});

describe('a GitHub that never answers, or answers without end (local stand-in)', () => {
  let gh: FakeGitHub;
  let base: string;
  beforeAll(() => nock.enableNetConnect('127.0.0.1'));
  afterAll(() => nock.disableNetConnect());
  beforeEach(async () => {
    gh = new FakeGitHub(TOKEN);
    base = await gh.start();
  });
  afterEach(() => gh.stop());

  const connect = (clock: SkipClock, limits = {}, signal?: AbortSignal) =>
    createGitHub({ token: TOKEN, baseUrl: base, clock, logger: new RecordingLogger(), limits, signal });

  test('no answer within the call limit: retried, then unknown naming the request', async () => {
    gh.misbehave.push({ match: /./, how: 'hang' });
    const clock = new SkipClock();
    const api = (await connect(clock, { callMs: 200, maxRetries: 2 })).until(clock.now() + 60_000);
    expect(await getPullState(api, REPO, 1)).toEqual({
      state: 'unknown',
      error: 'GET /repos/acme/shop/pulls/1: no answer from GitHub within 200ms',
    });
    expect(gh.requests).toHaveLength(3);
    expect(clock.slept).toEqual([1000, 2000]);
  });

  test('no answer before the deadline: one request, ended at the deadline, not retried', async () => {
    gh.misbehave.push({ match: /./, how: 'hang' });
    const clock = new SkipClock();
    const api = (await connect(clock)).until(clock.now() + 300);
    expect(await getPullState(api, REPO, 1)).toEqual({
      state: 'unknown',
      error: 'GET /repos/acme/shop/pulls/1: no answer from GitHub before the deadline',
    });
    expect(gh.requests).toHaveLength(1);
  });

  test("the run's cancellation ends a call in flight", async () => {
    gh.misbehave.push({ match: /./, how: 'hang' });
    const cancel = new AbortController();
    const api = await connect(new SkipClock(), {}, cancel.signal);
    const got = getPullState(api, REPO, 1);
    while (gh.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
    cancel.abort();
    expect(await got).toEqual({
      state: 'unknown',
      error: 'GET /repos/acme/shop/pulls/1: the run was cancelled',
    });
  });

  test('an answer that never ends is cut at 1 MiB for a pull request, naming the request; not retried', async () => {
    gh.pulls.set(1, { state: 'open' });
    gh.misbehave.push({ match: /\/pulls\/1$/, how: 'huge' });
    const api = await connect(new SkipClock());
    expect(await getPullState(api, REPO, 1)).toEqual({
      state: 'unknown',
      error: 'GET /repos/acme/shop/pulls/1: the answer is larger than 1 MiB; not read',
    });
    expect(gh.requests).toHaveLength(1);
    expect(gh.requests[0]!.bytesOut).toBeLessThan(32 * 1024 * 1024);
  });
});

describe('an answer over its limit by its Content-Length is not read at all', () => {
  beforeEachNock();

  test('a GraphQL page announcing 5 MiB', async () => {
    const { api } = await client();
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, JSON.stringify({ data: { repository: {} }, pad: 'x'.repeat(5 * 1024 * 1024) }), {
        'content-type': 'application/json',
      });
    const got = await askPullStates(api, REPO, [1]);
    expect(got.states.get(1)).toEqual({
      state: 'unknown',
      error: 'GitHub GraphQL: the answer is larger than 1 MiB; not read',
    });
    expect(api.sent).toBe(1);
  });
});
