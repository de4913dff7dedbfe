/**
 * A forced write is done only when its answer shows it: a removal answered with the finalizer still there is written
 * once more from that answer, then `not-removed`, with who put it back read from the cluster's mutating webhooks (or
 * unknown, saying why); a later plan refuses it and /finalize around it.
 */
import { executePlan } from '../../src/force/execute.js';
import { decide } from '../../src/force/policy.js';
import { resultText } from '../../src/force/audit.js';
import { cameBack } from '../../src/force/came-back.js';
import type { AuditEntry, Plan, ForcePolicy } from '../../src/model/force.js';
import type { Finding } from '../../src/model/findings.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import { RecordingLogger, type Clock } from '../../src/shared/ports.js';
import { RecordingKube } from './fake-kube.js';
import {
  DISCOVERY_FAILED,
  KIALIS,
  MINUTE,
  T0,
  deadApiServiceFinding,
  kialiFinding,
  meta,
  policy,
  terminating,
} from './fixtures.js';

const NOW = T0 + 15 * MINUTE;
const clock: Clock = { now: () => NOW, sleep: async () => undefined };
const KIALI_PATH = '/apis/kiali.io/v1alpha1/namespaces/preview-42/kialis/kiali';

/** A MutatingWebhookConfiguration as the API serves it. */
function mutating(
  name: string,
  webhook: string,
  rule: { resources: string[]; apiGroups: string[]; operations?: string[] },
  more: Record<string, unknown> = {},
): unknown {
  return {
    metadata: { name },
    webhooks: [
      {
        name: webhook,
        failurePolicy: 'Fail',
        clientConfig: { url: `https://${webhook}/mutate` },
        rules: [{ operations: rule.operations ?? ['UPDATE'], apiVersions: ['*'], scope: '*', ...rule }],
        ...more,
      },
    ],
  };
}

const planFor = (
  ns: NamespaceState,
  findings: Finding[],
  over: Partial<ForcePolicy>,
  held: AuditEntry[] = [],
): Plan => decide(policy(over), ns, findings, NOW, () => false, [], held);

async function run(kube: RecordingKube, plan: Plan) {
  const logger = new RecordingLogger();
  const ns = kube.namespaces.get('preview-42');
  const audit = await executePlan(kube, plan, {
    dryRun: false,
    logger,
    clock,
    expectedUid: 'uid-ns',
    ...(ns ? { namespaceLabels: ns.labels } : {}),
  });
  return { audit, logger, results: audit.map((e) => `${e.object} ${e.field}: ${resultText(e)}`) };
}

function kialiHeld(): { kube: RecordingKube; plan: Plan } {
  const ns = terminating({ labels: { team: 'payments' } });
  const kube = new RecordingKube()
    .addNamespace(ns)
    .addObject(KIALIS, meta('kiali', 'uid-kiali', ['kiali.io/finalizer']))
    .putBack(KIALI_PATH, 'kiali.io/finalizer');
  return { kube, plan: planFor(ns, [kialiFinding()], { finalizerPatterns: ['kiali.io/*'] }) };
}

