import type { Finding } from '../../src/model/findings.js';
import type { AuditEntry, ForceStep, Plan, StepOutcome } from '../../src/model/force.js';
import { planAnnotations, PER_LEVEL_LIMIT } from '../../src/report/annotations.js';
import { COMMAND_WIDTH } from '../../src/report/commands.js';
import { renderFixFirst, renderHeadline, renderSummary } from '../../src/report/markdown.js';
import type { RunReport, TargetReport } from '../../src/model/run.js';
import { gfm, gfmProblems } from '../helpers/gfm.js';
import { runReport, targetReport } from '../helpers/reports.js';

const RUN_URL = 'https://github.com/acme/shop/actions/runs/1';

function target(name: string, over: Partial<TargetReport> = {}): TargetReport {
  const labels = {
    'preview.example.com/env': 'preview',
    'preview.example.com/pr': name.replace(/\D/g, ''),
    team: 'checkout',
  };
  return targetReport(name, { labels, ...over });
}

function report(targets: TargetReport[], over: Partial<RunReport> = {}): RunReport {
  const stuck = targets.filter((t) => t.outcome === 'stuck').map((t) => t.name);
  return runReport(targets, {
    context: {
      repository: 'acme/shop',
      runUrl: RUN_URL,
      serverUrl: 'https://github.com',
      cluster: { context: 'prod-eu', server: 'k8s.example.com:6443' },
    },
    settings: { selector: 'preview.example.com/env=preview' },
    failures: stuck.length ? [`${stuck.length} namespace(s) still present: ${stuck.join(', ')}`] : [],
    ...over,
  });
}

