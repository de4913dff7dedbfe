import { readSettings } from '../../src/settings/settings.js';
import { InputProblems, type Naming } from '../../src/settings/naming.js';
import { ConfigError } from '../../src/shared/errors.js';
import { UNFENCED } from '../helpers/inputs.js';

const reader =
  (given: Record<string, string>) =>
  (name: string): string =>
    ({ ...UNFENCED, ...given })[name] ?? '';

function refusal(given: Record<string, string>, naming?: Naming): ConfigError {
  try {
    readSettings(reader(given), naming);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('accepted');
}

describe('every bad input in one message', () => {
  test('the action: each wrong input named, with its value, in the order of action.yml', () => {
    const error = refusal({
      namespaces: 'pr-1,Bad_Name',
      timeout: '5',
      force: 'yes',
      'fail-on': 'sometimes',
      'force-delete-pods': 'all',
    });
    expect(error).toBeInstanceOf(InputProblems);
    expect(error.message.split('\n')).toEqual([
      '5 problems with the input:',
      expect.stringMatching(/^ {2}- Input "namespaces": "Bad_Name" is not a valid namespace name: /),
      '  - Input "timeout" is "5", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.',
      '  - Input "force" is "yes"; allowed: off, dry-run, on (use "on" to force, "dry-run" to only show what would be forced).',
      '  - Input "force-delete-pods" is "all"; allowed: off, lost-nodes.',
      '  - Input "fail-on" is "sometimes"; allowed: leaked, stuck, never.',
    ]);
    expect(error.input).toBe('namespaces');
  });

  test('one bad input is one line, as before', () => {
    const error = refusal({ namespaces: 'a', timeout: 'soon' });
    expect(error).not.toBeInstanceOf(InputProblems);
    expect(error.message).toBe(
      'Input "timeout" is "soon", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.',
    );
  });

  test('a wrong scope is not also reported as "No targets"', () => {
    expect(refusal({ scope: 'everything' }).message).toBe(
      'Input "scope" is "everything"; allowed: targets, all-terminating.',
    );
  });

  test("the command line's words: flags and environment variables, never the action's", () => {
    const cli: Naming = {
      input: (n) => (n === 'github-token' ? 'GITHUB_TOKEN' : `--${n}`),
      ref: (n) => (n === 'github-token' ? 'GITHUB_TOKEN' : `--${n}`),
      setting: (n, v) => `--${n} ${v}`,
    };
    const error = refusal(
      { sweep: 'plan', 'sweep-pr-label': 'pr', 'sweep-repository': 'a/b', timeout: '5' },
      cli,
    );
    expect(error.message).toBe(
      [
        '2 problems with the input:',
        '  - --timeout is "5", which is not a duration; use a number with a unit, e.g. 90s, 5m, 1h30m.',
        '  - GITHUB_TOKEN is empty; the sweep needs a token that can read pull requests.',
      ].join('\n'),
    );
    expect(error.message).not.toMatch(/Input "/);
  });
});
