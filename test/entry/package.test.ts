/**
 * The command line as a user installs it: `npm pack`, then the tarball installed into an empty folder and its `bin`
 * run as a program (the shebang), under Node 24 and, where the machine has one, an older Node. Needs `npm run build`.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { tempDir } from '../helpers/temp.js';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

function run(file: string, args: string[], opts: { cwd?: string; path?: string } = {}): Promise<Ran> {
  return new Promise((resolve) =>
    execFile(
      file,
      args,
      { cwd: opts.cwd, env: { ...process.env, PATH: opts.path ?? process.env.PATH }, maxBuffer: 8 << 20 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const OLD_NODE = ['/usr/bin/node', '/bin/node'].find((p) => existsSync(p));

describe('the packed command line', () => {
  let bin: string;
  let installed: string;
  beforeAll(async () => {
    const packs = tempDir('nt-pack-');
    const packed = await run('npm', ['pack', '--pack-destination', packs, '--silent']);
    expect(packed.code).toBe(0);
    const tarball = join(
      packs,
      readdirSync(packs).find((f) => f.endsWith('.tgz'))!,
    );
    const empty = tempDir('nt-install-');
    // Nothing to fetch: the bundle carries its dependencies, so the install works offline.
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], {
      cwd: empty,
    });
    expect(install.stderr).not.toMatch(/ERR!/);
    expect(install.code).toBe(0);
    bin = join(empty, 'node_modules', '.bin', 'namespace-teardown');
    installed = join(empty, 'node_modules', 'namespace-teardown');
  }, 120_000);

  test('holds the bundle and no source, and declares no dependency to fetch', () => {
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(manifest.dependencies).toBeUndefined();
    expect(readdirSync(installed).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist',
      'package.json',
    ]);
    expect(readdirSync(join(installed, 'dist'))).toEqual(['cli']);
  });

  test('its bin runs as a program under Node 24: --help lists the flags', async () => {
    // The shebang finds `node` on PATH: Node 24 first, as `npm test` has it.
    const path = [dirname(process.execPath), process.env.PATH].join(delimiter);
    const help = await run(bin, ['--help'], { path });
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('  -o, --output FORMAT');
    expect(help.stdout).toContain('      --force-delete-pods MODE');
  });

  test('--version prints the version of the installed package', async () => {
    const path = [dirname(process.execPath), process.env.PATH].join(delimiter);
    const version = JSON.parse(readFileSync('package.json', 'utf8')).version as string;
    const said = await run(bin, ['--version'], { path });
    expect(said).toEqual(
      expect.objectContaining({ code: 0, stderr: '', stdout: `namespace-teardown ${version}\n` }),
    );
  });

  (OLD_NODE ? test : test.skip)(
    'under an older Node: exit 2 and the npx command that runs it with Node 24',
    async () => {
      const path = [dirname(OLD_NODE!), process.env.PATH].join(delimiter);
      const old = await run(OLD_NODE!, [bin, '--selector', 'team in (web)'], { path });
      expect(old.code).toBe(2);
      expect(old.stderr).toMatch(/^namespace-teardown needs Node\.js 24 or newer; this is Node\.js v\d+\./);
      expect(old.stderr).toContain(`\n  npx -y node@24 ${bin} --selector 'team in (web)'\n`);
    },
  );
});