const patch = (ns: string, uid: string): string =>
  `kubectl patch kialis.kiali.io kiali -n ${ns} --type=json -p '[{"op":"test","path":"/metadata/uid","value":"${uid}"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;

const kialiTarget = {
  kind: 'object-finalizers' as const,
  resource: { group: 'kiali.io', version: 'v1alpha1', resource: 'kialis', kind: 'Kiali' },
  name: 'kiali',
  uid: 'u',
  resourceVersion: '7',
  deleting: true,
  finalizers: ['kiali.io/finalizer'],
  waiting: [],
};

function leaked(ns: string, uid = `uid-${ns}`): Finding[] {
  return [
    {
      id: 'finalizer-owner-gone',
      severity: 'error',
      cause: 'finalizer:kiali.io/finalizer|kialis.kiali.io|absent',
      summary: 'kiali.io/finalizer on kialis.kiali.io/kiali: leaked: no live actor can release it',
      evidence: [
        { object: 'kialis.kiali.io/kiali', field: 'metadata.finalizers', value: 'kiali.io/finalizer' },
      ],
      remedy: { commands: [patch(ns, uid)], policy: 'force-finalizers: kiali.io/finalizer' },
      leaked: true,
      targets: [kialiTarget],
    },
    {
      id: 'object-finalizers',
      severity: 'warning',
      cause: 'object-finalizers:kialis.kiali.io|kiali.io/finalizer|',
      summary: `kialis.kiali.io/kiali holds finalizer(s) kiali.io/finalizer (deleting for ${ns.length}s)`,
      evidence: [],
      remedy: { commands: [patch(ns, uid)] },
      leaked: false,
      targets: [kialiTarget],
    },
    {
      id: 'controller-conditions',
      severity: 'warning',
      cause: 'controller-conditions:remaining: 1 kialis.kiali.io',
      summary: `Namespace controller on ${ns}: remaining: 1 kialis.kiali.io`,
      evidence: [],
      remedy: { commands: [`kubectl get namespace ${ns} -o yaml`] },
      leaked: false,
      generic: true,
    },
  ];
}

const stuckOn = (name: string, findings = leaked(name)): TargetReport =>
  target(name, { outcome: 'stuck', terminatingForMs: 300_000, findings });

/** Every line of every fenced block of the summary. */
const codeLines = (summary: string): string[] =>
  gfm
    .parse(summary, {})
    .filter((t) => t.type === 'fence')
    .flatMap((t) => t.content.split('\n'));

describe('the first screen', () => {
  const one = report([stuckOn('preview-pr-7'), target('preview-pr-8')]);
  const summary = renderSummary(one);

  test('headline, cluster, check, then the fix for the stuck namespace with its owner and the command', () => {
    const head = renderHeadline(one);
    expect(head).toMatch(/^## ❌ Namespace teardown: 1 stuck, 1 gone of 2 namespaces/);
    expect(head).toContain('Cluster <code>prod-eu</code> at k8s.example.com&#58;6443');
    expect(head).toContain('**The check fails:**');
    const fix = renderFixFirst(one);
    expect(fix).toContain(
      '**preview-pr-7** · <code>preview.example.com/pr=7</code> <code>team=checkout</code>',
    );
    expect(fix).toContain('kubectl --context prod-eu patch kialis.kiali.io kiali -n preview-pr-7');
    expect(summary.indexOf(fix)).toBeLessThan(summary.indexOf('### Still there'));
    expect(summary.indexOf('### Still there')).toBeLessThan(summary.indexOf('namespace gone</summary>'));
  });

  test('the same patch is offered once; the generic look-up never in the fix-first block', () => {
    const fix = renderFixFirst(one);
    expect(fix.split('kubectl --context prod-eu patch').length - 1).toBe(1);
    expect(fix).not.toContain('get namespace');
    expect(summary.split('kubectl --context prod-eu patch').length - 1).toBe(2);
    expect(summary).toContain('Command: the same as above.');
  });

  test('no --context when the kubeconfig has none (in-cluster)', () => {
    const r = report([stuckOn('preview-pr-7')], { context: { cluster: { server: '10.0.0.1:443' } } });
    expect(renderSummary(r)).not.toContain('--context');
  });

  test('no code line needs horizontal scrolling', () => {
    for (const line of codeLines(summary)) expect(line.length).toBeLessThanOrEqual(COMMAND_WIDTH + 12);
  });

  test('a protected namespace that matched does not read as a clean pass', () => {
    const r = report([target('kube-system', { outcome: 'refused', note: 'protected' })], {
      failures: ['protected namespace(s) matched the selector: kube-system'],
    });
    expect(renderHeadline(r)).toMatch(/^## ❌ .*1 refused/);
    expect(renderHeadline(r)).not.toContain('clean');
  });
});

describe('one cause in many namespaces', () => {
  const stuck = Array.from({ length: 10 }, (_, i) => stuckOn(`preview-pr-${104 + 4 * i}`));
  const gone = Array.from({ length: 30 }, (_, i) => target(`preview-pr-${200 + i}`, { durationMs: 2000 }));
  const r = report([...gone, ...stuck]);
  const summary = renderSummary(r);

  test('one block, one loop over the namespaces, the finalizer checked at its index', () => {
    const fix = renderFixFirst(r);
    expect(fix).toContain('**1. Same cause in 10 namespaces:**');
    expect(fix.match(/kubectl --context prod-eu patch/g)).toHaveLength(1);
    expect(fix).toMatch(/for ns in preview-pr-104 preview-pr-108/);
    expect(fix).toContain('-n "$ns"');
    // Wrapped to fit 78 columns, line breaks inside the JSON: it parses as the same patch.
    const code = /```sh\n([\s\S]*?)\n```/.exec(fix)![1]!;
    expect(code.split('\n').filter((l) => l.length > 78)).toEqual([]);
    expect(JSON.parse(/-p '(\[[\s\S]*?\])'/.exec(fix)![1]!)).toContainEqual({
      op: 'test',
      path: '/metadata/finalizers/0',
      value: 'kiali.io/finalizer',
    });
    expect(fix).not.toContain('/metadata/uid');
  });

  test('stuck rows first, the 30 gone folded with a count, the names listed once in the check line', () => {
    expect(summary).toContain('<details><summary>✅ 30 namespaces gone</summary>');
    expect(summary.indexOf('| preview-pr-104 |')).toBeLessThan(summary.indexOf('| preview-pr-200 |'));
    expect(renderHeadline(r)).toContain('preview-pr-104, preview-pr-108, preview-pr-112 and 7 more');
  });

  test('annotations: one error for the cause naming all 10, and the final failure line kept', () => {
    const { emit, overflow } = planAnnotations(r);
    const errors = emit.filter((a) => a.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.title).toContain('10 namespace(s) stuck');
    expect(errors[0]!.message).toContain('Fix: for ns in');
    expect(emit.filter((a) => a.level === 'warning')).toHaveLength(0);
    expect(overflow).toBe(0);
  });
});

describe('annotation budget', () => {
  test('one stuck namespace: one error with the root cause and the fix, nothing repeated', () => {
    const { emit } = planAnnotations(report([stuckOn('preview-pr-7')]));
    expect(emit).toHaveLength(1);
    expect(emit[0]!.message).toMatch(
      /^kiali\.io\/finalizer on kialis\.kiali\.io\/kiali: .* Fix: kubectl --context prod-eu patch/,
    );
  });

  test('more stuck namespaces than slots: errors stay under the limit with one left for the failure line', () => {
    const targets = Array.from({ length: 30 }, (_, i) =>
      stuckOn(`ns-${i}`, [
        {
          ...leaked(`ns-${i}`)[0]!,
          cause: `finalizer:f${i}.example.com/x|kialis.kiali.io|absent`,
          summary: `finalizer f${i}.example.com/x leaked`,
        },
      ]),
    );
    const r = report(targets);
    const { emit, overflow } = planAnnotations(r);
    const errors = emit.filter((a) => a.level === 'error').length;
    expect(errors).toBe(PER_LEVEL_LIMIT - 1);
    expect(overflow).toBe(30 - errors);
    expect(renderSummary(r, undefined, { overflow })).toContain(
      `${overflow} annotation(s) over GitHub's limits`,
    );
  });

  test('a refusing webhook: the annotation keeps the fix, not the look-up', () => {
    const hook: Finding = {
      id: 'content-delete-refused',
      severity: 'error',
      cause: 'webhook-call-failed:deny-delete',
      summary: 'deletes refused by ValidatingWebhookConfiguration deny-delete',
      evidence: [],
      remedy: {
        commands: [
          'kubectl get endpointslices -n webhook-system -l kubernetes.io/service-name=deny-delete',
          'kubectl delete validatingwebhookconfiguration deny-delete',
        ],
      },
      leaked: false,
    };
    const { emit } = planAnnotations(report([stuckOn('pr-1', [hook])]));
    expect(emit[0]!.message).toContain(
      'Fix: kubectl --context prod-eu delete validatingwebhookconfiguration deny-delete',
    );
    expect(emit[0]!.message).not.toContain('endpointslices');
  });
});

