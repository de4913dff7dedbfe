/**
 * `namespace-teardown rbac` from the bundle, against the fake API server: the roles of deploy/rbac.yaml with one rule
 * per API group of the namespaced types the cluster's CRDs serve, read-only; bad input refused before any cluster
 * call. Needs `npm run build`.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { addDeadMetricsApi, addKialiCRD, FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runCli } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';
import { ROLES, roleOf } from '../../src/permissions/roles.js';

interface Rule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}
type Role = { kind: string; metadata: { name: string }; rules: Rule[] };

const roles = (yaml: string): Role[] => parseAllDocuments(yaml).map((d) => d.toJS() as Role);
const statics = (mode: Parameters<typeof roleOf>[0]): Rule[] =>
  roleOf(mode).rules.map(({ apiGroups, resources, verbs }) => ({ apiGroups, resources, verbs }) as Rule);

describe('namespace-teardown rbac', () => {
  let cluster: FakeCluster | undefined;
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  });

  async function kubeconfigOf(c: FakeCluster): Promise<string> {
    const { kubeconfig } = await c.start();
    const file = join(tempDir('rbac-cli-'), 'kubeconfig');
    writeFileSync(file, kubeconfig);
    return file;
  }

  test('prints the roles with a rule per CRD group where a mode needs one, reading only', async () => {
    cluster = new FakeCluster({ controller: FAST });
    addKialiCRD(cluster);
    cluster.addCRD({ group: 'acme.io', version: 'v1', kind: 'Widget', plural: 'widgets' });
    cluster.addCRD({ group: 'acme.io', version: 'v1', kind: 'Realm', plural: 'realms', namespaced: false });
    addDeadMetricsApi(cluster);
    const run = await runCli(['rbac', '--kubeconfig', await kubeconfigOf(cluster)]);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.split('\n')[0]).toBe(
      '# namespace-teardown rbac --mode delete,diagnose,custom-resources,force,gitops-owners: 2 namespaced type(s) in',
    );
    const printed = roles(run.stdout);
    expect(printed.map((r) => r.metadata.name)).toEqual(ROLES.map((r) => r.name));
    const crds = (verbs: string[]): Rule[] => [
      { apiGroups: ['acme.io'], resources: ['widgets'], verbs },
      { apiGroups: ['kiali.io'], resources: ['kialis'], verbs },
    ];
    const byName = (name: string): Rule[] => printed.find((r) => r.metadata.name === name)!.rules;
    expect(byName('namespace-teardown-diagnose')).toEqual([...statics('diagnose'), ...crds(['list'])]);
    expect(byName('namespace-teardown-custom-resources')).toEqual([
      ...statics('custom-resources'),
      ...crds(['delete', 'list', 'watch']),
    ]);
    expect(byName('namespace-teardown-force')).toEqual([...statics('force'), ...crds(['get', 'patch'])]);
    expect(byName('namespace-teardown')).toEqual(statics('delete'));
    // The cluster-scoped realms and the aggregated metrics API are not CRD types in a namespace; the API that
    // discovery could not read is named.
    expect(printed.flatMap((r) => r.rules.flatMap((x) => x.resources))).not.toContain('realms');
    expect(printed.flatMap((r) => r.rules.flatMap((x) => x.apiGroups))).not.toContain('metrics.k8s.io');
    expect(run.stdout.replace(/\n# /g, ' ')).toContain(
      'Discovery failed for metrics.k8s.io/v1beta1: a type of those is not in the rules.',
    );
    expect(run.stdout).toContain('# CRDs kialis.kiali.io.');
    expect(cluster.requests.filter((r) => r.method !== 'GET')).toEqual([]);
  });

  test('the modes it is asked for, in their order; with none that reads the cluster, no cluster call', async () => {
    const run = await runCli(['rbac', '--mode', 'gitops-owners,delete']);
    expect(run.code).toBe(0);
    expect(roles(run.stdout).map((r) => r.metadata.name)).toEqual([
      'namespace-teardown',
      'namespace-teardown-gitops-owners',
    ]);
    expect(run.stdout).toContain('RoleBinding in each namespace where those owners live');
  });

  test('a mode it does not know: exit 2 naming the flag, the value and what is allowed, before any cluster call', async () => {
    cluster = new FakeCluster({ controller: FAST });
    const file = await kubeconfigOf(cluster);
    const run = await runCli(['rbac', '--mode', 'diagnose,forse', '--kubeconfig', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(
      'namespace-teardown: --mode is "diagnose,forse": "forse" is not a mode; allowed: delete, diagnose, custom-resources, force, gitops-owners, separated by commas.\nSee namespace-teardown --help.\n',
    );
    expect(cluster.requests).toEqual([]);
  });

  test('--help says what it prints and how to apply it', async () => {
    const run = await runCli(['rbac', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      'namespace-teardown rbac --mode diagnose,custom-resources,force \\\n    | kubectl apply -f -',
    );
    expect(run.stdout.split('\n').every((l) => l.length <= 80)).toBe(true);
  });

  test('a cluster it cannot reach: exit 1 with the reason, nothing printed on stdout', async () => {
    cluster = new FakeCluster({ controller: FAST });
    const file = await kubeconfigOf(cluster);
    await cluster.stop();
    cluster = undefined;
    const run = await runCli(['rbac', '--mode', 'force', '--kubeconfig', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^namespace-teardown: /);
  });
});
