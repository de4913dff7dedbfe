import { readSettings } from '../../src/settings/settings.js';
import { ConfigError } from '../../src/shared/errors.js';
import { CLI_NAMING } from '../../src/entry/flags.js';

const reader =
  (given: Record<string, string | undefined>) =>
  (name: string): string =>
    given[name] ?? '';

/** The one problem `given` has, as one message (the test fails when it is accepted). */
function refusal(given: Record<string, string | undefined>, cli = false): ConfigError {
  try {
    readSettings(reader(given), cli ? CLI_NAMING : undefined);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('accepted');
}

const SWEEP = { sweep: 'on', 'sweep-repository': 'acme/shop', 'github-token': 'ghs_x' };

describe('target-label: the label a run that writes needs, or the explicit opt-out', () => {
  test.each([
    {
      name: 'given: that label fences the targets',
      given: { namespaces: 'pr-1', 'target-label': 'preview.example.com/pr' },
      expect: 'preview.example.com/pr',
    },
    {
      name: 'empty: the sweep label fences',
      given: { ...SWEEP, 'sweep-pr-label': 'preview.example.com/pr' },
      expect: 'preview.example.com/pr',
    },
    {
      name: 'empty with a sweep label given for no sweep: that label still fences',
      given: { namespaces: 'pr-1', 'sweep-pr-label': 'preview.example.com/pr' },
      expect: 'preview.example.com/pr',
    },
    {
      name: 'given beside the sweep label: target-label wins',
      given: { ...SWEEP, 'sweep-pr-label': 'preview.example.com/pr', 'target-label': 'team' },
      expect: 'team',
    },
    { name: 'none: no fence', given: { namespaces: 'pr-1', 'target-label': 'none' }, expect: undefined },
    {
      name: 'none, with spaces around it: no fence',
      given: { namespaces: 'pr-1', 'target-label': '  none\n' },
      expect: undefined,
    },
    {
      name: 'a run that writes nothing (delete false, force off) needs no label',
      given: { namespaces: 'pr-1', delete: 'false' },
      expect: undefined,
    },
    {
      name: 'all-terminating without force writes nothing: no label needed',
      given: { scope: 'all-terminating' },
      expect: undefined,
    },
    {
      name: 'all-terminating with force dry-run writes nothing: no label needed',
      given: { scope: 'all-terminating', force: 'dry-run', 'force-finalizers': 'x/*' },
      expect: undefined,
    },
    {
      name: 'all-terminating with force on writes: the label given fences it',
      given: { scope: 'all-terminating', force: 'on', 'force-finalizers': 'x/*', 'target-label': 'p' },
      expect: 'p',
    },
  ])('$name', ({ given, expect: want }) => {
    expect(readSettings(reader(given)).targetLabel).toBe(want);
  });

  test.each([
    {
      name: 'a run that deletes, with neither label: bad input naming both inputs and the opt-out',
      given: { namespaces: 'team-a' },
      input: 'target-label',
      message:
        /^Input "target-label" is empty, and so is "sweep-pr-label": nothing tells a preview namespace from any other, and this run deletes its targets\. Set "target-label" to the label every preview namespace carries, .* say so: "target-label: none"\.$/,
    },
    {
      name: 'an empty value never opens the fence (an unset variable): the same',
      given: { selector: 'team=a', 'target-label': '   ' },
      input: 'target-label',
      message: /^Input "target-label" is empty, and so is "sweep-pr-label"/,
    },
    {
      name: 'all-terminating with force on and no label: bad input, saying it may force',
      given: { scope: 'all-terminating', force: 'on', 'force-finalizers': 'x/*' },
      input: 'target-label',
      message: /this run may force \("force: on"\)/,
    },
    {
      name: 'None (not the one spelling): refused, not taken as a label key',
      given: { namespaces: 'pr-1', 'target-label': 'None' },
      input: 'target-label',
      message: /^Input "target-label" is "None"; the fence is turned off only by "none", in lower case\.$/,
    },
    {
      name: 'not a label key: refused, naming the value',
      given: { namespaces: 'pr-1', 'target-label': 'pr=1' },
      input: 'target-label',
      message:
        /^Input "target-label" is "pr=1", which is not a label key: it must be one label key; or "target-label: none"/,
    },
    {
      name: 'a bad key even for a run that writes nothing: refused',
      given: { namespaces: 'pr-1', delete: 'false', 'target-label': '-bad-' },
      input: 'target-label',
      message: /^Input "target-label" is "-bad-", which is not a label key/,
    },
    {
      name: 'a sweep-pr-label that is not a key, used as the fence without a sweep: refused, naming it',
      given: { namespaces: 'pr-1', 'sweep-pr-label': 'a b' },
      input: 'sweep-pr-label',
      message: /^Input "sweep-pr-label" is "a b", which is not a label key/,
    },
  ])('$name', ({ given, input, message }) => {
    const e = refusal(given);
    expect(e.message).toMatch(message);
    expect(e.input).toBe(input);
  });

  test('on the command line the same refusal names the flags', () => {
    expect(refusal({ namespaces: 'team-a' }, true).message).toMatch(
      /^--target-label is empty, and so is --sweep-pr-label: .* --target-label none\.$/,
    );
  });

  test('a bad sweep-pr-label with the sweep on is named once, not twice', () => {
    const e = refusal({ ...SWEEP, 'sweep-pr-label': 'a b' });
    expect(e.message.match(/"sweep-pr-label" is "a b"/g)).toHaveLength(1);
  });
});