describe('cluster text never becomes a link or markup', () => {
  test('URLs, e-mail addresses and www hosts in condition messages stay text', () => {
    const message =
      'failed calling webhook: Post "https://deny.webhook-system.svc:443/?timeout=10s": ask ops@example.com or www.example.com';
    const t = target('pr-1', {
      outcome: 'stuck',
      conditions: [{ type: 'NamespaceDeletionContentFailure', status: 'True', message }],
      findings: [
        {
          ...leaked('pr-1')[2]!,
          summary: message,
          evidence: [{ object: 'namespace/pr-1', field: 'c', value: message }],
        },
      ],
    });
    const summary = renderSummary(report([t]));
    expect(gfmProblems(summary, [RUN_URL])).toEqual([]);
    const html = gfm.render(summary);
    expect(html.match(/<a /g)).toHaveLength(1);
    expect(html).toContain('ops@example.com');
  });
});

describe('size', () => {
  test('thousands of namespaces stay under 100 KB, say what was cut and where the rest is', () => {
    const big = 'x'.repeat(400);
    const targets = Array.from({ length: 4000 }, (_, i) =>
      stuckOn(
        `ns-${i}`,
        leaked(`ns-${i}`).map((f) => ({
          ...f,
          evidence: Array(8).fill({ object: big, field: big, value: big }),
        })),
      ),
    );
    const summary = renderSummary(report(targets), '/tmp/report.json');
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(100_000);
    expect(summary).toMatch(
      /Cut to keep the summary short \(100 KB\):\*\* \d+ rows of the table of namespaces still there; the details of \d+ namespaces/,
    );
    expect(summary).toContain('<code>/tmp/report.json</code>');
    expect(gfmProblems(summary, [RUN_URL])).toEqual([]);
  });
});

function forced(mode: 'on' | 'dry-run', results: StepOutcome[]): TargetReport {
  const steps: ForceStep[] = [
    {
      kind: 'object-finalizers',
      object: 'kialis.kiali.io/kiali',
      field: 'metadata.finalizers',
      finalizers: ['kiali.io/finalizer', 'other.io/keep'],
      remove: [
        {
          finalizer: 'kiali.io/finalizer',
          allowedBy: { input: 'force-finalizers', pattern: 'kiali.io/*' },
          risk: 'skips kiali cleanup',
        },
      ],
      keep: ['other.io/keep'],
      findings: ['finalizer-owner-gone'],
      reason: 'leaked',
      resource: kialiTarget.resource,
      namespace: 'pr-1',
      name: 'kiali',
      uid: 'u',
      resourceVersion: '7',
      deleting: true,
      listed: ['kiali.io/finalizer', 'other.io/keep'],
    },
    {
      kind: 'namespace-finalize',
      object: 'namespace/pr-1',
      field: 'spec.finalizers',
      finalizers: ['kubernetes'],
      remove: [
        {
          finalizer: 'kubernetes',
          allowedBy: { input: 'force-finalize-namespace' },
          risk: 'content stays in storage',
        },
      ],
      keep: [],
      findings: ['apiservice-unavailable'],
      reason: 'discovery fails',
      orphans: ['metrics.k8s.io objects'],
    },
  ];
  const plan: Plan = {
    namespace: 'pr-1',
    uid: 'ns',
    mode,
    decision: 'force',
    steps,
    refusals: [],
    notes: [],
  };
  const audit: AuditEntry[] = steps.map((s, i) => ({
    at: '2026-11-22T10:01:00.000Z',
    namespace: 'pr-1',
    step: s.kind,
    object: s.object,
    field: s.field,
    before: s.finalizers,
    after: s.keep,
    allowed: s.remove,
    ...results[i]!,
    writes: 1,
  }));
  const api: Finding = {
    id: 'apiservice-unavailable',
    severity: 'error',
    cause: 'apiservice:v1beta1.metrics.k8s.io',
    summary: 'APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)',
    evidence: [],
    remedy: { commands: ['kubectl delete apiservice v1beta1.metrics.k8s.io'] },
    leaked: true,
  };
  /** What the after-run reading found still broken, as teardown/outlives.ts reports it. */
  const broken: Finding = {
    ...api,
    id: 'still-broken',
    cause: 'still-broken:apiservice:v1beta1.metrics.k8s.io',
    summary: 'still broken after the run: APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)',
    causeSummary:
      'still broken after the run: APIService v1beta1.metrics.k8s.io is unavailable (ServiceNotFound)',
  };
  const done = results.every((r) => r.result === 'removed' || r.result === 'finalized');
  const forcedIt = mode === 'on' && done;
  return target('pr-1', {
    outcome: forcedIt ? 'forced' : 'stuck',
    findings: [api, ...(forcedIt ? [broken] : []), ...leaked('pr-1')],
    force: { plan, audit },
  });
}

