/**
 * Release check for the tag being published: `tsx scripts/release.ts vX.Y.Z >> "$GITHUB_OUTPUT"` fails unless the
 * tag names package.json's version and CHANGELOG.md has a dated section for it, and prints the version, whether it
 * is a prerelease, the major tag to move (empty when a newer release of that major exists) and the notes.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { githubOutput, releasePlan } from './release-plan.js';

const tag = process.argv[2] ?? '';
try {
  const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
  const changelog = readFileSync('CHANGELOG.md', 'utf8');
  const tags = execFileSync('git', ['tag', '--list', 'v*'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  process.stdout.write(
    githubOutput(releasePlan(tag, version, changelog, tags), `ghadelimiter_${randomUUID()}`),
  );
} catch (err) {
  process.stderr.write(`release check failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
