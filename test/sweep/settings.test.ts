import { readSettings } from '../../src/settings/settings.js';
import { UNFENCED } from '../helpers/inputs.js';

const SWEEP = {
  sweep: 'plan',
  'sweep-pr-label': 'preview.example.com/pr',
  'sweep-repository': 'acme/shop',
  'github-token': 'ghs_x',
};
const reader =
  (given: Record<string, string | undefined>) =>
  (name: string): string =>
    ({ ...UNFENCED, ...given })[name] ?? '';

describe('sweep and PR comment inputs', () => {
  test.each([
    {
      name: 'plan with defaults',
      given: SWEEP,
      expect: {
        sweep: {
          mode: 'plan',
          prLabel: 'preview.example.com/pr',
          closedForMs: 3_600_000,
          maxAgeMs: undefined,
          repository: { owner: 'acme', repo: 'shop' },
        },
        prComment: false,
      },
    },
    {
      name: 'on, narrowed by a selector, with a max age and a grace period',
      given: {
        ...SWEEP,
        sweep: 'on',
        selector: 'team=shop',
        'sweep-closed-for': '30m',
        'sweep-max-age': '72h',
      },
      expect: { selector: 'team=shop', sweep: { mode: 'on', closedForMs: 1_800_000, maxAgeMs: 259_200_000 } },
    },
    { name: 'off is no sweep', given: { namespaces: 'a', sweep: 'off' }, expect: { sweep: undefined } },
    {
      name: 'pr-comment with the token',
      given: { namespaces: 'a', 'pr-comment': 'true', 'github-token': 't' },
      expect: { prComment: true, githubToken: 't' },
    },
  ])('$name', ({ given, expect: want }) => {
    expect(readSettings(reader(given))).toMatchObject(want);
  });

  test.each([
    {
      name: 'unknown mode',
      given: { ...SWEEP, sweep: 'yes' },
      input: 'sweep',
      message: /"sweep" is "yes"; allowed: off, plan, on/,
    },
    {
      name: 'namespaces and sweep together',
      given: { ...SWEEP, namespaces: 'pr-1' },
      input: 'namespaces',
      message: /"namespaces" and "sweep: plan" cannot be used together/,
    },
    {
      name: 'no PR label',
      given: { ...SWEEP, 'sweep-pr-label': '' },
      input: 'sweep-pr-label',
      message: /"sweep-pr-label" is empty/,
    },
    {
      name: 'PR label is a selector, not a key',
      given: { ...SWEEP, 'sweep-pr-label': 'pr=1' },
      input: 'sweep-pr-label',
      message: /"pr=1", which is not a label key/,
    },
    {
      name: 'PR label with a bad prefix',
      given: { ...SWEEP, 'sweep-pr-label': 'Bad_Prefix/pr' },
      input: 'sweep-pr-label',
      message: /not a label key: .*invalid prefix/,
    },
    {
      name: 'closed-for not a duration',
      given: { ...SWEEP, 'sweep-closed-for': '1 day' },
      input: 'sweep-closed-for',
      message: /"sweep-closed-for" is "1 day", which is not a duration/,
    },
    {
      name: 'max age not a duration',
      given: { ...SWEEP, 'sweep-max-age': '3 days' },
      input: 'sweep-max-age',
      message: /"sweep-max-age" is "3 days"/,
    },
    {
      name: 'repository without owner',
      given: { ...SWEEP, 'sweep-repository': 'shop' },
      input: 'sweep-repository',
      message: /"sweep-repository" is "shop"; expected owner\/name/,
    },
    {
      name: 'sweep without a token',
      given: { ...SWEEP, 'github-token': '' },
      input: 'github-token',
      message: /"github-token" is empty; the sweep needs/,
    },
    {
      name: 'pr-comment without a token',
      given: { namespaces: 'a', 'pr-comment': 'true' },
      input: 'github-token',
      message: /"pr-comment: true" needs a token/,
    },
    {
      name: 'pr-comment not a boolean',
      given: { namespaces: 'a', 'pr-comment': 'yes' },
      input: 'pr-comment',
      message: /"pr-comment" is "yes"; allowed: true or false/,
    },
  ])('$name', ({ given, input, message }) => {
    expect(() => readSettings(reader(given))).toThrow(
      expect.objectContaining({ name: 'ConfigError', input, message: expect.stringMatching(message) }),
    );
  });
});

