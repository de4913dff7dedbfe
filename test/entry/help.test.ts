import { readFileSync } from 'node:fs';
import { EXIT_STATUS, exitStatus, helpText, wrapIndented } from '../../src/entry/help.js';
import { mergeHelp } from '../../src/entry/cli-merge.js';
import { allFlags } from '../../src/entry/flags.js';
import { cells } from '../../src/report/columns.js';

const collapsed = (text: string): string => text.replace(/\s+/g, ' ');

describe('--help, laid out for the terminal', () => {
  test.each([40, 60, 72, 80, 100, 120, 200])('%i columns: no line wider, no word broken', (width) => {
    for (const text of [helpText(width), mergeHelp(width)]) {
      expect(text.split('\n').filter((l) => cells(l) > width)).toEqual([]);
    }
    // A word broken across lines would split a flag's help: each reads whole once the lines are joined.
    const all = collapsed(helpText(width));
    for (const [name, spec] of allFlags()) {
      expect(all).toContain(`--${name}`);
      expect(all).toContain(collapsed(spec.help));
    }
    for (const [, meaning] of EXIT_STATUS) expect(all).toContain(meaning);
  });

  test('80 columns: the help of a flag in a column of its own; -n beside --namespaces', () => {
    const lines = helpText(80).split('\n');
    expect(lines).toContain('  -n, --namespaces LIST       namespaces to delete, separated by commas (-n as');
    expect(lines).toContain(
      "      --show-labels           a LABELS column, last and whole: each namespace's",
    );
    // A flag too long for its column puts its help under it, in the column.
    const at = lines.indexOf('      --custom-resources-timeout DURATION');
    expect(lines[at + 1]).toMatch(/^ {30}the custom resources' share/);
    // Usage lines wrap under their first argument, a [...] group whole.
    expect(lines).toContain('                          [--sweep-repository owner/name] [flags]');
  });

  test('120 columns: the same text uses the width', () => {
    const lines = helpText(120).split('\n');
    expect(lines.some((l) => cells(l) > 80)).toBe(true);
    expect(lines).toContain(
      '       namespace-teardown --sweep plan|on --sweep-pr-label KEY [--sweep-repository owner/name] [flags]',
    );
  });
});

describe('a message on a terminal', () => {
  test.each([40, 80, 120])('%i columns: wrapped at words, a list item continued under its text', (width) => {
    const item =
      '  - --target-label is empty, and so is --sweep-pr-label: nothing tells a preview namespace from any other, and this run deletes its targets.';
    const lines = wrapIndented(item, width);
    expect(lines.filter((l) => cells(l) > width)).toEqual([]);
    expect(lines[0]!.startsWith('  - --target-label')).toBe(true);
    for (const l of lines.slice(1)) expect(l).toMatch(/^ {4}\S/);
    expect(collapsed(lines.join(' '))).toBe(collapsed(item));
  });
});

describe('the exit statuses', () => {
  const report = (failures: string[], cost?: { requests: number; bytes: number; answers?: number }) => ({
    failures,
    ...(cost ? { cost } : {}),
  });

  test.each([
    { name: 'the check passes', given: report([]), expect: 0 },
    {
      name: 'it passes with no answer at all (nothing to ask): still 0',
      given: report([], { requests: 0, bytes: 0, answers: 0 }),
      expect: 0,
    },
    {
      name: 'it fails after answers (stuck, refused, a 403): 1',
      given: report(['1 namespace(s) still present: a'], { requests: 9, bytes: 900, answers: 9 }),
      expect: 1,
    },
    {
      name: 'one answer, even a 401, means the cluster was reached: 1',
      given: report(['1 namespace(s) ended in error: a'], { requests: 3, bytes: 0, answers: 1 }),
      expect: 1,
    },
    {
      name: 'requests sent, not one answered: 3',
      given: report(['1 namespace(s) ended in error: a'], { requests: 3, bytes: 0, answers: 0 }),
      expect: 3,
    },
    {
      name: 'a report that did not count answers (an older one): 1, never a guess',
      given: report(['x'], { requests: 3, bytes: 0 }),
      expect: 1,
    },
    { name: 'no cost at all: 1', given: report(['x']), expect: 1 },
  ])('$name', ({ given, expect: want }) => {
    expect(exitStatus(given)).toBe(want);
  });

  test.each(['README.md', 'docs/guide.md'])('%s lists the same statuses and meanings as --help', (file) => {
    const text = readFileSync(file, 'utf8');
    const rows = [...text.matchAll(/^\| (\d[\d, ]*?) +\| (.+?) +\|$/gm)].map((m) => [m[1]!, m[2]!]);
    expect(rows).toEqual(EXIT_STATUS.map(([code, meaning]) => [code.trim(), meaning]));
  });
});
