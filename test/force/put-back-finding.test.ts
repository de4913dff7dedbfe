/** The finding a put-back write adds, from the audit alone: named after who put it back, counted, and nothing else. */
import { withPutBack } from '../../src/force/put-back-finding.js';
import type { AuditEntry, PutBack } from '../../src/model/force.js';
import { kialiFinding } from './fixtures.js';

const WEBHOOK = {
  configuration: 'kiali-guard',
  name: 'finalizers.kiali.io',
  served: 'service kiali-operator/kiali-webhook',
  alive: 'up: it answered this write',
  failurePolicy: 'Fail' as const,
  certain: true,
};

const putBack = (over: Partial<PutBack> = {}): PutBack => ({
  field: 'metadata.finalizers',
  kept: ['kiali.io/finalizer'],
  writes: 2,
  unchanged: true,
  by: { kind: 'webhook', webhooks: [WEBHOOK] },
  remedy: 'change the mutating webhook finalizers.kiali.io',
  lookups: ['kubectl get mutatingwebhookconfiguration kiali-guard -o yaml'],
  ...over,
});

const entry = (object: string, p: PutBack | undefined): AuditEntry => ({
  at: '2026-11-22T10:15:00.000Z',
  namespace: 'preview-42',
  step: 'object-finalizers',
  object,
  field: 'metadata.finalizers',
  before: ['kiali.io/finalizer'],
  after: p ? ['kiali.io/finalizer'] : [],
  allowed: [],
  writes: p ? 2 : 1,
  ...(p
    ? { result: 'not-removed' as const, why: 'answered with it', putBack: p }
    : { result: 'removed' as const }),
});

test('one finding per finalizer and who put it back, objects counted; the finding that said to remove it no longer does', () => {
  const found = withPutBack(
    [kialiFinding()],
    [entry('kialis.kiali.io/kiali', putBack()), entry('kialis.kiali.io/other', putBack())],
    'preview-42',
  );
  expect(found.map((f) => f.id)).toEqual(['finalizer-put-back', 'finalizer-owner-missing']);
  const [put, owner] = found;
  expect(put).toMatchObject({
    severity: 'error',
    objects: 2,
    cause:
      'put-back:kiali.io/finalizer|kialis.kiali.io|metadata.finalizers|webhook:kiali-guard/finalizers.kiali.io',
    remedy: { commands: ['kubectl get mutatingwebhookconfiguration kiali-guard -o yaml'] },
  });
  expect(put!.summary).toMatch(
    /^kiali.io\/finalizer on 2 kialis.kiali.io objects comes back: .*put back by mutating webhook finalizers.kiali.io/,
  );
  expect(owner!.remedy.commands).toEqual([]);
  expect(owner!.remedy.note).toMatch(/undone the same way: see finalizer-put-back/);
});

test('renamed objects and webhook: the same verdict in their names; the evidence flipped (removed): no finding', () => {
  const suspect = { ...WEBHOOK, configuration: 'zz', name: 'a.b.c' };
  const renamed = putBack({ by: { kind: 'webhook', webhooks: [suspect] } });
  const found = withPutBack([], [entry('kialis.kiali.io/x1', renamed)], 'ns-9');
  expect(found.map((f) => f.id)).toEqual(['finalizer-put-back']);
  expect(found[0]!.summary).toContain('mutating webhook a.b.c (MutatingWebhookConfiguration zz');
  expect(withPutBack([kialiFinding()], [entry('kialis.kiali.io/kiali', undefined)], 'preview-42')).toEqual([
    kialiFinding(),
  ]);
  // Who cannot be told: the finding says so, and offers no webhook.
  const unknown = withPutBack(
    [],
    [entry('kialis.kiali.io/kiali', putBack({ by: { kind: 'unknown', why: 'no webhook reaches it' } }))],
    'p',
  );
  expect(unknown[0]!.summary).toContain('who puts it back is unknown: no webhook reaches it');
});
