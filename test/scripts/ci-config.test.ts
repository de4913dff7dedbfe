import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

/**
 * What the e2e matrix and Dependabot promise, checked here because GitHub would only show a mistake after a push: each
 * kind node image is the version its job is named for, pinned by digest, and the matrix spans the newest release,
 * older ones and one before 1.33; Dependabot covers npm and the workflows' actions, grouped.
 */
interface MatrixEntry {
  kubernetes: string;
  kind: string;
  image: string;
}

const e2e = parse(readFileSync('.github/workflows/e2e.yml', 'utf8')) as {
  jobs: { kind: { strategy: { 'fail-fast': boolean; matrix: { include: MatrixEntry[] } } } };
};
const matrix = e2e.jobs.kind.strategy.matrix.include;

/** [major, minor, patch] of a "1.33.12" version. */
const parts = (version: string) => version.split('.').map(Number);

describe('e2e matrix', () => {
  test.each(matrix.map((m) => [m.kubernetes, m] as const))(
    'Kubernetes %s runs its own kind node image, pinned by digest, with a kind release',
    (_, m) => {
      expect(m.kubernetes).toMatch(/^\d+\.\d+\.\d+$/);
      expect(m.image).toMatch(
        new RegExp(`^kindest/node:v${m.kubernetes.replace(/\./g, '\\.')}@sha256:[0-9a-f]{64}$`),
      );
      expect(m.kind).toMatch(/^v0\.\d+\.\d+$/);
    },
  );

  test('spans at least three minor versions, one of them before 1.33, and each job runs to the end', () => {
    const minors = matrix.map((m) => parts(m.kubernetes)[1] ?? 0);
    expect(new Set(minors).size).toBe(matrix.length);
    expect(matrix.length).toBeGreaterThanOrEqual(3);
    expect(Math.min(...minors)).toBeLessThan(33);
    expect(Math.max(...minors)).toBeGreaterThanOrEqual(33);
    expect(e2e.jobs.kind.strategy['fail-fast']).toBe(false);
  });
});

describe('dependabot.yml', () => {
  const config = parse(readFileSync('.github/dependabot.yml', 'utf8')) as {
    version: number;
    updates: { 'package-ecosystem': string; directory: string; groups?: Record<string, unknown> }[];
  };

  test('updates npm dependencies and the actions, each in groups', () => {
    expect(config.version).toBe(2);
    const ecosystems = config.updates.map((u) => u['package-ecosystem']).sort();
    expect(ecosystems).toEqual(['github-actions', 'npm']);
    for (const u of config.updates) {
      expect(u.directory).toBe('/');
      expect(Object.keys(u.groups ?? {}).length).toBeGreaterThan(0);
    }
  });
});
