/** Regenerate the inputs/outputs tables in README.md from action.yml. */
import { readFileSync, writeFileSync } from 'node:fs';
import { readAction, withTables } from './action-table.js';

const readme = readFileSync('README.md', 'utf8');
writeFileSync('README.md', withTables(readme, readAction()));
console.log('README.md tables regenerated from action.yml');
