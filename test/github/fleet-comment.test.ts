import { COMMENT_MARKER } from '../../src/github/own-comment.js';
import { commentOnPullRequest } from '../../src/github/post-comment.js';
import { mergeFleet } from '../../src/fleet/merge.js';
import { renderFleetComment } from '../../src/report/fleet-comment.js';
import { RecordingLogger } from '../../src/shared/ports.js';
import { clusterReport } from '../helpers/fleet.js';
import { beforeEachNock, client, github, SkipClock } from './helpers.js';

const COMMENTS = '/repos/acme/shop/issues/42/comments';
const PR = { repo: { owner: 'acme', repo: 'shop' }, number: 42 };
const DEPLOYER = { login: 'octo-deployer', type: 'User' };

/** The fleet after a run in which `us` still had a leaked namespace, or after the fix. */
const fleetWith = (stuck: string[]) =>
  mergeFleet({
    expected: ['eu', 'us', 'ap'],
    found: [
      { source: 'eu.json', checked: { report: clusterReport('eu', { gone: ['preview-pr-42'] }) } },
      {
        source: 'us.json',
        checked: { report: clusterReport('us', { stuck, gone: stuck.length ? [] : ['preview-pr-42'] }) },
      },
    ],
    failOn: 'leaked',
    context: {
      repository: 'acme/shop',
      pullRequest: { number: 42 },
      runUrl: 'https://github.com/acme/shop/actions/runs/7',
    },
    now: 0,
  });

describe("the fleet's PR comment is the one comment, updated in place", () => {
  beforeEachNock();

  test('the first merge creates it, the next one edits that same comment', async () => {
    const { api } = await client();
    const bodies: string[] = [];
    const keep = (b: { body: string }): boolean => (bodies.push(b.body), true);
    const scope = github()
      .get('/user')
      .reply(200, DEPLOYER)
      .get(COMMENTS)
      .query({ per_page: '100', page: '1' })
      .reply(200, [{ id: 1, body: 'LGTM', user: { login: 'alice', type: 'User' } }])
      .post(COMMENTS, keep)
      .reply(201, { id: 77, user: DEPLOYER })
      .get('/user')
      .reply(200, DEPLOYER)
      .get(COMMENTS)
      .query({ per_page: '100', page: '1' })
      .reply(200, () => [
        { id: 1, body: 'LGTM', user: { login: 'alice', type: 'User' } },
        { id: 77, body: bodies[0], user: DEPLOYER },
      ])
      .patch('/repos/acme/shop/issues/comments/77', keep)
      .reply(200, { id: 77 });
    const logger = new RecordingLogger();
    await commentOnPullRequest(
      renderFleetComment(fleetWith(['preview-pr-42'])),
      PR,
      async () => api,
      logger,
      new SkipClock(),
    );
    await commentOnPullRequest(
      renderFleetComment(fleetWith([])),
      PR,
      async () => api,
      logger,
      new SkipClock(),
    );
    scope.done();
    expect(logger.lines.filter((l) => /created|updated/.test(l))).toEqual([
      'pr-comment: created comment 77',
      'pr-comment: updated comment 77',
    ]);
    expect(bodies[0]).toMatch(
      new RegExp(
        `^${COMMENT_MARKER}\\n## ❌ Namespace teardown on 3 clusters: 1 stuck, 1 gone of 2 namespaces · 1 unknown\\n`,
      ),
    );
    expect(bodies[0]).toContain('**1.** **preview-pr-42** on us');
    expect(bodies[1]).toMatch(
      /^<!-- namespace-teardown:pr-comment -->\n## ❌ Namespace teardown on 3 clusters: 2 gone of 2 namespaces · 1 unknown/,
    );
    expect(bodies[1]).not.toContain('Fix first');
    expect(bodies[1]).toContain('| **ap** | ❔ unknown | — | no report');
  });
});
