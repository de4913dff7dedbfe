import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * scripts/check-dist.sh run against a small project of its own: a git repository whose `npm run build` writes
 * the bundle and its licence files from bundle.json, so each case says what the build writes and what is committed.
 */
interface Bundle {
  /** Files the build writes, path → content. */
  writes: Record<string, string>;
}

const UP_TO_DATE: Bundle = {
  writes: {
    'dist/index.js': 'action();\n',
    'dist/licenses.txt': 'yaml\nISC\n',
    'dist/cli/index.js': 'cli();\n',
    'dist/cli/licenses.txt': 'yaml\nISC\n\ntunnel\nMIT\n',
    'dist/merge/index.js': 'merge();\n',
    'dist/merge/licenses.txt': 'yaml\nISC\n',
  },
};

const BUILD = `import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
const { writes } = JSON.parse(readFileSync('bundle.json', 'utf8'));
for (const [path, content] of Object.entries(writes)) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}
`;

/** Environment for git and npm in the temporary project, free of the enclosing repository's git variables. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) if (name.startsWith('GIT_')) delete env[name];
  return {
    ...env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@example.com',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@example.com',
  };
}

function run(cwd: string, cmd: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(cmd, args, { cwd, env: childEnv(), encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** A project whose commit holds `committed` and whose build writes `built`. */
function project(committed: Record<string, string>, built: Bundle): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-dist-'));
  mkdirSync(join(dir, 'scripts'));
  copyFileSync('scripts/check-dist.sh', join(dir, 'scripts/check-dist.sh'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ private: true, scripts: { build: 'node build.mjs' } }),
  );
  writeFileSync(join(dir, 'build.mjs'), BUILD);
  for (const [path, content] of Object.entries(committed)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  writeFileSync(join(dir, 'bundle.json'), JSON.stringify(built));
  run(dir, 'git', ['init', '-q']);
  run(dir, 'git', ['add', '-A']);
  run(dir, 'git', ['commit', '-q', '-m', 'fixture']);
  return dir;
}

function without(files: Record<string, string>, path: string): Record<string, string> {
  const copy = { ...files };
  delete copy[path];
  return copy;
}

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function check(committed: Record<string, string>, built: Bundle): { status: number | null; out: string } {
  const dir = project(committed, built);
  dirs.push(dir);
  return run(dir, 'bash', ['scripts/check-dist.sh']);
}

describe('check-dist: the bundle and the licences of what it bundles are committed and current', () => {
  test('passes when every bundle file and every licence file match a fresh build', () => {
    const r = check(UP_TO_DATE.writes, UP_TO_DATE);
    expect(r.out).toContain('up to date');
    expect(r.status).toBe(0);
  });

  test('fails when a licence file the build writes was never committed', () => {
    const r = check(without(UP_TO_DATE.writes, 'dist/cli/licenses.txt'), UP_TO_DATE);
    expect(r.status).toBe(1);
    expect(r.out).toContain('dist/cli/licenses.txt is missing from git');
  });

  test('fails when the merge action bundle was built but its licence file never committed', () => {
    const r = check(without(UP_TO_DATE.writes, 'dist/merge/licenses.txt'), UP_TO_DATE);
    expect(r.status).toBe(1);
    expect(r.out).toContain('dist/merge/licenses.txt is missing from git');
  });

  test('fails when the build no longer writes a licence file (ncc run without --license)', () => {
    const r = check(UP_TO_DATE.writes, { writes: without(UP_TO_DATE.writes, 'dist/licenses.txt') });
    expect(r.status).toBe(1);
    expect(r.out).toContain(
      "dist/licenses.txt is missing: the build no longer writes it; keep '--license licenses.txt'",
    );
  });

  test('fails when a dependency changed and the committed licences are stale', () => {
    const built = { writes: { ...UP_TO_DATE.writes, 'dist/licenses.txt': 'yaml\nISC\n\nundici\nMIT\n' } };
    const r = check(UP_TO_DATE.writes, built);
    expect(r.status).toBe(1);
    expect(r.out).toContain('dist/licenses.txt is stale');
    expect(r.out).not.toContain('dist/cli/licenses.txt is');
  });

  test('fails, naming no licence, when only the code is out of date', () => {
    const built = { writes: { ...UP_TO_DATE.writes, 'dist/cli/index.js': 'cli(2);\n' } };
    const r = check(UP_TO_DATE.writes, built);
    expect(r.status).toBe(1);
    expect(r.out).toContain('dist/ is out of date');
    expect(r.out).not.toContain('licenses.txt is');
  });
});
