/** An answer is used only for the pull request it is about: GraphQL nodes and REST bodies matched to the number asked. */
import { askPullStates } from '../../src/github/pull-states.js';
import { getPullState } from '../../src/github/get-pull.js';
import { beforeEachNock, client, github, graphqlApi, GRAPHQL_PATH } from './helpers.js';

const REPO = { owner: 'acme', repo: 'shop' };
const CLOSED_AT = '2026-11-20T10:00:00Z';
const url = (n: number): string => `https://ghe.example.com/acme/shop/pull/${n}`;
const closed = { state: 'CLOSED', closedAt: CLOSED_AT, mergedAt: null };

describe('GraphQL nodes matched to their alias', () => {
  beforeEachNock();

  test.each([
    {
      name: 'pr1 answered with PR 2 (number and URL)',
      node: { number: 2, url: url(2), ...closed },
      error: 'GitHub answered with #2 when asked for #1',
    },
    {
      name: 'pr1 with the right number and the URL of PR 2',
      node: { number: 1, url: url(2), ...closed },
      error: 'GitHub answered #1 with the URL of #2',
    },
    {
      name: 'pr1 without a number',
      node: { url: url(1), ...closed },
      error: 'GitHub answered with no number when asked for #1',
    },
    {
      name: 'pr1 with a URL that names no pull request',
      node: { number: 1, url: 'javascript:alert(1)//pull/1', ...closed },
      error: 'GitHub answered #1 with a URL that names no pull request',
    },
  ])('$name: unknown, with the reason; the other alias is still read', async ({ node, error }) => {
    graphqlApi()
      .post(GRAPHQL_PATH)
      .reply(200, { data: { repository: { pr1: node, pr3: { number: 3, url: url(3), ...closed } } } });
    const { api } = await client();
    const got = await askPullStates(api, REPO, [1, 3]);
    expect(got.states.get(1)).toEqual({ state: 'unknown', error });
    expect(got.states.get(3)).toEqual({ state: 'closed', closedAt: CLOSED_AT, url: url(3) });
  });
});

describe('REST answers matched to the number asked', () => {
  beforeEachNock();

  test.each([
    {
      name: '/pulls/4 saying number 9',
      body: { number: 9, html_url: url(9) },
      error: 'with #9 when asked for #4',
    },
    {
      name: '/pulls/4 with the URL of PR 9',
      body: { number: 4, html_url: url(9) },
      error: '#4 with the URL of #9',
    },
    {
      name: '/pulls/4 without a number',
      body: { html_url: url(4) },
      error: 'with no number when asked for #4',
    },
  ])('$name: unknown, with the reason', async ({ body, error }) => {
    github()
      .get('/repos/acme/shop/pulls/4')
      .reply(200, { ...body, state: 'closed', closed_at: CLOSED_AT, merged_at: null });
    const { api } = await client();
    expect(await getPullState(api, REPO, 4)).toEqual({ state: 'unknown', error: `GitHub answered ${error}` });
  });
});
