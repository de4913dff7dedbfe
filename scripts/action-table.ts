/** The README's inputs/outputs tables, generated from action.yml (the single source of truth). */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

export const BEGIN = '<!-- action-table:begin (generated from action.yml by `npm run docs`) -->';
export const END = '<!-- action-table:end -->';

/** Parse action.yml. */
export function readAction(path = 'action.yml'): ActionYml {
  return parse(readFileSync(path, 'utf8')) as ActionYml;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').trim();

/** The markdown block that sits between the markers. */
export function actionTables(action: ActionYml): string {
  const inputs = Object.entries(action.inputs).map(
    ([name, i]) => `| \`${name}\` | ${cell(i.description)} | ${i.default ? `\`${i.default}\`` : ''} |`,
  );
  const outputs = Object.entries(action.outputs).map(
    ([name, o]) => `| \`${name}\` | ${cell(o.description)} |`,
  );
  return [
    BEGIN,
    '### Inputs',
    '',
    '| Input | Description | Default |',
    '| --- | --- | --- |',
    ...inputs,
    '',
    '### Outputs',
    '',
    '| Output | Description |',
    '| --- | --- |',
    ...outputs,
    END,
  ].join('\n');
}

/** README text with the generated block replaced. */
export function withTables(readme: string, action: ActionYml): string {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < 0) throw new Error('README.md lacks the action-table markers');
  return readme.slice(0, start) + actionTables(action) + readme.slice(end + END.length);
}
