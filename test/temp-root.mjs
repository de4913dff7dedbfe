// One temp directory per `npm test` (TMPDIR for the workers and every process they start). Whatever a test
// leaves in it fails the run, by name; then it is removed. Caches of tools (tsx, Node's compile cache) are not
// leftovers of a test.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CACHES = /^(tsx-\d+|node-compile-cache|jest_\w+)$/;

/** Jest's globalSetup: a fresh TMPDIR, inherited by the workers it forks afterwards. */
export function setup() {
  const root = mkdtempSync(join(tmpdir(), 'nt-jest-'));
  process.env.NT_TEST_TEMP_ROOT = root;
  process.env.TMPDIR = root;
}

/** Jest's globalTeardown: fail on what the tests left, then remove it all. */
export function teardown() {
  const root = process.env.NT_TEST_TEMP_ROOT;
  if (!root) return;
  const left = readdirSync(root).filter((name) => !CACHES.test(name));
  rmSync(root, { recursive: true, force: true });
  if (left.length > 0)
    throw new Error(
      `the tests left ${left.length} item(s) in the temp directory (use tempDir() from test/helpers/temp.ts, or remove them): ${left.sort().join(', ')}`,
    );
}
