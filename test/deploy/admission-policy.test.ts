/**
 * deploy/admission-policy.yaml as shipped, enforced by the fake API server (its CEL evaluated by a CEL library; see
 * test/fake-apiserver/policies.ts for what the fake does not model): the teardown identity may write only inside
 * namespaces carrying the preview label.
 */
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import {
  FakeCluster,
  GVR,
  addKialiCR,
  addKialiCRD,
  raw,
  type AdmissionPolicy,
} from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';

/** The policy as shipped; `withOwners`: with the GitOps owners' exception its comment shows, uncommented. */
function shipped(withOwners = false): AdmissionPolicy {
  let text = readFileSync('deploy/admission-policy.yaml', 'utf8');
  if (withOwners)
    text = text.replace(
      /^ {4}# (- name: not-a-gitops-owner-where-it-lives\n(?: {4}# .*\n)+)/m,
      (_, b: string) => `    ${b.replace(/\n {4}# /g, '\n    ')}`,
    );
  const docs = parseAllDocuments(text).map((d) => d.toJS());
  return {
    policy: docs.find((d) => d.kind === 'ValidatingAdmissionPolicy'),
    binding: docs.find((d) => d.kind === 'ValidatingAdmissionPolicyBinding'),
  };
}

const REFUSED =
  'namespace-teardown may change objects only in preview namespaces (labelled preview.example.com/pr)';

describe('the shipped admission policy on the fake API server', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  function setUp(): FakeCluster {
    cluster = new FakeCluster({ controller: FAST });
    addKialiCRD(cluster);
    cluster.addNamespace('preview-1', { labels: { 'preview.example.com/pr': '1' } });
    addKialiCR(cluster, 'preview-1');
    cluster.addNamespace('team-a', { labels: { team: 'a' } });
    addKialiCR(cluster, 'team-a');
    cluster.addAdmissionPolicy(shipped());
    return cluster;
  }

  test('inside a preview namespace every write goes through: its custom resource forced, the namespace gone', async () => {
    const { kubeconfig } = await setUp().start();
    // Forced once Terminating for 1 s, the run ends when the namespace is gone: the timeout is only a bound, wide
    // enough that a loaded machine never turns forced into stuck. (With force-after 0s the forcing waited for the
    // timeout: the check at 0 s came before the run had seen the namespace Terminating.)
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'preview-1',
      timeout: '60s',
      force: 'on',
      'force-after': '1s',
      'force-finalizers': 'kiali.io/finalizer',
    });
    expect(report.targets[0]).toMatchObject({ name: 'preview-1', outcome: 'forced' });
    expect(cluster.namespace('preview-1')).toBeUndefined();
  }, 120_000);

  test('outside one, the DELETE of the namespace is refused with the policy named; nothing there changes', async () => {
    const { kubeconfig } = await setUp().start();
    const { report } = await runEngine(kubeconfig, {
      namespaces: 'team-a',
      timeout: '20s',
      'teardown-order': 'namespace',
    });
    expect(report.targets[0]!.outcome).toBe('error');
    expect(report.targets[0]!.note).toContain(
      `ValidatingAdmissionPolicy 'namespace-teardown-previews-only' with binding 'namespace-teardown-previews-only' denied request: ${REFUSED}: namespace team-a is not one`,
    );
    expect(cluster.namespace('team-a')!.metadata.deletionTimestamp).toBeUndefined();
    expect(cluster.get(GVR.kialis, 'team-a', 'kiali')!.metadata.finalizers).toEqual(['kiali.io/finalizer']);
  });

  test("the identity's direct writes elsewhere: a patch in kube-system, a cluster-scoped object, /finalize", async () => {
    const started = await setUp().start();
    const patch = { metadata: { labels: { touched: 'yes' } } };
    const merge = { headers: { 'Content-Type': 'application/merge-patch+json' } };
    const cases = [
      ['PATCH', '/api/v1/namespaces/kube-system', patch, 'namespace kube-system is not one'],
      [
        'PATCH',
        '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/kialis.kiali.io',
        patch,
        'this object is cluster-scoped',
      ],
      [
        'DELETE',
        '/apis/kiali.io/v1alpha1/namespaces/team-a/kialis/kiali',
        undefined,
        'namespace team-a is not one',
      ],
    ] as const;
    for (const [method, path, body, why] of cases) {
      const answer = await raw(started, method, path, { body, ...(body ? merge : {}) });
      expect([path, answer.status]).toEqual([path, 403]);
      expect(JSON.stringify(answer.json)).toContain(`${REFUSED}: ${why}`);
    }
    const put = await raw(started, 'PUT', '/api/v1/namespaces/team-a/finalize', {
      body: { metadata: { name: 'team-a' }, spec: { finalizers: [] } },
    });
    expect(put.status).toBe(403);
    // The same write inside a preview namespace goes through.
    const inside = await raw(started, 'PATCH', '/api/v1/namespaces/preview-1', { body: patch, ...merge });
    expect(inside.status).toBe(200);
  });

  test('GitOps owners where they live: refused as shipped; with the exception its comment shows, left to RBAC', async () => {
    const patch = { spec: { suspend: true } };
    const merge = { headers: { 'Content-Type': 'application/merge-patch+json' } };
    const flux = { group: 'kustomize.toolkit.fluxcd.io', version: 'v1', resource: 'kustomizations' };
    const path = (ns: string): string => `/apis/${flux.group}/v1/namespaces/${ns}/kustomizations/preview-1`;
    const answers: number[] = [];
    for (const withOwners of [false, true]) {
      cluster = new FakeCluster({ controller: FAST });
      cluster.addCRD({ group: flux.group, version: 'v1', kind: 'Kustomization', plural: 'kustomizations' });
      for (const ns of ['flux-system', 'team-a']) {
        cluster.addNamespace(ns);
        cluster.addObject(flux, { namespace: ns, name: 'preview-1', spec: { interval: '1m' } });
      }
      cluster.addAdmissionPolicy(shipped(withOwners));
      const started = await cluster.start();
      for (const ns of ['flux-system', 'team-a'])
        answers.push((await raw(started, 'PATCH', path(ns), { body: patch, ...merge })).status);
      await cluster.stop();
    }
    // As shipped both are refused; with the exception, only the owner in flux-system goes through.
    expect(answers).toEqual([403, 403, 200, 403]);
  });
});
