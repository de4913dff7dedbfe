/**
 * The workflows the README and docs/fleet.md give for many clusters (actionlint and `permissions` are checked for
 * every documented workflow in doc-workflows.test.ts): every input they pass to namespace-teardown or its merge is
 * declared by that action's own action.yml, each job names its cluster, and the merge is given the list the matrix
 * ran over.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { readAction } from '../../scripts/action-table.js';

/** The ```yaml blocks of `text` that are whole workflows. */
function workflows(text: string): string[] {
  return [...text.matchAll(/^```yaml\n([^]*?)^```$/gm)].map((m) => m[1]!).filter((y) => /^jobs:/m.test(y));
}

const readme = readFileSync('README.md', 'utf8');
const section = readme.slice(
  readme.indexOf('## Many clusters'),
  readme.indexOf('\n## ', readme.indexOf('## Many clusters') + 3),
);
const BLOCKS = [
  ...workflows(section).map((text, i) => ({ name: `README "Many clusters" #${i + 1}`, text })),
  ...workflows(readFileSync('docs/fleet.md', 'utf8')).map((text, i) => ({
    name: `docs/fleet.md #${i + 1}`,
    text,
  })),
];
const INPUTS: Record<string, string[]> = {
  'namespace-teardown/namespace-teardown': Object.keys(readAction('action.yml').inputs),
  'namespace-teardown/namespace-teardown/merge': Object.keys(readAction('merge/action.yml').inputs),
};

type Step = { uses?: string; with?: Record<string, unknown> };

describe('the many-clusters workflows in the docs', () => {
  test('there are four: a preview teardown and a nightly scan, in the README and in docs/fleet.md', () => {
    expect(BLOCKS.map((b) => b.name)).toEqual([
      'README "Many clusters" #1',
      'README "Many clusters" #2',
      'docs/fleet.md #1',
      'docs/fleet.md #2',
    ]);
  });

  test.each(BLOCKS)(
    '$name passes only inputs the actions declare, and merges the matrix it ran',
    ({ text }) => {
      const jobs = (parse(text) as { jobs: Record<string, { steps: Step[] }> }).jobs;
      const steps = Object.values(jobs).flatMap((j) => j.steps);
      for (const step of steps) {
        const action = step.uses?.replace(/@.*$/, '') ?? '';
        if (!(action in INPUTS)) continue;
        expect(Object.keys(step.with ?? {}).filter((k) => !INPUTS[action]!.includes(k))).toEqual([]);
      }
      const teardown = steps.find((s) => s.uses?.startsWith('namespace-teardown/namespace-teardown@'))!;
      const merge = steps.find((s) => s.uses?.startsWith('namespace-teardown/namespace-teardown/merge@'))!;
      expect(teardown.with?.['cluster-name']).toBe('${{ matrix.cluster.name }}');
      // The merge is told the same list the matrix ran over, so a cluster without a report is unknown, not missing.
      const list = /fromJSON\((vars\.\w+)\)/.exec(text)![1];
      expect(merge.with?.clusters).toBe(`\${{ ${list} }}`);
    },
  );
});
