import { readSettings } from '../../src/settings/settings.js';

const SWEEP = {
  sweep: 'plan',
  'sweep-pr-label': 'preview.example.com/pr',
  'sweep-repository': 'acme/shop',
  'github-token': 'ghs_x',
};
const reader =
  (given: Record<string, string | undefined>) =>
  (name: string): string =>
    given[name] ?? '';

describe('lifecycle inputs', () => {
  test.each([
    {
      name: 'defaults (as action.yml gives them)',
      given: { namespaces: 'a', 'keep-label': 'keep-preview', 'comment-command': '/teardown' },
      expect: {
        keepLabel: 'keep-preview',
        maxAgeMs: undefined,
        command: '/teardown',
        gitopsOwners: 'report',
      },
    },
    {
      name: 'keep-label empty: no label keeps',
      given: { namespaces: 'a' },
      expect: { keepLabel: undefined, maxAgeMs: undefined, command: '/teardown', gitopsOwners: 'report' },
    },
    {
      name: 'max-age in days, with the sweep',
      given: { ...SWEEP, 'max-age': '7d', 'gitops-owners': 'delete', 'comment-command': '/preview-down' },
      expect: {
        keepLabel: undefined,
        maxAgeMs: 7 * 86_400_000,
        command: '/preview-down',
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
      message: /^Input "gitops-owners" is "remove"; allowed: report, suspend, delete\.$/,
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
  ])('$name', ({ given, input, message }) => {
    expect(() => readSettings(reader(given))).toThrow(
      expect.objectContaining({ name: 'ConfigError', input, message: expect.stringMatching(message) }),
    );
  });
});
