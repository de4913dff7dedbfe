import { readFileSync } from 'node:fs';
import { MergeInputs, MergeOutputs } from '../../src/settings/action-names.js';
import { readClusterList, readClusterName } from '../../src/settings/cluster-name.js';
import { DEFAULT_REPORTS_DIR, readMergeSettings } from '../../src/settings/merge-settings.js';
import { readSettings } from '../../src/settings/settings.js';
import { ConfigError } from '../../src/shared/errors.js';
import { actionTables, MERGE_MARKERS, readAction } from '../../scripts/action-table.js';
import { UNFENCED } from '../helpers/inputs.js';

const reader =
  (inputs: Record<string, string>) =>
  (name: string): string =>
    ({ ...UNFENCED, ...inputs })[name] ?? '';

/** The ConfigError `fn` throws (the test fails when it throws nothing or something else). */
function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('no ConfigError was thrown');
}

describe('cluster-name', () => {
  test('empty is the default (the context, else the server); a name is kept, trimmed', () => {
    expect(readSettings(reader({ namespaces: 'a' })).clusterName).toBeUndefined();
    expect(readSettings(reader({ namespaces: 'a', 'cluster-name': ' eu-dev ' })).clusterName).toBe('eu-dev');
  });

  test.each([
    { name: 'a line break', given: 'eu\nus', want: 'a control character or a line break' },
    { name: 'an escape sequence', given: 'eu\u001b[31m', want: 'a control character' },
    { name: 'too long', given: 'x'.repeat(101), want: 'at most 100 are allowed' },
    {
      name: 'a name a shell would run',
      given: "eu'$(touch x)'",
      want: `it holds "'" at character 3; allowed: letters, digits and . _ : / @ + -`,
    },
    { name: 'a space', given: 'eu dev', want: 'it holds " " at character 3' },
    { name: 'a leading dash', given: '-eu', want: 'it starts with "-"' },
  ])('refuses $name, naming the input', ({ given, want }) => {
    const e = configError(() => readClusterName(given, 'cluster-name'));
    expect(e.input).toBe('cluster-name');
    expect(e.message).toContain('Input "cluster-name"');
    expect(e.message).toContain(want);
  });
});

describe('the clusters list', () => {
  test.each([
    {
      name: "the matrix's JSON list of objects, as is",
      given: '[{"name": "eu-dev", "secret": "KUBE_EU"}, {"name": "us-dev", "secret": "KUBE_US"}]',
      expect: ['eu-dev', 'us-dev'],
    },
    { name: 'a JSON list of names', given: '["eu", "us"]', expect: ['eu', 'us'] },
    { name: 'names one a line', given: 'eu\nus\n\n', expect: ['eu', 'us'] },
    { name: 'names separated by commas', given: 'eu, us,ap', expect: ['eu', 'us', 'ap'] },
    { name: 'nothing', given: '  ', expect: [] },
  ])('reads $name', ({ given, expect: want }) => {
    expect(readClusterList(given, 'clusters')).toEqual(want);
  });

  test.each([
    { name: 'JSON that does not parse', given: '[{"name": "eu"', want: 'starts with "[" but is not JSON' },
    { name: 'an entry without a name', given: '[{"context": "eu"}]', want: 'entry 1 of the JSON list' },
    { name: 'a name twice', given: 'eu\neu', want: 'names cluster "eu" twice' },
    { name: 'a name with a control character', given: '["eu\\u0007"]', want: 'cannot name a cluster' },
    { name: 'a name with a quote', given: "eu, us'", want: `"us'" cannot name a cluster: it holds "'"` },
  ])('refuses $name, naming the input', ({ given, want }) => {
    const e = configError(() => readClusterList(given, 'clusters'));
    expect(e.input).toBe('clusters');
    expect(e.message).toContain(want);
  });
});

describe('the merge action', () => {
  test('defaults: reports from namespace-teardown-reports, fail-on leaked, no comment', () => {
    expect(readMergeSettings(reader({ clusters: 'eu\nus' }))).toEqual({
      reports: [DEFAULT_REPORTS_DIR],
      clusters: ['eu', 'us'],
      failOn: 'leaked',
      prComment: false,
      githubToken: undefined,
    });
  });

  test('no clusters is refused: without the list a cluster whose job wrote nothing would be left out', () => {
    const e = configError(() => readMergeSettings(reader({ reports: 'r' })));
    expect(e.input).toBe('clusters');
    expect(e.message).toMatch(/^Input "clusters" is empty/);
  });

  test('pr-comment without a token, and a bad fail-on, are refused naming the input', () => {
    expect(configError(() => readMergeSettings(reader({ clusters: 'eu', 'pr-comment': 'true' }))).input).toBe(
      'github-token',
    );
    expect(
      configError(() => readMergeSettings(reader({ clusters: 'eu', 'fail-on': 'sometimes' }))).message,
    ).toBe('Input "fail-on" is "sometimes"; allowed: leaked, stuck, never.');
  });

  const action = readAction('merge/action.yml');

  test('merge/action.yml declares exactly the inputs and outputs the code reads and sets', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.values(MergeInputs).sort());
    expect(Object.keys(action.outputs).sort()).toEqual(Object.values(MergeOutputs).sort());
  });

  test('docs/fleet.md has the tables generated from merge/action.yml (run `npm run docs` when this fails)', () => {
    const doc = readFileSync('docs/fleet.md', 'utf8');
    const block = doc.slice(
      doc.indexOf(MERGE_MARKERS.begin),
      doc.indexOf(MERGE_MARKERS.end) + MERGE_MARKERS.end.length,
    );
    const cells = (md: string): string[][] =>
      md
        .split('\n')
        .filter((l) => l.trim() !== '')
        .map((l) => l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/^-+$/, '---')));
    expect(cells(block)).toEqual(cells(actionTables(action, MERGE_MARKERS)));
  });
});
