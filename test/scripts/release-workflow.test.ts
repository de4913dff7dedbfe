import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/**
 * The shell steps of .github/workflows/release.yml, run here as the runner would (bash -e, the step's env with its
 * expressions filled in) against local git repositories standing in for GitHub, and a `gh` that records its
 * arguments. What only GitHub can run (the release API, provenance, the token's rights) is left to GitHub.
 */
interface Step {
  name?: string;
  run?: string;
  env?: Record<string, string>;
}

const workflow = parse(readFileSync('.github/workflows/release.yml', 'utf8')) as {
  jobs: Record<string, { steps: Step[] }>;
};

function step(job: string, name: string): Step & { run: string } {
  const found = workflow.jobs[job]?.steps.find((s) => s.name === name);
  if (!found?.run) throw new Error(`release.yml has no run step "${name}" in job ${job}`);
  return found as Step & { run: string };
}

/** The step's env with each `${{ expression }}` replaced from `context`; an expression it lacks is an error. */
function stepEnv(s: Step, context: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(s.env ?? {})) {
    env[key] = value.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expr: string) => {
      if (!(expr in context)) throw new Error(`no value for \${{ ${expr} }} in the test`);
      return context[expr] ?? '';
    });
  }
  return env;
}

let root = '';
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'release-workflow-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GIT_ENV = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@example.com',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@example.com',
};

function sh(
  cwd: string,
  script: string,
  env: Record<string, string> = {},
): { status: number | null; out: string } {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('GIT_')));
  const r = spawnSync('bash', ['--noprofile', '--norc', '-e', '-c', script], {
    cwd,
    env: { ...clean, ...GIT_ENV, ...env },
    encoding: 'utf8',
  });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

function git(cwd: string, args: string): string {
  const r = sh(cwd, `git ${args}`);
  if (r.status !== 0) throw new Error(`git ${args}: ${r.out}`);
  return r.out.trim();
}

/** An "origin" with v1.0.0 and v1 on the first commit of main, a second commit on main, and one on a side branch. */
function origin(name: string): { dir: string; first: string; second: string; side: string } {
  const dir = join(root, name);
  const work = `${dir}-work`;
  mkdirSync(work, { recursive: true });
  git(root, `init -q --bare -b main ${dir}`);
  git(work, 'init -q -b main');
  git(work, `remote add origin ${dir}`);
  git(work, 'commit -q --allow-empty -m first');
  const first = git(work, 'rev-parse HEAD');
  git(work, 'tag v1.0.0 && git tag v1');
  git(work, 'commit -q --allow-empty -m second');
  const second = git(work, 'rev-parse HEAD');
  git(work, 'checkout -q -b side && git commit -q --allow-empty -m side');
  const side = git(work, 'rev-parse HEAD');
  git(work, 'push -q origin main side --tags');
  return { dir, first, second, side };
}

/** A checkout of `ref` from `from`, with every branch and tag, as actions/checkout makes with fetch-depth: 0. */
function checkout(from: string, ref: string, name: string): string {
  const dir = join(root, name);
  git(root, `clone -q ${from} ${dir}`);
  git(dir, `checkout -q ${ref}`);
  return dir;
}

describe('release.yml: the tagged commit must be on main', () => {
  const check = step('verify', 'The tagged commit is on main');

  test('passes for a commit on main and fails for one only on another branch', () => {
    const o = origin('on-main');
    expect(sh(checkout(o.dir, o.second, 'on-main-ok'), check.run).status).toBe(0);
    expect(sh(checkout(o.dir, o.side, 'on-main-side'), check.run).status).not.toBe(0);
  });
});

describe('release.yml: moving the major tag', () => {
  const move = step('publish', 'Move the major tag to this release');

  test("points the remote's v1 at the released commit and says so in the step summary", () => {
    const o = origin('move');
    git(o.dir, `tag v1.1.0 ${o.second}`);
    const dir = checkout(o.dir, 'v1.1.0', 'move-checkout');
    const summary = join(root, 'move-summary.md');
    const env = stepEnv(move, { 'needs.verify.outputs.major-tag': 'v1' });
    const r = sh(dir, move.run, { ...env, GITHUB_REF_NAME: 'v1.1.0', GITHUB_STEP_SUMMARY: summary });
    expect(r.status).toBe(0);
    expect(git(o.dir, 'rev-parse v1')).toBe(o.second);
    expect(git(o.dir, 'rev-parse v1.0.0')).toBe(o.first);
    expect(readFileSync(summary, 'utf8')).toBe(`v1 now points at ${o.second} (v1.1.0).\n`);
  });

  test('runs only when the release plan names a major tag', () => {
    expect((move as { if?: string }).if).toBe("needs.verify.outputs.major-tag != ''");
  });
});

describe('release.yml: creating the GitHub Release', () => {
  const create = step('publish', 'Create the GitHub Release with the CHANGELOG.md section');
  const bin = () => {
    const dir = join(root, 'bin');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'gh'), '#!/usr/bin/env bash\nprintf \'%s\\0\' "$@" > "$GH_ARGS"\n');
    chmodSync(join(dir, 'gh'), 0o755);
    return dir;
  };

  function release(notes: string, prerelease: string): string[] {
    const args = join(root, `gh-args-${prerelease}`);
    const env = stepEnv(create, {
      'github.token': 'token',
      'github.ref_name': 'v1.1.0',
      'needs.verify.outputs.notes': notes,
      'needs.verify.outputs.prerelease': prerelease,
    });
    const r = sh(root, create.run, { ...env, GH_ARGS: args, PATH: `${bin()}:${process.env.PATH ?? ''}` });
    expect(r.status).toBe(0);
    return readFileSync(args, 'utf8').split('\0').slice(0, -1);
  }

  test('passes the notes as one argument, verbatim, however they are written', () => {
    const notes = '### Fixed\n\n- `$(touch pwned)` and "quotes"; --draft\n- ${HOME} `id`';
    expect(release(notes, 'false')).toEqual([
      'release',
      'create',
      'v1.1.0',
      '--verify-tag',
      '--title',
      'v1.1.0',
      '--notes',
      notes,
    ]);
    expect(existsSync(join(root, 'pwned'))).toBe(false);
  });

  test('marks a prerelease as one', () => {
    expect(release('- Candidate.', 'true')).toContain('--prerelease');
  });

  test('no run step interpolates an expression into the script itself', () => {
    for (const job of Object.values(workflow.jobs)) {
      for (const s of job.steps) expect(s.run ?? '').not.toContain('${{');
    }
  });
});
