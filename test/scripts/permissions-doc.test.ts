/** The README's "Permissions" tables are the ones generated from src/permissions/, the data the real-server test proves. */
import { readFileSync } from 'node:fs';
import { permissionsTables, PERMISSIONS_MARKERS } from '../../scripts/permissions-table.js';
import { BINDINGS, CHECKS } from '../../src/permissions/matrix.js';

/** Table rows as trimmed cells, so Prettier's column padding and alignment marks do not count as drift. */
function normalize(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) =>
      l.startsWith('|') ? l.split(/(?<!\\)\|/).map((c) => c.trim().replace(/^:?-+:?$/, '---')) : [l.trim()],
    );
}

describe('the README’s "Permissions" section', () => {
  const readme = readFileSync('README.md', 'utf8');
  const { begin, end } = PERMISSIONS_MARKERS;
  const block = readme.slice(readme.indexOf(begin), readme.indexOf(end) + end.length);

  test('holds the tables generated from src/permissions/ (run `npm run docs` when this fails)', () => {
    expect(readme.indexOf(begin)).toBeGreaterThan(0);
    expect(normalize(block)).toEqual(normalize(permissionsTables()));
  });

  test('shows every check for every mode, as the real-server test asserts it', () => {
    const rows = normalize(block).filter((r) => r[1]?.startsWith('`') && r[1] !== '`kubectl auth can-i …`');
    const checks = rows.filter((r) => r.length === BINDINGS.length + 4);
    expect(checks).toHaveLength(CHECKS.length);
    const patch = checks.find((r) => r[1] === '`patch namespaces -A`')!;
    expect(patch.slice(2, 2 + BINDINGS.length)).toEqual(
      BINDINGS.map((b) => (b.mode === 'force' ? 'yes' : 'no')),
    );
    const secrets = checks.find((r) => r[1] === '`list secrets -A`')!;
    expect(secrets.slice(2, 2 + BINDINGS.length)).toEqual(BINDINGS.map(() => 'no'));
  });
});
