import { execFile } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { emojiFontProblem } from '../../scripts/emoji-font.js';
import { tempDir } from '../helpers/temp.js';

describe('pictures only with an emoji font', () => {
  test.each([
    { name: 'a font covers emoji', fcList: 'Noto Color Emoji\n', expect: undefined },
    { name: 'none does', fcList: '', expect: /no installed font draws emoji .*fonts-noto-color-emoji/ },
    { name: 'fc-list is missing', fcList: null, expect: /fc-list \(fontconfig\) is not installed/ },
  ])('$name', ({ fcList, expect: want }) => {
    const problem = emojiFontProblem(() => {
      if (fcList === null) throw new Error('ENOENT');
      return fcList;
    });
    if (want === undefined) expect(problem).toBeUndefined();
    else expect(problem).toMatch(want);
  });

  test('npm run screenshot refuses before running anything, and no picture changes', async () => {
    const bin = tempDir('nt-no-emoji-');
    writeFileSync(join(bin, 'fc-list'), '#!/bin/sh\nexit 0\n');
    chmodSync(join(bin, 'fc-list'), 0o755);
    const picture = 'docs/summary/one-stuck.png';
    const before = readFileSync(picture);
    const tsx = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        [tsx, 'scripts/screenshot.ts', 'one-stuck'],
        { env: { ...process.env, PATH: [bin, process.env.PATH].join(delimiter) } },
        (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
      ),
    );
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      'npm run screenshot: refusing to write pictures: no installed font draws emoji',
    );
    expect(readFileSync(picture).equals(before)).toBe(true);
  }, 60_000);
});
