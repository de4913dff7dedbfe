/**
 * The layout the README promises, checked on the tree itself: a folder of src/ imports only the folders below it in
 * the README's layout table, no two files import each other (directly or through a chain; bench/, scripts/ and test/
 * included), only src/kube/ loads client-node, and the fake API server, src/diagnosis/, src/force/ and src/prevention/
 * are used from outside only through their face (index.ts; prevent.ts for src/prevention/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FAKE = 'test/fake-apiserver/';
// Stages the rest of src/ reaches only through one file, their face; their own tests (test/diagnosis/, test/force/,
// test/prevention/) may reach inside.
const FACED: [folder: string, face: string][] = [
  ['src/diagnosis/', 'index.ts'],
  ['src/force/', 'index.ts'],
  ['src/prevention/', 'prevent.ts'],
];

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'fixtures' ? [] : files(path);
    return /\.(ts|mts)$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const SOURCES = ['src', 'bench', 'scripts', 'test'].flatMap(files);
const KNOWN = new Set(SOURCES);

/** Every static or dynamic import of a file: the specifier, resolved to a repository path when it is relative. */
function importsOf(file: string): { spec: string; path?: string }[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\s[^;]*?\sfrom\s*'([^']+)'/gms),
    ...text.matchAll(/^\s*import\s*'([^']+)'/gm),
    ...text.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g),
  ].map((m) => m[1]!);
  return specs.map((spec) => {
    if (!spec.startsWith('.')) return { spec };
    const base = relative(ROOT, resolve(ROOT, dirname(file), spec));
    const path = [base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts'), base].find((p) =>
      KNOWN.has(p),
    );
    return { spec, path };
  });
}

const GRAPH = new Map(SOURCES.map((f) => [f, importsOf(f)]));

/** The folders of src/ from the top of the README's layout table to the bottom. */
function layers(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const layout = readme.slice(readme.indexOf('### Layout'));
  return [...layout.matchAll(/^\| `src\/([a-z-]+)\/`/gm)].map((m) => m[1]!);
}

const folderOf = (file: string): string | undefined => /^src\/([^/]+)\//.exec(file)?.[1];

/** Groups of files that import each other (Tarjan's strongly connected components of more than one file). */
function cycles(): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  const visit = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    for (const { path: w } of GRAPH.get(v) ?? []) {
      if (w === undefined) continue;
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      group.push(w);
    } while (w !== v);
    if (group.length > 1) out.push(group.sort());
  };
  for (const f of SOURCES) if (!order.has(f)) visit(f);
  return out;
}

describe('the layout the README describes', () => {
  const table = layers();

  test('the layout table names every folder of src/, each once', () => {
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect([...table].sort()).toEqual(folders.sort());
    expect(table.length).toBeGreaterThan(5);
  });

  test('no file of src/ imports a folder above its own in the table', () => {
    const upward: string[] = [];
    for (const [file, imports] of GRAPH) {
      const from = folderOf(file);
      if (from === undefined) continue;
      for (const { path } of imports) {
        const to = path === undefined ? undefined : folderOf(path);
        if (to !== undefined && to !== from && table.indexOf(to) < table.indexOf(from))
          upward.push(`${file} → ${path}`);
      }
    }
    expect(upward).toEqual([]);
  });

  test('no two files import each other, directly or through others (src, bench, scripts, test)', () => {
    expect(cycles()).toEqual([]);
  });

  test('every relative import names a file that exists', () => {
    const broken = [...GRAPH].flatMap(([file, imports]) =>
      imports.filter((i) => i.spec.startsWith('.') && i.path === undefined).map((i) => `${file}: ${i.spec}`),
    );
    // Imports of JSON and of files outside these folders (package.json, dist/) are not followed.
    expect(broken.filter((b) => !/\.json'?$|\/dist\//.test(b))).toEqual([]);
  });

  test('only src/kube/ loads @kubernetes/client-node; only src/github/ and src/entry/ load @actions/github', () => {
    const offenders = [...GRAPH]
      .filter(([file]) => file.startsWith('src/'))
      .flatMap(([file, imports]) =>
        imports
          .filter(
            (i) =>
              (i.spec.startsWith('@kubernetes/client-node') && !file.startsWith('src/kube/')) ||
              (i.spec.startsWith('@actions/github') && !/^src\/(github|entry)\//.test(file)),
          )
          .map((i) => `${file}: ${i.spec}`),
      );
    expect(offenders).toEqual([]);
  });

  test('the fake API server is used from outside only through its index', () => {
    const inside = [...GRAPH]
      .filter(([file]) => !file.startsWith(FAKE))
      .flatMap(([file, imports]) =>
        imports
          .filter((i) => i.path?.startsWith(FAKE) && i.path !== `${FAKE}index.ts`)
          .map((i) => `${file} → ${i.path}`),
      );
    expect(inside).toEqual([]);
  });

  test.each(FACED)('the rest of src/ uses %s only through %s', (folder, face) => {
    const inside = [...GRAPH]
      .filter(([file]) => file.startsWith('src/') && !file.startsWith(folder))
      .flatMap(([file, imports]) =>
        imports
          .filter((i) => i.path?.startsWith(folder) && i.path !== `${folder}${face}`)
          .map((i) => `${file} → ${i.path}`),
      );
    expect(inside).toEqual([]);
  });

  test('no two files of src/ share a name, but for the exceptions the README gives', () => {
    const byName = new Map<string, string[]>();
    for (const file of SOURCES.filter((f) => f.startsWith('src/')))
      byName.set(basename(file), [...(byName.get(basename(file)) ?? []), file]);
    const pairs = (name: string): string[] => [
      `src/model/${name},src/report/${name}`, // the report file renders the model file of its name
      ...(['client.ts', 'port.ts'].includes(name) ? [`src/github/${name},src/kube/${name}`] : []), // the adapters
    ];
    const allowed = (name: string, paths: string[]): boolean =>
      name === 'index.ts' || pairs(name).includes([...paths].sort().join());
    const shared = [...byName].filter(([name, paths]) => paths.length > 1 && !allowed(name, paths));
    expect(shared.map(([name, paths]) => `${name}: ${paths.join(', ')}`)).toEqual([]);
  });
});
