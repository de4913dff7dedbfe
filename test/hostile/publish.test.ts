/** Runner faults while publishing: a failed summary or temp-dir write never drops the outputs. */
import { existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname } from 'node:path';
import { reportFileName } from '../../src/report/outputs.js';
import { FakeCluster } from '../fake-apiserver/index.js';
import { runBundle } from '../helpers/harness.js';

describe('publishing survives runner faults (node dist/index.js)', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;
  beforeEach(async () => {
    cluster = new FakeCluster();
    ({ kubeconfig } = await cluster.start());
  });
  afterEach(() => cluster.stop());

  test('an unwritable GITHUB_STEP_SUMMARY is a warning; outputs and report are still written', async () => {
    const run = await runBundle(
      { namespaces: 'gone-already', kubeconfig, timeout: '5s' },
      { GITHUB_STEP_SUMMARY: '/nonexistent-dir/summary.md' },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/::warning::could not write the job summary: .*nonexistent-dir/);
    expect(run.outputs.result).toBe('clean');
    expect(run.report?.targets.map((t) => t.outcome)).toEqual(['already-gone']);
  });

  test('a missing RUNNER_TEMP directory: the report goes to the OS temp dir', async () => {
    const run = await runBundle(
      { namespaces: 'gone-already', kubeconfig, timeout: '5s' },
      { RUNNER_TEMP: '/nonexistent-runner-temp' },
    );
    expect(run.code).toBe(0);
    expect(dirname(run.outputs.report!)).toBe(tmpdir());
    expect(existsSync(run.outputs.report!)).toBe(true);
    expect(run.summary).toContain('Namespace teardown: 1 already gone of 1 namespace');
    rmSync(run.outputs.report!);
  });

  test('a step without an id gets a readable report name, and two runs never share one', async () => {
    const env = { GITHUB_ACTION: '__self' };
    const [a, b] = await Promise.all([
      runBundle({ namespaces: 'gone-already', kubeconfig, timeout: '5s' }, env),
      runBundle({ namespaces: 'gone-already', kubeconfig, timeout: '5s' }, env),
    ]);
    for (const run of [a, b]) {
      expect(basename(run.outputs.report!)).toMatch(
        /^namespace-teardown-report-\d{8}T\d{6}Z-[0-9a-f]{6}\.json$/,
      );
      expect(run.report?.result).toBe('clean');
    }
    expect(a.outputs.report).not.toBe(b.outputs.report);
  });
});

describe('reportFileName', () => {
  const at = new Date('2026-11-22T15:04:05.678Z');
  test.each([
    {
      name: 'a step id',
      given: 'teardown',
      expect: 'namespace-teardown-teardown-20261122T150405Z-abc123.json',
    },
    {
      name: 'no id (__self)',
      given: '__self',
      expect: 'namespace-teardown-report-20261122T150405Z-abc123.json',
    },
    {
      name: 'a generated id',
      given: '__owner_repo_2',
      expect: 'namespace-teardown-report-20261122T150405Z-abc123.json',
    },
    { name: 'unset', given: undefined, expect: 'namespace-teardown-report-20261122T150405Z-abc123.json' },
    {
      name: 'odd characters',
      given: 'tear down/../x',
      expect: 'namespace-teardown-tear-down-..-x-20261122T150405Z-abc123.json',
    },
  ])('$name', ({ given, expect: want }) => {
    expect(reportFileName(given, at, 'abc123')).toBe(want);
  });
});
