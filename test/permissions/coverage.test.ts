/**
 * Every request a run sends is granted by the roles its mode binds, and every verb on every resource of every role is
 * used by some run: the engine runs each mode against the fake API server (test/permissions/coverage-runs.ts), and
 * each request of its log is put to RBAC as the API server would (test/permissions/rbac-eval.ts). What no role grants
 * on purpose is listed, with why; a rule on a type the fake does not serve cannot be used here, and is said so.
 */
import { KubeConfig } from '@kubernetes/client-node';
import { readCustomTypes } from '../../src/entry/cli-rbac.js';
import { createKube } from '../../src/kube/client.js';
import { ROLES } from '../../src/permissions/roles.js';
import type { CustomType } from '../../src/permissions/custom-types.js';
import type { FakeCluster, RequestRecord } from '../fake-apiserver/index.js';
import { runEngine } from '../helpers/harness.js';
import { RUNS, type Run } from './coverage-runs.js';
import { attributesOf, granting, rulesOf, type Attributes } from './rbac-eval.js';

/** Refused on purpose: Secrets (a `list` reads their data) and the types of aggregated APIs (not CRDs). */
const NOT_GRANTED: RegExp[] = [/^list secrets\.$/, /^list \w+\.metrics\.k8s\.io$/];

const gr = (resource: string, group: string): string => `${resource}.${group}`;
const said = (a: Attributes): string =>
  `${a.verb} ${gr(a.subresource ? `${a.resource}/${a.subresource}` : a.resource, a.group)}`;

/** Delete the run's `terminating` namespaces as another user would; the run's log starts after. */
async function prepare(
  run: Run,
): Promise<{ cluster: FakeCluster; kubeconfig: string; from: number; served: string[] }> {
  const cluster = run.cluster();
  const { kubeconfig } = await cluster.start();
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  try {
    for (const ns of run.terminating ?? []) await kube.deleteNamespace(ns);
    const served = (await kube.discover()).resources.map((r) => gr(r.resource, r.group));
    return { cluster, kubeconfig, from: cluster.requests.length, served };
  } finally {
    await kube.close();
  }
}

/** The custom types the fake serves, read as `namespace-teardown rbac` reads them. */
async function typesOf(kubeconfig: string): Promise<CustomType[]> {
  const kc = new KubeConfig();
  kc.loadFromString(kubeconfig);
  const kube = createKube(kc);
  try {
    return (await readCustomTypes(kube)).types;
  } finally {
    await kube.close();
  }
}

/**
 * The grants no run here can use, as the fake serves none of their types: the scan lists every namespaced type a
 * server serves (Kubernetes 1.20 serves all of these but csistoragecapacities, 1.21+, and resource.k8s.io, 1.32+;
 * test/real/rbac-matrix.test.ts runs its scans there), core events only when the namespace controller names them, and
 * the GitOps types the fake does not install (HelmRelease, ApplicationSet).
 */
const NOT_SERVED_HERE = [
  ...['events.', 'limitranges.', 'podtemplates.', 'replicationcontrollers.', 'resourcequotas.'],
  ...['controllerrevisions.apps', 'replicasets.apps', 'cronjobs.batch', 'jobs.batch'],
  ...['horizontalpodautoscalers.autoscaling', 'poddisruptionbudgets.policy', 'events.events.k8s.io'],
  ...[
    'ingresses.networking.k8s.io',
    'networkpolicies.networking.k8s.io',
    'csistoragecapacities.storage.k8s.io',
  ],
  ...['resourceclaims.resource.k8s.io', 'resourceclaimtemplates.resource.k8s.io'],
  ...['applicationsets.argoproj.io', 'helmreleases.helm.toolkit.fluxcd.io'],
].sort();

/** `role #n verb resource.group` for each grant a run used; `role #custom verb` for the cluster's custom types. */
const used = new Set<string>();
/** Every type the fake served in some run. */
const served = new Set<string>();

/** The requests of one run that its mode's roles refuse, beyond what no role grants on purpose. */
function refusedOf(run: Run, log: readonly RequestRecord[], types: readonly CustomType[]): string[] {
  const rules = rulesOf(run.mode, types);
  const refused = new Set<string>();
  for (const r of log) {
    const a = attributesOf(r.method, r.path, r.query);
    if (!a) continue;
    const by = granting(rules, a);
    for (const b of by) used.add(b.key.endsWith('#custom') ? `${b.key} ${a.verb}` : `${b.key} ${said(a)}`);
    const what = said(a);
    if (by.length > 0 || NOT_GRANTED.some((re) => re.test(what))) continue;
    // Alone, the delete role reads and deletes namespaces only: the diagnosis's reads are refused, and reported.
    if (run.mode === 'delete' && /^(get|list|watch) /.test(what) && !/ namespaces\.$/.test(what)) continue;
    refused.add(`${what}${a.namespace ? ` in ${a.namespace}` : ''}`);
  }
  return [...refused];
}

describe('each mode’s runs on the fake API server', () => {
  describe.each(RUNS)('$mode: $name', (run) => {
    test('every request is granted by the roles the mode binds', async () => {
      const { cluster, kubeconfig, from, served: types } = await prepare(run);
      try {
        types.forEach((t) => served.add(t));
        await runEngine(kubeconfig, run.inputs, run.settle ? { settle: { cluster, names: run.settle } } : {});
        expect(refusedOf(run, cluster.requests.slice(from), await typesOf(kubeconfig))).toEqual([]);
      } finally {
        await cluster.stop();
      }
    }, 60_000);
  });

  // Declared after the runs, so it runs after them.
  test('every verb on every resource of every role is used by some run, but on types the fake does not serve', () => {
    const unused: string[] = [];
    const unserved = new Set<string>();
    for (const role of ROLES) {
      role.rules.forEach((rule, n) => {
        for (const g of rule.apiGroups)
          for (const res of rule.resources)
            for (const verb of rule.verbs) {
              const type = gr(res, g);
              if (used.has(`${role.name} #${n} ${verb} ${type}`)) continue;
              if (!served.has(type.replace(/\/\w+\./, '.'))) {
                unserved.add(type);
                continue;
              }
              unused.push(`${role.name}: ${verb} ${type}`);
            }
      });
      for (const verb of role.customResources?.verbs ?? [])
        if (!used.has(`${role.name} #custom ${verb}`)) unused.push(`${role.name}: ${verb} custom types`);
    }
    expect(unused).toEqual([]);
    expect([...unserved].sort()).toEqual(NOT_SERVED_HERE);
  });
});
