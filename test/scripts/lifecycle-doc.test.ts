import { readFileSync } from 'node:fs';
import { readAction } from '../../scripts/action-table.js';

/** The workflows a document shows: every `yaml` block with `jobs:`, and the line it starts on. */
function workflowsIn(path: string): { line: number; text: string }[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const found: { line: number; text: string }[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```yaml') continue;
    const end = lines.indexOf('```', i + 1);
    const text = lines.slice(i + 1, end).join('\n') + '\n';
    if (/^jobs:/m.test(text)) found.push({ line: i + 2, text });
    i = end;
  }
  return found;
}

/** docs/lifecycle.md's workflows (actionlint runs on them in doc-workflows.test.ts): one per path, known inputs only. */
describe('the workflows docs/lifecycle.md shows', () => {
  const workflows = workflowsIn('docs/lifecycle.md');

  test('one for each of the four paths', () => {
    expect(workflows).toHaveLength(4);
    expect(workflows.map((w) => /^on:\n {2}(\w+):/m.exec(w.text)?.[1])).toEqual([
      'pull_request',
      'schedule',
      'issue_comment',
      'pull_request',
    ]);
  });

  test('every input they set is one action.yml declares', () => {
    const declared = new Set(Object.keys(readAction().inputs));
    for (const w of workflows) {
      const withBlock = /^ {8}with:\n((?: {10}.*\n)+)/m.exec(w.text)?.[1] ?? '';
      for (const key of withBlock
        .split('\n')
        .filter(Boolean)
        .map((l) => l.trim().split(':')[0]!))
        expect({ key, declared: declared.has(key) }).toEqual({ key, declared: true });
    }
  });
});
