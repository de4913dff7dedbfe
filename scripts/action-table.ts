/** The README's inputs/outputs tables, generated from action.yml (the single source of truth). */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

interface ActionYml {
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string }>;
}

export const BEGIN = '<!-- action-table:begin (generated from action.yml by `npm run docs`) -->';
export const END = '<!-- action-table:end -->';

/** The markers of the merge action's tables (docs/fleet.md). */
export const MERGE_MARKERS = {
  begin: '<!-- merge-table:begin (generated from merge/action.yml by `npm run docs`) -->',
  end: '<!-- merge-table:end -->',
} as const;

/** Where a generated block starts and ends. */
export interface Markers {
  begin: string;
  end: string;
}

/** Parse action.yml. */
export function readAction(path = 'action.yml'): ActionYml {
  return parse(readFileSync(path, 'utf8')) as ActionYml;
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ').trim();

/** The markdown block that sits between the markers. */
export function actionTables(action: ActionYml, markers: Markers = { begin: BEGIN, end: END }): string {
  const inputs = Object.entries(action.inputs).map(
    ([name, i]) => `| \`${name}\` | ${cell(i.description)} | ${i.default ? `\`${i.default}\`` : ''} |`,
  );
  const outputs = Object.entries(action.outputs).map(
    ([name, o]) => `| \`${name}\` | ${cell(o.description)} |`,
  );
  return [
    markers.begin,
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
    markers.end,
  ].join('\n');
}

/** README text (or another document's) with the generated block replaced. */
export function withTables(
  readme: string,
  action: ActionYml,
  markers: Markers = { begin: BEGIN, end: END },
): string {
  const start = readme.indexOf(markers.begin);
  const end = readme.indexOf(markers.end);
  if (start < 0 || end < 0) throw new Error(`the document lacks the markers ${markers.begin}`);
  return readme.slice(0, start) + actionTables(action, markers) + readme.slice(end + markers.end.length);
}