describe('lifecycle inputs', () => {
  test.each([
    {
      name: 'defaults (as action.yml gives them)',
      given: { namespaces: 'a', 'keep-label': 'keep-preview', 'comment-command': '/teardown' },
      expect: {
        keepLabel: 'keep-preview',
        maxAgeMs: undefined,
        command: '/teardown',
        allowEvents: [],
        gitopsOwners: 'report',
      },
    },
    {
      name: 'keep-label empty: no label keeps',
      given: { namespaces: 'a' },
      expect: {
        keepLabel: undefined,
        maxAgeMs: undefined,
        command: '/teardown',
        allowEvents: [],
        gitopsOwners: 'report',
      },
    },
    {
      name: 'allow-events: names separated by commas, spaces or lines, each once',
      given: { namespaces: 'a', 'allow-events': 'push, pull_request\nworkflow_run push' },
      expect: {
        keepLabel: undefined,
        maxAgeMs: undefined,
        command: '/teardown',
        allowEvents: ['push', 'pull_request', 'workflow_run'],
        gitopsOwners: 'report',
      },
    },
    {
      name: 'max-age in days, with the sweep',
      given: { ...SWEEP, 'max-age': '7d', 'gitops-owners': 'delete', 'comment-command': '/preview-down' },
      expect: {
        keepLabel: undefined,
        maxAgeMs: 7 * 86_400_000,
        command: '/preview-down',
        allowEvents: [],
        gitopsOwners: 'delete',
      },
    },
  ])('$name', ({ given, expect: want }) => {
    expect(readSettings(reader(given)).lifecycle).toEqual(want);
  });

  test.each([
    {
      name: 'unknown gitops-owners word',
      given: { namespaces: 'a', 'gitops-owners': 'remove' },
      input: 'gitops-owners',
      message: /^Input "gitops-owners" is "remove"; allowed: report, suspend, delete, delete-or-suspend\.$/,
    },
    {
      name: 'max-age not a duration',
      given: { ...SWEEP, 'max-age': 'a week' },
      input: 'max-age',
      message: /^Input "max-age" is "a week"; allowed: a duration from 1m to 366d/,
    },
    {
      name: 'max-age without the sweep',
      given: { namespaces: 'a', 'max-age': '7d' },
      input: 'max-age',
      message: /"sweep" is off; max-age acts in the sweep/,
    },
    {
      name: 'keep-label over 50 characters',
      given: { namespaces: 'a', 'keep-label': 'k'.repeat(51) },
      input: 'keep-label',
      message: /^Input "keep-label" is "k+"; allowed: one GitHub label name/,
    },
    {
      name: 'comment-command without the slash',
      given: { namespaces: 'a', 'comment-command': 'teardown' },
      input: 'comment-command',
      message: /^Input "comment-command" is "teardown"; allowed: a slash and a lower-case word/,
    },
    {
      name: 'allow-events naming a comment event',
      given: { namespaces: 'a', 'allow-events': 'push, pull_request_review_comment' },
      input: 'allow-events',
      message:
        /^Input "allow-events" names "pull_request_review_comment"; allowed: GitHub event names, e\.g\. push, but no comment event: a comment always needs its author's write access/,
    },
    {
      name: 'allow-events not an event name',
      given: { namespaces: 'a', 'allow-events': 'Push;rm' },
      input: 'allow-events',
      message:
        /^Input "allow-events" names "Push;rm"; allowed: GitHub event names, e\.g\. push, separated by commas or spaces\.$/,
    },
  ])('$name', ({ given, input, message }) => {
    expect(() => readSettings(reader(given))).toThrow(
      expect.objectContaining({ name: 'ConfigError', input, message: expect.stringMatching(message) }),
    );
  });
});
