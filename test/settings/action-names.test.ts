import { readFileSync } from 'node:fs';
import { Inputs, Outputs } from '../../src/settings/action-names.js';
import { actionTables, BEGIN, END, readAction } from '../../scripts/action-table.js';

/** Table rows as trimmed cells, so Prettier's column padding does not count as drift. */
function normalize(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) =>
      l.startsWith('|') ? l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/^-+$/, '---')) : [l.trim()],
    );
}

describe('action.yml, the code and the README agree', () => {
  const action = readAction();

  test('action.yml declares exactly the inputs the code reads', () => {
    expect(Object.keys(action.inputs).sort()).toEqual(Object.values(Inputs).sort());
  });

  test('action.yml declares exactly the outputs the code sets', () => {
    expect(Object.keys(action.outputs).sort()).toEqual(Object.values(Outputs).sort());
  });

  test('the README tables are the ones generated from action.yml (run `npm run docs` when this fails)', () => {
    const readme = readFileSync('README.md', 'utf8');
    const block = readme.slice(readme.indexOf(BEGIN), readme.indexOf(END) + END.length);
    expect(normalize(block)).toEqual(normalize(actionTables(action)));
  });

  test('the README names exactly the two set-up commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain('npm ci\nnpm test');
  });
});
