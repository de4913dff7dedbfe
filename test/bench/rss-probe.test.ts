import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

/** Run `node --import bench/rss-probe.mjs -e 0` from this process; the peak it wrote, in MiB. */
function childPeakMiB(): Promise<number> {
  const file = join(tempDir('nt-rss-'), 'rss');
  return new Promise((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', join(process.cwd(), 'bench', 'rss-probe.mjs'), '-e', '0'],
      { env: { PATH: process.env.PATH ?? '', NT_RSS_FILE: file } },
      (error) => (error ? reject(error) : resolve(Number(readFileSync(file, 'utf8')) / 1024)),
    ),
  );
}

describe("the bench's peak RSS of a child process", () => {
  test("is the child's own: a parent holding 400 MiB does not raise it", async () => {
    const alone = await childPeakMiB();
    const held = Buffer.alloc(400 * 1024 * 1024, 1);
    const beside = await childPeakMiB();
    held[0] = 2; // kept alive until the child has exited
    expect(process.memoryUsage().rss / 1024 / 1024).toBeGreaterThan(400);
    // A Node that does nothing: tens of MiB, whatever its parent holds.
    expect(alone).toBeLessThan(150);
    expect(beside).toBeLessThan(150);
  });
});
