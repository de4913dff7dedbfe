/**
 * The shipped roles as data and as deploy/rbac.yaml: the file is what src/permissions/ generates, and every role keeps
 * the promises a security review reads — no Secrets, no wildcard, writes only where a mode needs them.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { BINDINGS, CHECKS } from '../../src/permissions/matrix.js';
import { renderRole } from '../../src/permissions/render.js';
import { ROLES } from '../../src/permissions/roles.js';
import { MODES, type Rule } from '../../src/permissions/rule.js';
import { rbacYaml } from '../../scripts/rbac-yaml.js';

const READS = new Set(['get', 'list', 'watch']);
const shipped = (): Record<string, unknown>[] =>
  parseAllDocuments(readFileSync('deploy/rbac.yaml', 'utf8')).map((d) => d.toJS() as Record<string, unknown>);

/** Every (group, resource, verb) a rule grants. */
const grants = (rules: readonly Rule[]): string[] =>
  rules.flatMap((r) =>
    r.apiGroups.flatMap((g) => r.resources.flatMap((res) => r.verbs.map((v) => `${v} ${res}.${g}`))),
  );

describe('deploy/rbac.yaml', () => {
  test('is what `npm run docs` generates from src/permissions/', () => {
    expect(readFileSync('deploy/rbac.yaml', 'utf8')).toBe(rbacYaml());
  });

  test('holds each role as rendered, and binds the default workflow’s three to ci/namespace-teardown', () => {
    const docs = shipped();
    for (const role of ROLES) {
      const doc = docs.find(
        (d) => d.kind === 'ClusterRole' && (d.metadata as { name: string }).name === role.name,
      );
      expect(doc).toEqual(parseAllDocuments(renderRole(role))[0]!.toJS());
      expect(doc!.rules).toEqual(
        role.rules.map(({ apiGroups, resources, verbs }) => ({ apiGroups, resources, verbs })),
      );
    }
    const bound = docs
      .filter((d) => d.kind === 'ClusterRoleBinding')
      .map((d) => (d.roleRef as { name: string }).name);
    expect(bound).toEqual(BINDINGS.find((b) => b.mode === 'custom-resources')!.roles);
  });
});

describe('the roles keep their promises', () => {
  const all = ROLES.flatMap((r) => grants(r.rules).map((g) => `${r.name}: ${g}`));

  test('no wildcard, no Secret, no create, no escalation anywhere', () => {
    expect(
      all.filter((g) => /\*|secrets|: (create|escalate|bind|impersonate|deletecollection) /.test(g)),
    ).toEqual([]);
  });

  test('every rule says which step uses it', () => {
    for (const r of ROLES.flatMap((x) => x.rules)) expect(r.why).toMatch(/^[A-Z`].{10,}\.$/);
  });

  test('cluster-scoped writes: DELETE of a namespace (delete); its finalizers and /finalize (force); nothing else', () => {
    const writes = all.filter((g) => !READS.has(g.split(' ')[1]!));
    const clusterScoped = writes.filter((g) => / (namespaces|namespaces\/finalize)\.$/.test(g));
    expect(clusterScoped).toEqual([
      'namespace-teardown: delete namespaces.',
      'namespace-teardown-force: patch namespaces.',
      'namespace-teardown-force: update namespaces/finalize.',
    ]);
    // The other writes are on namespaced types only.
    expect(writes.filter((g) => !clusterScoped.includes(g))).toEqual([
      'namespace-teardown-force: patch persistentvolumeclaims.',
      'namespace-teardown-force: patch resourceclaims.resource.k8s.io',
      'namespace-teardown-force: delete pods.',
      'namespace-teardown-gitops-owners: delete kustomizations.kustomize.toolkit.fluxcd.io',
      'namespace-teardown-gitops-owners: patch kustomizations.kustomize.toolkit.fluxcd.io',
      'namespace-teardown-gitops-owners: delete helmreleases.helm.toolkit.fluxcd.io',
      'namespace-teardown-gitops-owners: patch helmreleases.helm.toolkit.fluxcd.io',
      'namespace-teardown-gitops-owners: delete applications.argoproj.io',
      'namespace-teardown-gitops-owners: patch applications.argoproj.io',
    ]);
  });

  test('the GitOps owners role is bound where the owners live, never cluster-wide', () => {
    expect(ROLES.filter((r) => r.boundIn).map((r) => r.mode)).toEqual(['gitops-owners']);
  });

  test('one role per mode, and every mode of the matrix binds roles that exist', () => {
    expect(ROLES.map((r) => r.mode)).toEqual([...MODES]);
    const names = new Set(ROLES.map((r) => r.name));
    for (const b of BINDINGS) for (const r of b.roles) expect(names).toContain(r);
    expect(BINDINGS.map((b) => b.mode)).toEqual([...MODES]);
  });

  test('the matrix denies every mode what no mode needs, and grants `patch namespaces` to force alone', () => {
    const denied = (verb: string, resource: string): boolean =>
      CHECKS.some((c) => c.verb === verb && c.resource === resource && c.allowed.length === 0);
    for (const [verb, resource] of [
      ['list', 'secrets'],
      ['get', 'secrets'],
      ['delete', 'customresourcedefinitions'],
      ['delete', 'nodes'],
      ['delete', 'clusterrolebindings'],
      ['patch', 'clusterroles'],
      ['patch', 'deployments'],
    ] as const)
      expect(denied(verb, resource)).toBe(true);
    const ns = CHECKS.find((c) => c.verb === 'patch' && c.resource === 'namespaces')!;
    expect(ns.allowed).toEqual(['force']);
  });
});
