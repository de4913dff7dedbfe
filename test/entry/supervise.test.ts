import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { supervise, whyStopped } from '../../src/entry/supervise.js';
import { parseOutputFile } from '../helpers/harness.js';

const fixture = (name: string): string => join(import.meta.dirname, 'fixtures', name);

describe('the main thread around the run', () => {
  let dir: string;
  const saved = { ...process.env };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'nt-supervise-'));
    for (const f of ['summary.md', 'output.txt']) writeFileSync(join(dir, f), '');
    Object.assign(process.env, {
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      GITHUB_OUTPUT: join(dir, 'output.txt'),
      RUNNER_TEMP: dir,
      INPUT_NAMESPACES: 'pr-1 pr-2',
      INPUT_TIMEOUT: '30s',
      'INPUT_TARGET-LABEL': 'none',
    });
  });
  afterEach(() => {
    process.env = { ...saved };
    process.exitCode = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  test('a run that reaches its heap bound still leaves a summary, outputs and a report that say so', async () => {
    const code = await supervise({ entry: fixture('engine-oom.mjs'), heapMb: 48 });
    expect(code).toBe(1);
    const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(summary).toMatch(
      /\*\*The check fails:\*\* the run ran out of memory.{0,6} its heap is bounded to 48 MiB/,
    );
    const outputs = parseOutputFile(readFileSync(join(dir, 'output.txt'), 'utf8'));
    expect(outputs.result).toBe('error');
    const report = JSON.parse(readFileSync(outputs.report!, 'utf8')) as { error: string; targets: unknown[] };
    expect(report.error).toMatch(/ran out of memory/);
    // Nothing is claimed about the targets: the run's state was lost with the worker.
    expect(report.targets).toEqual([]);
  }, 30_000);

  test('a run that ended as it should is left to speak for itself: its exit code, nothing published here', async () => {
    const code = await supervise({ entry: fixture('engine-done.mjs') });
    expect(code).toBe(1);
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toBe('');
    expect(readFileSync(join(dir, 'output.txt'), 'utf8')).toBe('');
  });

  describe('after the run has published, nothing more is published: one report, one summary, one result', () => {
    /** The step's log as the runner reads it (what @actions/core wrote to stdout). */
    let log: string[];
    beforeEach(() => {
      log = [];
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
        log.push(String(chunk));
        return true;
      });
    });
    afterEach(() => jest.restoreAllMocks());

    const published = (): { summary: string; results: string[] } => ({
      summary: readFileSync(join(dir, 'summary.md'), 'utf8'),
      results: [...readFileSync(join(dir, 'output.txt'), 'utf8').matchAll(/^result<<(.+)\n(.*)\n\1$/gm)].map(
        (m) => m[2]!,
      ),
    });

    test.each([
      {
        name: 'the heap bound reached after a clean result',
        fixture: 'engine-published-oom.mjs',
        afterPublishMs: undefined,
        code: 0,
        result: 'clean',
        warning:
          /after the report was published, the run ran out of memory.{0,6} its heap is bounded to 48 MiB.*the result stands as published/,
      },
      {
        name: 'an error thrown after a clean result',
        fixture: 'engine-published-throws.mjs',
        afterPublishMs: undefined,
        code: 0,
        result: 'clean',
        warning:
          /after the report was published, the run stopped unexpectedly: (Error: )?the comment step broke.*the result stands/,
      },
      {
        name: 'an error that overtakes the "published" message',
        fixture: 'engine-published-unsaid.mjs',
        afterPublishMs: undefined,
        code: 0,
        result: 'clean',
        warning:
          /after the report was published, the run stopped unexpectedly: (Error: )?the comment step broke/,
      },
      {
        name: 'a step that never ends after a stuck result: stopped',
        fixture: 'engine-published-hangs.mjs',
        // It never ends by itself: any bound ends it, however long the machine takes to get there.
        afterPublishMs: 50,
        code: 1,
        result: 'stuck',
        warning: /what follows the report \(the pull request comment\) did not end in time and was stopped/,
      },
    ])(
      '$name',
      async ({ fixture: file, afterPublishMs, code, result, warning }) => {
        const exit = await supervise({ entry: fixture(file), heapMb: 48, afterPublishMs });
        const { summary, results } = published();
        expect(results).toEqual([result]);
        expect(summary).toBe(`## Namespace teardown: ${result}\n`);
        expect(exit).toBe(code);
        expect(log.join('')).toMatch(new RegExp(`::warning::${warning.source}`));
      },
      30_000,
    );
  });

  test('the reason names the bound for an out-of-memory end, and the message otherwise', () => {
    expect(whyStopped({ code: 'ERR_WORKER_OUT_OF_MEMORY' }, 512)).toBe(
      'the run ran out of memory: its heap is bounded to 512 MiB; nothing after that point is known',
    );
    expect(whyStopped(new Error('boom'), 512)).toBe('the run stopped unexpectedly: boom');
  });
});
