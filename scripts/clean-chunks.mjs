// Remove the lazily loaded chunks of an earlier build before ncc writes new ones: ncc leaves a chunk it no longer
// writes in place, and minify-chunks.mjs would minify such a stale file again on every build (so dist/ never settled).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

for (const dir of process.argv.slice(2)) {
  let files;
  try {
    files = readdirSync(dir);
  } catch {
    continue; // not built yet
  }
  for (const file of files.filter((f) => /^\d+\.index\.js$/.test(f))) rmSync(join(dir, file));
}