describe('forcing reads like a plan or a diff', () => {
  test('forced: what was removed as a diff, the result, the policy line; resolved findings offer no patch', () => {
    const t = forced('on', [{ result: 'removed' }, { result: 'finalized' }]);
    const summary = renderSummary(report([t]));
    expect(summary).toContain(
      '**kialis.kiali.io/kiali** <code>metadata.finalizers</code> — ✅ removed · allowed by <code>force-finalizers&#58; kiali.io/&#42;</code>',
    );
    expect(summary).toContain('```diff\n- kiali.io/finalizer\n  other.io/keep\n```');
    expect(summary).toContain('⚠️ **Left in storage without a namespace:**\n\n- metrics.k8s.io objects');
    expect(summary).toContain('✅ resolved by forcing');
    // The APIService outlives the namespace: never resolved, and said loudly first with the command that clears it.
    expect(summary).not.toMatch(/apiservice-unavailable\*\* — [^\n]*resolved by forcing/);
    expect(summary).not.toContain('kubectl --context prod-eu patch');
    const first = renderFixFirst(report([t]));
    expect(first).toContain('⚠️ **Still broken after the run** (read again once pr-1 had gone)');
    expect(first).toContain('Forcing went around it for this run; it was never resolved.');
    expect(first).toContain('kubectl --context prod-eu delete apiservice v1beta1.metrics.k8s.io');
    expect(gfmProblems(summary, [RUN_URL])).toEqual([]);
  });

  test('dry-run says "would"; a skipped step lists no risk; a failed write shows its reason in the step line', () => {
    const dry = renderSummary(
      report([forced('dry-run', [{ result: 'dry-run' }, { result: 'skipped', why: 'object recreated' }])]),
    );
    expect(dry).toContain('🔍 would remove');
    expect(dry).toContain('Would risk: skips kiali cleanup');
    expect(dry).not.toContain('content stays in storage');
    const failed = renderSummary(
      report([
        forced('on', [
          { result: 'failed', error: '403 Forbidden: cannot patch kialis' },
          { result: 'skipped', why: 'not run' },
        ]),
      ]),
    );
    expect(failed).toMatch(
      /\*\*kialis\.kiali\.io\/kiali\*\* .* — ❌ \*\*failed:\*\* 403 Forbidden&#58; cannot patch kialis/,
    );
    expect(failed).not.toContain('Risk taken');
  });
});

describe('what outlives a forced namespace', () => {
  test('a webhook that refused the deletes is never "resolved by forcing", even after /finalize', () => {
    const t = forced('on', [{ result: 'removed' }, { result: 'finalized' }]);
    const refused: Finding = {
      id: 'content-delete-refused',
      severity: 'error',
      verdict: 'backend-down',
      cause: 'webhook-call-failed:guard.policy.example.com',
      summary: 'the namespace controller’s deletes are refused by webhook guard.policy.example.com',
      evidence: [],
      remedy: { commands: [] },
      leaked: false,
      targets: [{ kind: 'namespace-finalize', reason: 'content deletion refused by webhook guard' }],
    };
    const summary = renderSummary(report([{ ...t, findings: [refused, ...t.findings] }]));
    expect(summary).toContain('**content-delete-refused** — the namespace controller’s deletes are refused');
    expect(summary).not.toMatch(/content-delete-refused\*\* — [^\n]*resolved by forcing/);
  });
});
