/**
 * The workflows the README and docs/ show are the ones a user pastes: each passes actionlint as written, sets
 * `permissions` (the least it needs), and passes outputs and event text to scripts only through `env:`, as the
 * repository's own workflows must; each step of the teardown sets its fence, `target-label`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { actionlint } from '../../scripts/actionlint.js';
import { runExpressionProblems } from '../../scripts/workflow-lint.js';

/** Every fenced YAML block of `file` that is a whole workflow (it has `on:` and `jobs:`). */
function workflowsIn(file: string): { name: string; text: string }[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/```ya?ml\n([\s\S]*?)\n```/g)]
    .map((m) => m[1]!)
    .filter((block) => /^on:/m.test(block) && /^jobs:/m.test(block))
    .map((block, i) => ({ name: `${file} #${i + 1}`, text: `${block}\n` }));
}

const FILES = [
  'README.md',
  ...readdirSync('docs')
    .filter((f) => f.endsWith('.md'))
    .map((f) => join('docs', f)),
];
const WORKFLOWS = FILES.flatMap(workflowsIn);

/** Every step of the teardown action (not the merge) in a YAML block of `file`, whole workflows and snippets. */
function teardownSteps(file: string): { name: string; with: Record<string, unknown> }[] {
  const blocks = [...readFileSync(file, 'utf8').matchAll(/```ya?ml\n([\s\S]*?)\n```/g)].map((m) => m[1]!);
  const steps: { name: string; with: Record<string, unknown> }[] = [];
  const visit = (node: unknown, block: number): void => {
    if (Array.isArray(node)) for (const n of node) visit(n, block);
    else if (node && typeof node === 'object') {
      const o = node as Record<string, unknown>;
      if (typeof o.uses === 'string' && /^namespace-teardown\/namespace-teardown@/.test(o.uses))
        steps.push({ name: `${file} block ${block + 1}`, with: (o.with ?? {}) as Record<string, unknown> });
      for (const v of Object.values(o)) visit(v, block);
    }
  };
  blocks.forEach((b, i) => visit(parse(b) as unknown, i));
  return steps;
}
const STEPS = FILES.flatMap(teardownSteps);

describe('the workflows in the documentation', () => {
  test('there are some: the first one in the README', () => {
    expect(WORKFLOWS[0]?.name).toBe('README.md #1');
    expect(WORKFLOWS.length).toBeGreaterThanOrEqual(3);
  });

  test.each(WORKFLOWS.map((w) => [w.name, w.text]))(
    '%s passes actionlint and sets permissions',
    async (name, text) => {
      const problems = await actionlint(text, `${name.replace(/\W+/g, '-')}.yml`);
      expect(problems.map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
      expect(Object.keys(parse(text) as object)).toContain('permissions');
    },
  );

  test('every documented step of the teardown sets target-label, the fence on its targets', () => {
    expect(STEPS.length).toBeGreaterThanOrEqual(12);
    expect(STEPS.filter((s) => typeof s.with['target-label'] !== 'string').map((s) => s.name)).toEqual([]);
  });

  test.each(WORKFLOWS.map((w) => [w.name, w.text]))('%s has no ${{ }} inside run:', (name, text) => {
    expect(runExpressionProblems(name, text).map((p) => `${p.line}:${p.column} ${p.message}`)).toEqual([]);
  });

  test.each(['action.yml', 'merge/action.yml'])('%s has no ${{ }} inside a run: of its own', (file) => {
    expect(runExpressionProblems(file, readFileSync(file, 'utf8'))).toEqual([]);
  });

  test("the merge step the docs showed, `echo '${{ steps.merge.outputs.clusters }}' | jq .`, is refused", () => {
    const planted = WORKFLOWS.find((w) => w.text.includes('steps.merge.outputs.clusters'))!.text.replace(
      /printf '%s\\n' "\$CLUSTERS" \| jq \./,
      "echo '${{ steps.merge.outputs.clusters }}' | jq .",
    );
    expect(planted).toContain("echo '${{ steps.merge.outputs.clusters }}'");
    expect(runExpressionProblems('docs/fleet.md', planted)).toEqual([
      expect.objectContaining({
        kind: 'run-expression',
        message: expect.stringMatching(
          /^\$\{\{ steps\.merge\.outputs\.clusters \}\} inside run: pass it through env:/,
        ),
      }),
    ]);
  });

  test("the README's first workflow hands Helm and the action one kubeconfig file, through KUBECONFIG", () => {
    const text = WORKFLOWS[0]!.text;
    expect(text).toContain('echo "KUBECONFIG=$RUNNER_TEMP/kubeconfig" >> "$GITHUB_ENV"');
    expect(text).not.toMatch(/KUBECONFIG_DATA|kubeconfig: \$\{\{/);
    expect(text).toMatch(/uses: namespace-teardown\/namespace-teardown@v1\n/);
  });
});
