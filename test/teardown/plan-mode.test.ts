/**
 * Plan mode (`dry-run: true`) over real HTTPS against the fake API server: every write is a dry run the server
 * answers, the cluster is left as it was, nothing is waited for, and the report is the plan.
 */
import { renderSummary } from '../../src/report/markdown.js';
import { outputsOf } from '../../src/report/outputs.js';
import { renderText } from '../../src/report/text.js';
import { FakeCluster, FAST } from '../fake-apiserver/index.js';
import { applicationBody, GITOPS_TYPES, kustomizationBody } from '../fake-apiserver/index.js';
import { dryRunAsServerReadsIt, stored, targetOf } from '../helpers/cluster-state.js';
import { runEngine } from '../helpers/harness.js';

const WIDGETS = { group: 'widgets.acme.io', version: 'v1', resource: 'widgets' };
const GADGETS = { group: 'gadgets.acme.io', version: 'v1', resource: 'gadgets' };
const NS_WEBHOOK = 'namespaces.guard.example.com';

/**
 * pr-1: two widgets whose operator runs inside it (they would go first); pr-2: a gadget whose finalizer nothing
 * serves (a predicted leak); pr-3: a webhook that denies its DELETE; pr-4: an admission policy that denies it.
 */
function world(): FakeCluster {
  const cluster = new FakeCluster({ controller: FAST });
  cluster.addCRD({ group: WIDGETS.group, version: 'v1', kind: 'Widget', plural: 'widgets' });
  cluster.addCRD({ group: GADGETS.group, version: 'v1', kind: 'Gadget', plural: 'gadgets' });
  for (const ns of ['pr-1', 'pr-2']) cluster.addNamespace(ns, { labels: { preview: 'yes' } });
  cluster.addNamespace('pr-3', { labels: { preview: 'yes', keep: 'true' } });
  cluster.addNamespace('pr-4', { labels: { preview: 'yes', freeze: 'true' } });
  for (const name of ['w0', 'w1'])
    cluster.addObject(WIDGETS, { namespace: 'pr-1', name, finalizers: ['acme.io/cleanup'] });
  cluster.addOperator({ gvr: WIDGETS, finalizer: 'acme.io/cleanup', namespace: 'pr-1', delayMs: 50 });
  cluster.addObject(GADGETS, { namespace: 'pr-2', name: 'g0', finalizers: ['gadgets.acme.io/cleanup'] });
  cluster.addWebhook({
    kind: 'Validating',
    name: NS_WEBHOOK,
    failurePolicy: 'Fail',
    resources: ['namespaces'],
    operations: ['DELETE'],
    service: { namespace: 'guard', name: 'guard-webhook' },
    down: false,
  });
  cluster.addService('guard', 'guard-webhook', 1);
  cluster.denyWebhook(
    NS_WEBHOOK,
    { code: 403, reason: 'Forbidden', message: 'namespaces labelled keep=true are kept' },
    (obj) => obj?.metadata.labels?.keep === 'true',
  );
  cluster.denyByPolicy(
    {
      policy: 'freeze-namespaces',
      binding: 'freeze-namespaces-binding',
      operations: ['DELETE'],
      resources: ['namespaces'],
      message: 'namespaces labelled freeze=true are frozen',
    },
    (obj) => obj?.metadata.labels?.freeze === 'true',
  );
  return cluster;
}

const INPUTS = {
  namespaces: 'pr-1,pr-2,pr-3,pr-4',
  'dry-run': 'true',
  timeout: '30s',
  force: 'on',
  'force-finalizers': 'gadgets.acme.io/*',
};

