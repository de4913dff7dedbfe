/**
 * The merge treats reports as untrusted input: any job of the run can upload one. A name or context that a shell
 * would run never reaches the outputs, the summary or the comment (its report is refused, naming the file); unusable
 * files get no more annotations than GitHub shows; only regular files are read, each bounded, and a FIFO, a device
 * or a socket is refused at once.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  openSync,
  closeSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { constants } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { MAX_REPORT_BYTES, readReports } from '../../src/fleet/read.js';
import type { RunReport } from '../../src/model/run.js';
import { reportJson } from '../../src/report/json.js';
import { clusterReport } from '../helpers/fleet.js';
import { runBundle, type BundleRun } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

const merge = (inputs: Record<string, string>): Promise<BundleRun> =>
  runBundle(inputs, { GITHUB_JOB: 'merge', GITHUB_ACTION: 'merge' }, { entry: 'dist/merge/index.js' });

const write = (path: string, report: RunReport): void =>
  writeFileSync(path, [...reportJson(report)].join(''));

/** The step the docs showed, run with the output interpolated as GitHub would: does it run anything? */
function documentedStep(clusters: string, cwd: string): void {
  execFileSync('bash', ['-c', `echo '${clusters}' | jq . > /dev/null || true`], { cwd, stdio: 'ignore' });
}

describe('the merge and what other jobs uploaded (node dist/merge/index.js)', () => {
  test.each([
    {
      name: 'a cluster name that runs a command',
      report: (pwned: string) =>
        clusterReport(`eu'$(touch ${pwned})'`, { context: 'kind-eu', server: 'eu.example.com:6443' }),
      why: /not a usable report: "context\.cluster\.name" cannot be used: it holds "'" at character 3; allowed: letters, digits/,
    },
    {
      name: 'a context that runs a command',
      report: (pwned: string) =>
        clusterReport('eu', { context: `kind-eu'; touch ${pwned}; '`, server: 'eu.example.com:6443' }),
      why: /not a usable report: "context\.cluster\.context" cannot be used: it holds "'" at character 8/,
    },
    {
      name: 'a namespace name that runs a command',
      report: (pwned: string) =>
        clusterReport('eu', {
          stuck: [`preview-1'$(touch ${pwned})'`],
          context: 'kind-eu',
          server: 'eu.example.com:6443',
        }),
      why: /not a usable report: target 1's "name" is not a namespace name: /,
    },
  ])('$name: the report is refused, named, and the outputs carry nothing of it', async ({ report, why }) => {
    const dir = tempDir('nt-hostile-merge-');
    const cwd = tempDir('nt-hostile-cwd-');
    const pwned = join(cwd, 'PWNED');
    const reports = join(dir, 'namespace-teardown-eu');
    mkdirSync(reports);
    const file = join(reports, 'namespace-teardown-teardown-20261122T100000Z-abcdef.json');
    write(file, report(pwned));
    const run = await merge({ reports: dir, clusters: 'eu' });
    expect(run.outputs.clusters).toBe('{"eu":{"result":"unknown","stuck":[],"forced":[]}}');
    expect(run.outputs.result).toBe('unknown');
    expect(run.summary).toContain('### ⚠️ Reports not used (1)');
    expect(run.summary).toContain(`<code>${file}</code>`);
    expect(run.summary).not.toContain('touch');
    expect(run.stdout).toMatch(why);
    documentedStep(run.outputs.clusters!, cwd);
    expect(existsSync(pwned)).toBe(false);
  });

  test('10,000 unusable files: no more annotations than GitHub shows, the rest counted in the summary', async () => {
    const dir = tempDir('nt-hostile-many-');
    for (let i = 0; i < 10_000; i++)
      writeFileSync(join(dir, `r${String(i).padStart(5, '0')}.json`), '{"version": 1,');
    const run = await merge({ reports: dir, clusters: 'eu' });
    const annotations = (level: string) => run.stdout.split('\n').filter((l) => l.startsWith(`::${level}`));
    expect(annotations('warning').length).toBeLessThanOrEqual(10);
    expect(annotations('error').length).toBeLessThanOrEqual(10);
    expect(annotations('notice').length).toBeLessThanOrEqual(10);
    expect(run.summary).toContain('### ⚠️ Reports not used (10,000)');
    expect(run.code).toBe(1);
  }, 120_000);
});

describe('only regular files are read, each bounded', () => {
  /** A directory of artifacts holding one `.json` entry made by `make`. */
  function artifacts(make: (path: string) => void): { dir: string; path: string } {
    const dir = tempDir('nt-hostile-files-');
    const path = join(dir, 'namespace-teardown-eu.json');
    make(path);
    return { dir, path };
  }

  test('a .json symlink to a FIFO is refused at once: the FIFO is never opened', async () => {
    const fifo = join(tempDir('nt-hostile-fifo-'), 'pipe');
    execFileSync('mkfifo', [fifo]);
    const { dir, path } = artifacts((p) => symlinkSync(fifo, p));
    // The writer's open completes only when a reader opens the FIFO: that is the event a merge that reads it makes.
    let opened = false;
    const writer = open(fifo, 'w').then(async (h) => {
      opened = true;
      await h.close(); // the reader then sees the end of the file instead of waiting for ever
    });
    const found = await readReports([dir]);
    expect(found).toEqual([
      {
        source: path,
        checked: { problem: expect.stringMatching(/^a symbolic link, not a regular file: not read/) },
      },
    ]);
    expect(opened).toBe(false);
    // Let the writer go: open the read end without waiting, then close it.
    closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
    await writer;
  });

  test('a FIFO named in `reports` itself is refused at once', async () => {
    const fifo = join(tempDir('nt-hostile-fifo-'), 'report.json');
    execFileSync('mkfifo', [fifo]);
    let opened = false;
    const writer = open(fifo, 'w').then(async (h) => {
      opened = true;
      await h.close();
    });
    const found = await readReports([fifo]);
    expect(found).toEqual([{ source: fifo, checked: { problem: 'a FIFO, not a regular file: not read' } }]);
    expect(opened).toBe(false);
    closeSync(openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK));
    await writer;
  });

  test('a device named in `reports` is refused, never read', async () => {
    const found = await readReports(['/dev/zero']);
    expect(found).toEqual([
      { source: '/dev/zero', checked: { problem: 'a character device, not a regular file: not read' } },
    ]);
  });

  test('a .json socket is refused', async () => {
    const { dir, path } = artifacts(() => undefined);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const found = await readReports([dir]);
      expect(found).toEqual([
        {
          source: path,
          checked: { problem: expect.stringMatching(/^a socket, not a regular file: not read/) },
        },
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('a .json symlink to a good report is refused too: only files the download wrote are read', async () => {
    const good = join(tempDir('nt-hostile-good-'), 'eu.json');
    write(good, clusterReport('eu'));
    const { dir, path } = artifacts((p) => symlinkSync(good, p));
    const found = await readReports([dir]);
    expect(found).toEqual([
      {
        source: path,
        checked: { problem: expect.stringMatching(/^a symbolic link, not a regular file: not read/) },
      },
    ]);
  });

  test('a file over the bound is refused, naming the bound, and not read', async () => {
    const { dir, path } = artifacts((p) => {
      writeFileSync(p, '');
      truncateSync(p, MAX_REPORT_BYTES + 1); // sparse: no disk written
    });
    const found = await readReports([dir]);
    expect(found).toEqual([
      {
        source: path,
        checked: { problem: `${MAX_REPORT_BYTES + 1} bytes, more than the 64 MiB a report may be: not read` },
      },
    ]);
  });
});
