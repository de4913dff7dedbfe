/**
 * Blockers outside the first catalogue, through the whole engine over real HTTPS against the fake API server: what
 * a person reads (verdict, command, summary size, log, annotations) and what forcing sends.
 */
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planAnnotations } from '../../src/report/annotations.js';
import { renderFixFirst } from '../../src/report/headline.js';
import { renderSummary } from '../../src/report/markdown.js';
import {
  conversionGone,
  leakedAcross,
  manyLeaked,
  ownedByRbac,
  policyDenies,
  type FakeCluster,
} from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

/** The printed commands are pasted into the real kubectl where one is installed (CI installs it). */
const KUBECTL = ['/usr/bin/kubectl', '/usr/local/bin/kubectl'].some((p) => existsSync(p));
if (!KUBECTL)
  console.warn('kubectl not found: the printed commands of test/diagnosis/hard-cases.test.ts are not pasted');

/** Run a pasted script with the real kubectl against the fake (async: the fake serves from this process). */
function paste(kubeconfig: string, script: string): Promise<{ code: number; out: string }> {
  const dir = tempDir('nt-paste-');
  writeFileSync(join(dir, 'config'), kubeconfig);
  return new Promise((resolve) =>
    execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, KUBECONFIG: join(dir, 'config') } },
      (e, stdout, stderr) => resolve({ code: e ? Number(e.code ?? 1) : 0, out: `${stdout}${stderr}` }),
    ),
  );
}

/** Markdown-escaped cluster text back to plain text, to compare with what a person reads. */
const plain = (text: string): string =>
  text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

async function waitGone(cluster: FakeCluster, names: string[], ms = 8000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (names.every((n) => cluster.namespace(n) === undefined)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('a policy engine that is up and refuses on purpose', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('the verdict quotes its policy, rule and message; nothing offered switches it off; /finalize is refused', async () => {
    const s = policyDenies({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      {
        namespaces: s.namespace,
        timeout: '4s',
        force: 'on',
        'force-after': '1s',
        'force-finalize-namespace': 'true',
        'fail-on': 'stuck',
      },
      { settle: { cluster } },
    );
    const t = report.targets[0]!;
    expect(t.outcome).toBe('stuck');
    expect(t.findings[0]).toMatchObject({ id: 'admission-denied' });
    const first = plain(renderFixFirst(report));
    expect(first).toContain(
      'Kyverno policy protect-credentials (rule block-delete) denies deleting ConfigMap/preview-1/db-credentials on purpose',
    );
    expect(first).toContain('ask #platform to release them');
    const everything = JSON.stringify(report);
    expect(everything).not.toMatch(/kubectl delete (validating|mutating)webhookconfiguration/);
    expect(everything).not.toMatch(/failurePolicy: Ignore\)? and reinstall/);
    expect(cluster.requests.some((r) => r.path.endsWith('/finalize'))).toBe(false);
    expect(t.force?.plan.refusals.map((r) => r.reason).join()).toContain(
      'which is up and refuses on purpose',
    );
  });
});

describe('a CRD whose conversion webhook is gone', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('names the CRD, the versions and the missing Service; its command, pasted, lets the namespace go', async () => {
    const s = conversionGone({ controller: FAST, count: 3 });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const { report, log } = await runEngine(
      kubeconfig,
      { namespaces: s.namespace, timeout: '3s', 'fail-on': 'stuck' },
      { settle: { cluster } },
    );
    const t = report.targets[0]!;
    expect(t.outcome).toBe('stuck');
    const v = t.findings[0]!;
    expect(v.id).toBe('conversion-failed');
    expect(v.summary).toBe(
      "gadgets.conv.example.com cannot be listed or deleted: objects stored at v1beta1 must be converted to v1 and its conversion webhook's service conv-system/conv-webhook does not exist; 3 object(s) found by listing at v1beta1, which needs no conversion",
    );
    const fix = v.remedy.commands[0]!;
    expect(fix).toBe('kubectl delete gadgets.v1beta1.conv.example.com --all -n preview-1 --wait=false');
    // What could not be read is said, in the details and the report, and warned about once per run.
    expect(t.unread).toEqual([
      {
        what: 'list gadgets.conv.example.com',
        error: expect.stringContaining('conversion webhook for') as unknown as string,
      },
    ]);
    expect(plain(renderSummary(report))).toMatch(
      /Not read, so unknown to this diagnosis: <code>list gadgets\.conv\.example\.com<\/code> \(500: conversion webhook for/,
    );
    expect(log.filter((l) => l.startsWith('warning: preview-1: could not read list gadgets'))).toHaveLength(
      1,
    );
    if (!KUBECTL) return;
    const pasted = await paste(kubeconfig, fix);
    expect(pasted.out).toContain('deleted');
    expect(await waitGone(cluster, [s.namespace])).toBe(true);
  });

  test('/finalize, when allowed, goes; the report lists what it leaves of that type', async () => {
    const s = conversionGone({ controller: FAST, count: 2, finalizers: ['conv.example.com/cleanup'] });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      {
        namespaces: s.namespace,
        timeout: '6s',
        force: 'on',
        'force-after': '1s',
        'force-finalize-namespace': 'true',
        'fail-on': 'stuck',
      },
      { settle: { cluster } },
    );
    const t = report.targets[0]!;
    expect(t.outcome).toBe('forced');
    const step = t.force!.plan.steps.find((x) => x.kind === 'namespace-finalize');
    expect(step && 'orphans' in step ? step.orphans : []).toEqual(
      expect.arrayContaining([
        'gadgets.conv.example.com/gadget-1 (never marked for deletion; keeps conv.example.com/cleanup)',
        'gadgets.conv.example.com/gadget-2 (never marked for deletion; keeps conv.example.com/cleanup)',
        'gadgets.conv.example.com: 2 object(s) found by listing at v1beta1, which needs no conversion',
      ]),
    );
  });
});