describe('a removal whose answer still shows the finalizer', () => {
  test('is written once more, guarded by the answer, then not removed; the webhook whose rules reach it is named', async () => {
    const { kube, plan } = kialiHeld();
    kube.serveMutating([
      mutating('unrelated', 'pods.example.com', { resources: ['pods'], apiGroups: [''] }),
      mutating('kiali-guard', 'finalizers.kiali.io', { resources: ['kialis'], apiGroups: ['kiali.io'] }),
    ]);
    const { audit, results, logger } = await run(kube, plan);
    expect(kube.writes).toEqual([
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
      'PATCH kialis.kiali.io preview-42/kiali uid=uid-kiali rv=7 []',
    ]);
    expect(results).toEqual([
      'kialis.kiali.io/kiali metadata.finalizers: not removed: the server answered 2 write(s) with kiali.io/finalizer still in metadata.finalizers, resourceVersion unchanged: nothing was stored',
    ]);
    const e = audit[0]!;
    expect(e).toMatchObject({ result: 'not-removed', after: ['kiali.io/finalizer'], writes: 2 });
    expect(e.result === 'not-removed' && e.putBack).toMatchObject({
      kept: ['kiali.io/finalizer'],
      unchanged: true,
      by: {
        kind: 'webhook',
        webhooks: [
          {
            configuration: 'kiali-guard',
            name: 'finalizers.kiali.io',
            served: 'url https://finalizers.kiali.io/mutate',
            alive: 'up: it answered this write',
            certain: true,
          },
        ],
      },
      lookups: ['kubectl get mutatingwebhookconfiguration kiali-guard -o yaml'],
    });
    expect(logger.lines.join('\n')).toContain('after: [kiali.io/finalizer]');
    expect(logger.lines.join('\n')).toContain('put back by mutating webhook finalizers.kiali.io');
  });

  test('a webhook whose namespace selector excludes the namespace is not named; nothing else reaches it: unknown, and why', async () => {
    const { kube, plan } = kialiHeld();
    kube.serveMutating([
      mutating(
        'kiali-guard',
        'finalizers.kiali.io',
        { resources: ['kialis'], apiGroups: ['kiali.io'] },
        { namespaceSelector: { matchLabels: { team: 'search' } } },
      ),
    ]);
    const { audit } = await run(kube, plan);
    const e = audit[0]!;
    expect(e.result === 'not-removed' && e.putBack?.by).toEqual({
      kind: 'unknown',
      why: "no MutatingWebhookConfiguration's rules reach an UPDATE of kialis.kiali.io (1 webhook(s) read), and managedFields name no other manager of metadata.finalizers",
    });
    // The same selector matching the namespace's labels names it again: the verdict rests on that evidence.
    const again = kialiHeld();
    again.kube.serveMutating([
      mutating(
        'kiali-guard',
        'finalizers.kiali.io',
        { resources: ['kialis'], apiGroups: ['kiali.io'] },
        { namespaceSelector: { matchLabels: { team: 'payments' } } },
      ),
    ]);
    const named = (await run(again.kube, again.plan)).audit[0]!;
    expect(named.result === 'not-removed' && named.putBack?.by.kind).toBe('webhook');
  });

  test('no webhook reaches it: the manager managedFields name for the finalizers (never the run itself)', async () => {
    const ns = terminating();
    const kube = new RecordingKube()
      .addNamespace(ns)
      .addObject(KIALIS, {
        ...meta('kiali', 'uid-kiali', ['kiali.io/finalizer']),
        finalizerManagers: ['kiali-operator', 'namespace-teardown'],
      })
      .putBack(KIALI_PATH, 'kiali.io/finalizer')
      .serveMutating([]);
    const { audit } = await run(kube, planFor(ns, [kialiFinding()], { finalizerPatterns: ['kiali.io/*'] }));
    const e = audit[0]!;
    expect(e.result === 'not-removed' && e.putBack?.by).toEqual({
      kind: 'manager',
      managers: ['kiali-operator'],
    });
    expect(e.result === 'not-removed' && e.putBack?.lookups).toEqual([
      'kubectl get kialis.kiali.io kiali -n preview-42 --show-managed-fields -o yaml',
    ]);
  });

  test('webhooks that cannot be read: who is unknown, and the error says why', async () => {
    const { kube, plan } = kialiHeld();
    const { audit } = await run(kube, plan);
    const e = audit[0]!;
    expect(e.result).toBe('not-removed');
    expect(e.result === 'not-removed' && e.putBack?.by.kind).toBe('unknown');
    expect(e.result === 'not-removed' && e.putBack?.by).toMatchObject({
      why: expect.stringMatching(/^the MutatingWebhookConfigurations could not be read \(/),
    });
  });

  test('a second answer without it is removed after all: two writes', async () => {
    const { kube, plan } = kialiHeld();
    kube.before('patchFinalizers', () => undefined);
    kube.before('patchFinalizers', () => kube.putBack(KIALI_PATH));
    const { results } = await run(kube, plan);
    expect(results).toEqual(['kialis.kiali.io/kiali metadata.finalizers: removed']);
    expect(kube.writes).toHaveLength(2);
  });

  test('holds /finalize back in the same pass, and a later plan refuses it and /finalize around it', async () => {
    const ns = terminating({ conditions: [DISCOVERY_FAILED] });
    const kube = new RecordingKube()
      .addNamespace(ns)
      .addObject(KIALIS, meta('kiali', 'uid-kiali', ['kiali.io/finalizer']))
      .putBack(KIALI_PATH, 'kiali.io/finalizer');
    const findings = [kialiFinding(), deadApiServiceFinding()];
    const over = { finalizerPatterns: ['kiali.io/*'], finalizeNamespace: true };
    const { audit, results } = await run(kube, planFor(ns, findings, over));
    expect(results[1]).toMatch(
      /^namespace\/preview-42 spec.finalizers: skipped: held back because an earlier step failed/,
    );
    expect(kube.writes.some((w) => w.startsWith('PUT'))).toBe(false);
    const later = planFor(ns, findings, over, audit);
    expect(later.steps).toEqual([]);
    expect(later.decision).toBe('nothing-allowed');
    expect(later.refusals.map((r) => `${r.object} ${r.finalizer ?? ''}: ${r.reason}`)).toEqual([
      expect.stringMatching(
        /^kialis.kiali.io\/kiali kiali.io\/finalizer: not written again: the server answered 2 write\(s\)/,
      ),
      expect.stringMatching(
        /^namespace\/preview-42 : \/finalize would go around something the run could not name, which puts kiali.io\/finalizer back on kialis.kiali.io\/kiali/,
      ),
    ]);
    // The pattern allowed it: no note says it matched nothing.
    expect(later.notes.join('\n')).not.toMatch(/nothing matched/);
    // Without the audit the same plan writes again: the refusal rests on what the answers showed.
    expect(planFor(ns, findings, over).steps.map((s) => s.kind)).toEqual([
      'object-finalizers',
      'namespace-finalize',
    ]);
  });

  test('/finalize answered with spec.finalizers back: not removed, read from spec.finalizers', async () => {
    const ns = terminating({ conditions: [DISCOVERY_FAILED] });
    const kube = new RecordingKube().addNamespace(ns).putBack('preview-42/spec', 'kubernetes');
    kube.serveMutating([
      mutating('ns-guard', 'ns.guard.example.com', { resources: ['namespaces/finalize'], apiGroups: [''] }),
    ]);
    const { audit, results } = await run(
      kube,
      planFor(ns, [deadApiServiceFinding()], { finalizeNamespace: true }),
    );
    expect(kube.writes.filter((w) => w.startsWith('PUT'))).toHaveLength(2);
    expect(results).toEqual([
      'namespace/preview-42 spec.finalizers: not removed: the server answered 2 write(s) with kubernetes still in spec.finalizers, resourceVersion unchanged: nothing was stored',
    ]);
    expect(audit[0]!.after).toEqual(['kubernetes']);
    expect(audit[0]!.result === 'not-removed' && audit[0]!.putBack?.by).toMatchObject({
      kind: 'webhook',
      webhooks: [{ name: 'ns.guard.example.com' }],
    });
    expect(kube.namespaces.get('preview-42')).toBeDefined();
  });

  test('/finalize answered done, then read back with spec.finalizers: put back after the write, by the manager managedFields name', async () => {
    const ns = terminating({ conditions: [DISCOVERY_FAILED], metadataFinalizers: ['example.com/ns'] });
    const kube = new RecordingKube().addNamespace(ns);
    const plan = planFor(ns, [deadApiServiceFinding()], { finalizeNamespace: true });
    const { audit } = await run(kube, plan);
    expect(audit.map((e) => e.result)).toEqual(['finalized']);
    const stored = kube.namespaces.get('preview-42')!;
    // What the wait saw before the write says nothing: no read, nothing recorded.
    expect(await cameBack(kube, { ...stored, specFinalizers: [] }, audit, 'now')).toBeUndefined();
    // A namespace controller writes it back through /finalize.
    stored.specFinalizers = ['kubernetes'];
    const managedFields = [
      { manager: 'namespace-teardown', fieldsV1: { 'f:spec': { 'f:finalizers': {} } } },
      {
        manager: 'platform-ns-controller',
        subresource: 'finalize',
        fieldsV1: { 'f:spec': { 'f:finalizers': {} } },
      },
    ];
    kube.addRaw('/api/v1/namespaces/preview-42', {
      metadata: { ...meta('preview-42', 'uid-ns', []), managedFields } as never,
      spec: { finalizers: ['kubernetes'] },
    });
    const back = await cameBack(kube, stored, audit, 'now');
    expect(back).toMatchObject({
      result: 'not-removed',
      after: ['kubernetes'],
      writes: 0,
      why: 'the server answered /finalize with kubernetes removed, but a read after it shows kubernetes back in spec.finalizers',
      putBack: { by: { kind: 'manager', managers: ['platform-ns-controller'] } },
    });
    // The next plan does not write it again.
    const later = planFor(stored, [deadApiServiceFinding()], { finalizeNamespace: true }, [...audit, back!]);
    expect(later.steps).toEqual([]);
    expect(later.refusals.map((r) => r.reason)).toContainEqual(expect.stringMatching(/^not written again/));
  });
});
