#!/usr/bin/env node
import { tooOldNode } from './node-version.js';

// Checked before the rest loads: an older Node fails deep inside a dependency with a message no one can act on.
const old = tooOldNode(process.version, process.argv[1], process.argv.slice(2));
if (old) {
  process.stderr.write(`${old}\n`);
  process.exitCode = 2;
} else {
  const { cli } = await import('./cli.js');
  process.exitCode = await cli(process.argv.slice(2));
}