describe('one cause in many namespaces', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('10 namespaces, one leaked finalizer, each object its own name: one block, one loop that fixes all', async () => {
    const s = leakedAcross(10, { controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: s.namespaces.join(','), timeout: '3s' },
      { settle: { cluster } },
    );
    expect(report.targets.every((t) => t.outcome === 'stuck')).toBe(true);
    const first = renderFixFirst(report);
    expect(first.match(/\*\*\d+\./g)).toEqual(['**1.']);
    expect(first).toContain('Same cause in 10 namespaces (10 objects)');
    const summary = renderSummary(report);
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(16 * 1024);
    const script = /```sh\n([\s\S]*?)\n```/.exec(first)![1]!;
    expect(script.startsWith('for ns in preview-1 preview-10 preview-2')).toBe(true);
    if (!KUBECTL) return;
    await paste(kubeconfig, script);
    expect(await waitGone(cluster, s.namespaces)).toBe(true);
  });
});

describe('2,000 objects with one leaked finalizer', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test.each(['off', 'dry-run'] as const)(
    'force %s: counted in the headline, summary ≤ 64 KB, log ≤ 300 lines, annotations in budget',
    async (mode) => {
      const s = manyLeaked(2000, { controller: FAST });
      cluster = s.cluster;
      const { kubeconfig } = await cluster.start();
      const forcing: Record<string, string> =
        mode === 'off' ? {} : { force: mode, 'force-after': '1s', 'force-finalizers': 'example.com/*' };
      const { report, log } = await runEngine(
        kubeconfig,
        { namespaces: s.namespace, timeout: '8s', ...forcing },
        { settle: { cluster } },
      );
      const summary = renderSummary(report);
      expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(64 * 1024);
      expect(log.length).toBeLessThanOrEqual(300);
      const { emit, overflow } = planAnnotations(report);
      expect(emit.length).toBeLessThanOrEqual(10);
      expect(overflow).toBeLessThanOrEqual(2);
      expect(summary.split('\n')[0]).toContain('2,000 objects block them');
      expect(report.targets[0]!.findings[0]!.summary).toContain('2,000 widgets.example.com objects');
    },
    // 2,000 objects scanned three times (before deleting, when stuck, before forcing): CPU, on a busy machine.
    90_000,
  );

  // What forcing costs per object (one guarded PATCH, no read first) needs no 2,000 of them, whose CPU on a busy
  // machine is what the bench measures (section 6, 2,000 PATCHes): the same code path, a fifth of the objects.
  test('force on: one guarded PATCH per object and no read of it first, the summary and log in bounds', async () => {
    const s = manyLeaked(400, { controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    const before = cluster.requests.length;
    const { report, log } = await runEngine(
      kubeconfig,
      {
        namespaces: s.namespace,
        timeout: '8s',
        force: 'on',
        'force-after': '1s',
        'force-finalizers': 'example.com/*',
      },
      { settle: { cluster } },
    );
    expect(Buffer.byteLength(renderSummary(report))).toBeLessThanOrEqual(64 * 1024);
    expect(log.length).toBeLessThanOrEqual(300);
    expect(report.targets[0]!.outcome).toBe('forced');
    const patches = cluster.requests.slice(before).filter((r) => r.method === 'PATCH');
    expect(patches).toHaveLength(400);
    const forcingReads = cluster.requests
      .slice(before)
      .filter((r) => r.method === 'GET' && /\/widgets\/held-/.test(r.path));
    expect(forcingReads).toHaveLength(0);
  }, 90_000);
});

describe('owner by evidence', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('names share nothing: RBAC finds the running controller; the first command looks at it, removal is a marked last resort', async () => {
    const s = ownedByRbac({ controller: FAST });
    cluster = s.cluster;
    const { kubeconfig } = await cluster.start();
    // The controller is seen running, so custom resources first would wait for its objects until its share of
    // the timeout; the held clock of `settle` reaches that only at the end. This is about the diagnosis.
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: s.namespace, timeout: '3s', 'fail-on': 'leaked', 'teardown-order': 'namespace' },
      { settle: { cluster } },
    );
    const v = report.targets[0]!.findings.find((f) => f.id === 'finalizer-owner-gone')!;
    expect(v.leaked).toBe(false);
    expect(v.owner).toMatchObject({ controller: 'Deployment platform/zeta-manager', present: true });
    expect(v.verdict).toBe('waiting');
    expect(v.evidence.map((e) => e.value).join('\n')).toMatch(
      /ClusterRole zeta-role may update gizmos\.widgets\.dev/,
    );
    expect(v.evidence.map((e) => e.value).join('\n')).toMatch(
      /Lease platform\/zeta-leader held by zeta-manager-/,
    );
    expect(v.remedy.commands).toEqual(['kubectl logs -n platform deployment/zeta-manager --tail=100']);
    expect(v.remedy.lastResort?.commands[0]).toContain('kubectl patch gizmos.widgets.dev');
    expect(report.failures.join()).not.toContain('leaked');
    const first = renderFixFirst(report);
    expect(first.indexOf('logs -n platform deployment/zeta-manager')).toBeGreaterThan(0);
    expect(first.indexOf('logs -n platform')).toBeLessThan(first.indexOf('patch gizmos.widgets.dev'));
    expect(first).toContain('Last resort, not the fix');
  });

  test('the same with an identity that may not read roles: the API server answers for it (SubjectAccessReview), waiting', async () => {
    const s = ownedByRbac({ controller: FAST });
    cluster = s.cluster;
    for (const resource of ['clusterroles', 'clusterrolebindings', 'rolebindings', 'roles'])
      cluster.denyRBAC({ verb: 'list', resource, group: 'rbac.authorization.k8s.io' });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: s.namespace, timeout: '3s', 'fail-on': 'leaked', 'teardown-order': 'namespace' },
      { settle: { cluster } },
    );
    const v = report.targets[0]!.findings.find((f) => f.id === 'finalizer-owner-gone')!;
    expect(v).toMatchObject({ verdict: 'waiting', leaked: false });
    expect(v.owner).toMatchObject({ controller: 'Deployment platform/zeta-manager', present: true });
    expect(v.basis?.[0]).toMatch(
      /^the API server allows ServiceAccount platform\/zeta to update gizmos\.widgets\.dev in namespace \S+ \(SubjectAccessReview: RBAC: allowed by ClusterRoleBinding "zeta" of ClusterRole "zeta-role" to ServiceAccount "zeta\/platform"\); RBAC could not be read; ServiceAccount platform\/zeta runs Deployment platform\/zeta-manager$/,
    );
    expect(report.targets[0]!.unread?.map((u) => u.what)).toContain('rbac ClusterRole');
  });

  test('an identity that may neither read roles nor ask the API server: not called leaked, the run says what it could not read', async () => {
    const s = ownedByRbac({ controller: FAST });
    cluster = s.cluster;
    for (const resource of ['clusterroles', 'clusterrolebindings', 'rolebindings', 'roles'])
      cluster.denyRBAC({ verb: 'list', resource, group: 'rbac.authorization.k8s.io' });
    cluster.denyRBAC({ verb: 'create', resource: 'subjectaccessreviews', group: 'authorization.k8s.io' });
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: s.namespace, timeout: '3s', 'fail-on': 'leaked', 'teardown-order': 'namespace' },
      { settle: { cluster } },
    );
    const v = report.targets[0]!.findings.find((f) => f.id === 'finalizer-owner-gone')!;
    expect(v.leaked).toBe(false);
    expect(v.owner).toMatchObject({ present: 'unknown' });
    expect(v.summary).toMatch(
      /unknown: roles could not be read: 403 Forbidden.*, and the API server could not be asked who may update gizmos\.widgets\.dev \(403 Forbidden: subjectaccessreviews\.authorization\.k8s\.io is forbidden/,
    );
    expect(v.remedy.commands.join('\n')).not.toContain('kubectl patch');
    expect(v.remedy.lastResort?.commands[0]).toContain('kubectl patch gizmos.widgets.dev');
    expect(report.failures.join()).not.toContain('leaked');
    expect(report.targets[0]!.unread?.map((u) => u.what)).toEqual(
      expect.arrayContaining(['rbac ClusterRole', expect.stringMatching(/^access review update gizmos/)]),
    );
  });
});