describe('plan mode against the fake API server', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster.stop());

  test('every write is a dry run, the cluster is unchanged, nothing is waited for: every target planned', async () => {
    cluster = world();
    const { kubeconfig } = await cluster.start();
    const before = JSON.stringify(stored(cluster));
    const { report } = await runEngine(kubeconfig, INPUTS);
    const writes = cluster.requests.filter((r) => r.method !== 'GET');
    expect(writes.length).toBeGreaterThanOrEqual(6);
    for (const w of writes)
      expect(`${w.method} ${w.path} as a dry run: ${dryRunAsServerReadsIt(w)}`).toBe(
        `${w.method} ${w.path} as a dry run: true`,
      );
    expect(JSON.stringify(stored(cluster))).toBe(before);
    expect(cluster.operatorCleanups).toEqual([]);
    // Nothing was deleted, so nothing was watched for.
    expect(cluster.requests.filter((r) => /watch=/.test(r.query))).toEqual([]);
    expect(report.result).toBe('planned');
    expect(report.targets.map((t) => `${t.name} ${t.outcome}`)).toEqual([
      'pr-1 planned',
      'pr-2 planned',
      'pr-3 planned',
      'pr-4 planned',
    ]);
    const outputs = outputsOf(report, 'r.json');
    expect([outputs.deleted, outputs.stuck, outputs.forced]).toEqual(['[]', '[]', '[]']);
    expect(report.settings.dryRun).toBe(true);
    expect(report.plan!.writes.map((w) => `${w.verb} ${w.object} ${w.answer}`).sort()).toEqual([
      'delete namespaces/pr-1 accepted',
      'delete namespaces/pr-2 accepted',
      'delete namespaces/pr-3 refused',
      'delete namespaces/pr-4 refused',
      'delete widgets.widgets.acme.io/w0 accepted',
      'delete widgets.widgets.acme.io/w1 accepted',
    ]);
  });

  test('a webhook and an admission policy that refuse the DELETE: "would be refused", by whom, in their words', async () => {
    cluster = world();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, INPUTS);
    expect(targetOf(report, 'pr-3').plan!.delete).toMatchObject({
      answer: 'refused',
      code: 403,
      refusedBy: { by: 'webhook', name: NS_WEBHOOK },
      message: `namespaces "pr-3" is forbidden: admission webhook "${NS_WEBHOOK}" denied the request: namespaces labelled keep=true are kept`,
    });
    expect(targetOf(report, 'pr-4').plan!.delete).toMatchObject({
      answer: 'refused',
      code: 422,
      refusedBy: { by: 'policy', name: 'freeze-namespaces' },
    });
    expect(targetOf(report, 'pr-1').plan!.delete).toMatchObject({ answer: 'accepted' });
    expect(report.failures).toContain(
      'the server would refuse 2 write(s): delete namespaces/pr-3, delete namespaces/pr-4',
    );
    // The first screen of the summary is the plan: the refusals, the order, the predicted hangs, before any table.
    const summary = renderSummary(report);
    const plain = summary
      .replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)))
      .replace(/&quot;/g, '"');
    expect(plain).toContain('### Targets (4)');
    const firstScreen = plain.slice(0, plain.indexOf('### Targets ('));
    expect(firstScreen).toContain('### The plan (dry run: nothing was changed)');
    expect(firstScreen).toContain('#### ⛔ Admission would refuse (2)');
    expect(firstScreen).toContain(
      `- delete namespaces/pr-3: refused (403) by admission webhook ${NS_WEBHOOK}\n`,
    );
    expect(firstScreen).toContain(
      '- delete namespaces/pr-4: refused (422) by ValidatingAdmissionPolicy freeze-namespaces',
    );
    expect(firstScreen).toContain('namespaces labelled keep=true are kept');
    expect(firstScreen).toMatch(
      /\d\. pr-1: DELETE accepted \(dry run\)\n {3}- first 2 custom resource\(s\) whose controller runs: widgets\.widgets\.acme\.io\/w0, widgets\.widgets\.acme\.io\/w1/,
    );
    expect(firstScreen).toContain('#### 🔮 Predicted to hang (1): predictions, nothing was deleted');
    expect(firstScreen).toContain('- pr-2: predicted to hang: leak of gadgets.acme.io/cleanup');
    expect(firstScreen).toContain(
      '   - forcing (prediction): would remove gadgets.acme.io/cleanup from 1 object',
    );
    // The text output says the same, before its table.
    const text = renderText(report, { width: 80, color: false });
    const head = text.slice(0, text.indexOf('NAMESPACE'));
    expect(head).toContain('Plan (dry run): every write was sent with dryRun=All; nothing was changed.');
    expect(head).toContain('Admission would refuse (2)\n');
    expect(head).toContain('- delete namespaces/pr-3: refused (403) by admission webhook');
    expect(head).toContain('The namespace DELETEs, in the order the run sends them');
    expect(head).toContain('Predicted to hang (1): predictions, nothing was deleted');
    expect(text.split('\n').every((l) => l.length <= 80)).toBe(true);
    // A run that writes shows no plan.
    const wrote = renderText(
      { ...report, settings: { ...report.settings, dryRun: undefined } },
      { width: 80, color: false },
    );
    expect(wrote).not.toContain('Plan (dry run)');
  });

  test('custom resources first: dry-run DELETEs of the widgets whose operator runs, none waited for', async () => {
    cluster = world();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, INPUTS);
    const deletes = cluster.requests.filter((r) => r.method === 'DELETE' && r.path.includes('/widgets/'));
    expect(deletes.map((r) => r.path).sort()).toEqual([
      '/apis/widgets.acme.io/v1/namespaces/pr-1/widgets/w0',
      '/apis/widgets.acme.io/v1/namespaces/pr-1/widgets/w1',
    ]);
    for (const d of deletes)
      expect(d.body).toMatchObject({ dryRun: ['All'], preconditions: { uid: expect.any(String) } });
    const phase = targetOf(report, 'pr-1').customResources!;
    expect(phase.mode).toBe('dry-run');
    expect(phase.objects.map((o) => `${o.object}: ${o.left?.reason} ${o.left?.detail}`)).toEqual([
      'widgets.widgets.acme.io/w0: dry-run would be deleted first and waited for: the server accepted the DELETE (dry run)',
      'widgets.widgets.acme.io/w1: dry-run would be deleted first and waited for: the server accepted the DELETE (dry run)',
    ]);
    expect(phase.objects.every((o) => o.requestedAt === undefined && o.goneAt === undefined)).toBe(true);
  });

  test('the pre-mortem predicts the leak, and what forcing would do about it under the policy is said as a prediction', async () => {
    cluster = world();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, INPUTS);
    const pr2 = targetOf(report, 'pr-2');
    expect(pr2.preMortem!.predictions.map((p) => `${p.kind} ${p.subject} ${p.hang}`)).toEqual([
      'leak gadgets.acme.io/cleanup true',
    ]);
    expect(pr2.preMortem!.predictions[0]!.settled).toBeUndefined();
    expect(pr2.plan!.forcing).toEqual([
      {
        about: 'gadgets.acme.io/cleanup',
        would: true,
        words: expect.stringMatching(/^would remove gadgets\.acme\.io\/cleanup from 1 object once they hang/),
      },
    ]);
    expect(report.failures).toContain('the pre-mortem predicts 1 namespace(s) will hang: pr-2');
    const off = await runEngine(kubeconfig, { ...INPUTS, namespaces: 'pr-2', 'force-finalizers': '' });
    expect(targetOf(off.report, 'pr-2').plan!.forcing).toEqual([
      {
        about: 'gadgets.acme.io/cleanup',
        would: false,
        words: expect.stringMatching(/^no force-finalizers pattern matches gadgets\.acme\.io\/cleanup/),
      },
    ]);
  });

  test('fail-on never passes the check; the plan still says what would be refused', async () => {
    cluster = world();
    const { kubeconfig } = await cluster.start();
    const { report } = await runEngine(kubeconfig, { ...INPUTS, 'fail-on': 'never' });
    expect(report.failures).toEqual([]);
    expect(report.result).toBe('planned');
    expect(targetOf(report, 'pr-3').plan!.delete!.answer).toBe('refused');
  });

  test.each([
    ['flux', 'suspend'],
    ['flux', 'delete'],
    ['argo', 'suspend'],
  ] as const)(
    'GitOps owners (%s, %s): a dry-run write, the owner unchanged, what it would do said',
    async (flavour, policy) => {
      cluster = new FakeCluster({ controller: FAST });
      cluster.addNamespace('pr-5');
      cluster.addGitOps(flavour);
      const t = GITOPS_TYPES[flavour];
      const body =
        flavour === 'argo'
          ? applicationBody({ name: 'preview-5', namespace: 'pr-5', resources: 2 })
          : kustomizationBody({ name: 'preview-web-5', namespaces: ['pr-5'], objectsPerNamespace: 2 });
      cluster.addObject({ group: t.group, version: t.version, resource: t.plural }, body);
      const { kubeconfig } = await cluster.start();
      const before = JSON.stringify(stored(cluster));
      const { report } = await runEngine(kubeconfig, {
        namespaces: 'pr-5',
        'dry-run': 'true',
        'gitops-owners': policy,
        timeout: '20s',
      });
      const owner = cluster.requests.filter((r) => r.method !== 'GET' && r.path.includes(`/${t.plural}/`));
      expect(owner.map((r) => r.method)).toEqual([policy === 'suspend' ? 'PATCH' : 'DELETE']);
      for (const w of cluster.requests.filter((r) => r.method !== 'GET'))
        expect(dryRunAsServerReadsIt(w)).toBe(true);
      expect(JSON.stringify(stored(cluster))).toBe(before);
      const action = report.lifecycle!.owners![0]!;
      expect(action.note).toContain(
        `the server accepted the ${policy === 'suspend' ? 'PATCH' : 'DELETE'} (dry run)`,
      );
      expect(action.outcome).not.toMatch(/^(suspended|deleted)$/);
      expect(report.result).toBe('planned');
    },
  );
});
