/**
 * Regenerate the inputs/outputs tables in README.md from action.yml, docs/fleet.md's from merge/action.yml, and the
 * README's "Permissions" tables and deploy/rbac.yaml from src/permissions/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { MERGE_MARKERS, readAction, withTables } from './action-table.js';
import { withPermissions } from './permissions-table.js';
import { rbacYaml } from './rbac-yaml.js';

const readme = readFileSync('README.md', 'utf8');
writeFileSync('README.md', withPermissions(withTables(readme, readAction())));
console.log('README.md tables regenerated from action.yml and src/permissions/');
const fleet = readFileSync('docs/fleet.md', 'utf8');
writeFileSync('docs/fleet.md', withTables(fleet, readAction('merge/action.yml'), MERGE_MARKERS));
console.log('docs/fleet.md tables regenerated from merge/action.yml');
writeFileSync('deploy/rbac.yaml', rbacYaml());
console.log('deploy/rbac.yaml regenerated from src/permissions/');
