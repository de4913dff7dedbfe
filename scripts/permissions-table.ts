/** The README's "Permissions" tables, generated from src/permissions/ (the data test/real/rbac-matrix.test.ts proves). */
import { BINDINGS, CHECKS, canI } from '../src/permissions/matrix.js';
import { ROLES } from '../src/permissions/roles.js';
import type { Markers } from './action-table.js';

export const PERMISSIONS_MARKERS: Markers = {
  begin: '<!-- permissions-table:begin (generated from src/permissions/ by `npm run docs`) -->',
  end: '<!-- permissions-table:end -->',
};

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** Which roles each mode binds, and where. */
function bindingTable(): string[] {
  const where = (name: string): string => {
    const bound = ROLES.find((r) => r.name === name)?.boundIn;
    return bound ? `\`${name}\` (RoleBinding in ${bound.join(', ')})` : `\`${name}\``;
  };
  return [
    '| Mode | Workflow | Bind |',
    '| --- | --- | --- |',
    ...BINDINGS.map((b) => `| ${b.label} | ${cell(b.workflow)} | ${b.roles.map(where).join(', ')} |`),
  ];
}

/** What `kubectl auth can-i` answers for each mode's identity. */
function matrixTable(): string[] {
  return [
    `| \`kubectl auth can-i …\` | ${BINDINGS.map((b) => b.label).join(' | ')} | |`,
    `| --- | ${BINDINGS.map(() => ':-:').join(' | ')} | --- |`,
    ...CHECKS.map((c) => {
      const asked = canI(c).slice('kubectl auth can-i '.length);
      const answers = BINDINGS.map((b) => (c.allowed.includes(b.mode) ? 'yes' : 'no'));
      return `| \`${asked}\` | ${answers.join(' | ')} | ${cell(c.note ?? '')} |`;
    }),
  ];
}

/** The markdown block between the markers. */
export function permissionsTables(): string {
  return [PERMISSIONS_MARKERS.begin, ...bindingTable(), '', ...matrixTable(), PERMISSIONS_MARKERS.end].join(
    '\n',
  );
}

/** The README (or another document) with the generated block replaced. */
export function withPermissions(readme: string): string {
  const start = readme.indexOf(PERMISSIONS_MARKERS.begin);
  const end = readme.indexOf(PERMISSIONS_MARKERS.end);
  if (start < 0 || end < 0) throw new Error(`the document lacks the markers ${PERMISSIONS_MARKERS.begin}`);
  return readme.slice(0, start) + permissionsTables() + readme.slice(end + PERMISSIONS_MARKERS.end.length);
}
