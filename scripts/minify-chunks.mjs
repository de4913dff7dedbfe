// ncc minifies only the entry file; minify the lazily loaded chunks it writes beside it, the same way.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { minify } from 'terser';

for (const dir of process.argv.slice(2)) {
  for (const file of readdirSync(dir).filter((f) => /^\d+\.index\.js$/.test(f))) {
    const path = join(dir, file);
    const result = await minify(readFileSync(path, 'utf8'), { module: true, compress: true, mangle: true });
    writeFileSync(path, result.code);
  }
}
