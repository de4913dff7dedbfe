#!/usr/bin/env node
/** The CLI's entry point: refuses a Node too old to run it, then runs the CLI. */
import { tooOldNode } from './node-version.js';

// Checked before the rest loads: an older Node fails deep inside a dependency with a message no one can act on.
const old = tooOldNode(process.version, process.argv[1], process.argv.slice(2));
if (old) {
  process.stderr.write(`${old}\n`);
  process.exitCode = 2;
} else {
  const { cli } = await import('./cli.js');
  process.exitCode = await cli(process.argv.slice(2));
  // The answer is out: a connection a server never answers (a cluster left behind at its bound) must not hold the
  // prompt. stdout and stderr are synchronous for files and pipes on Linux, so nothing printed is lost.
  setTimeout(() => process.exit(), 1_000).unref();
}
