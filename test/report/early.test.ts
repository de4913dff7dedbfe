import { planAnnotations, PER_LEVEL_LIMIT } from '../../src/report/annotations.js';
import { renderSummary } from '../../src/report/markdown.js';
import { renderCustomResources } from '../../src/report/prevention.js';
import { renderPredictions } from '../../src/report/prevention-predictions.js';
import type { CustomResourcesPhase, Prediction } from '../../src/model/prevention.js';
import type { RunReport, TargetReport } from '../../src/model/run.js';
import { gfmProblems } from '../helpers/gfm.js';
import { runReport, targetReport } from '../helpers/reports.js';

const leak = (ns: string, result: 'came-true' | 'did-not-happen'): Prediction => ({
  kind: 'leak',
  hang: true,
  key: 'leak acme.io/cleanup',
  subject: 'acme.io/cleanup',
  summary: 'leak of acme.io/cleanup: no workload in the cluster mentions acme; nothing will remove it',
  objects: [`widgets.acme.io/w-${ns}`],
  evidence: [],
  settled: {
    result,
    words: result === 'came-true' ? 'came true: stuck on it' : 'did not happen: gone in 4s',
  },
});

const inside = (ns: string): Prediction => ({
  kind: 'in-namespace-controller',
  hang: false,
  key: 'in-namespace acme.io/cleanup first',
  subject: 'acme.io/cleanup',
  summary: `acme.io/cleanup: its controller Deployment ${ns}/widget-operator (1 ready) runs inside the namespace; its custom resources are deleted first, while it still runs`,
  objects: [],
  evidence: [],
  settled: { result: 'avoided', words: 'avoided: its resources went first while it ran; gone in 2s' },
});

const phase = (gone: number, left = 0): CustomResourcesPhase => ({
  mode: 'done',
  tookMs: 900,
  objects: [
    ...Array.from({ length: gone }, (_, i) => ({
      object: `widgets.acme.io/w${i}`,
      type: 'widgets.acme.io',
      finalizers: ['acme.io/cleanup'],
      waited: true,
      why: 'runs',
      requestedAt: '2026-11-22T10:00:00.000Z',
      goneAt: '2026-11-22T10:00:01.000Z',
      ms: 400 + 100 * i,
    })),
    ...Array.from({ length: left }, (_, i) => ({
      object: `widgets.acme.io/held-${i}`,
      type: 'widgets.acme.io',
      finalizers: ['acme.io/cleanup'],
      waited: false,
      why: 'acme.io/cleanup: no workload | mentions `acme`',
      left: {
        reason: 'controller-absent' as const,
        detail: 'acme.io/cleanup: no workload | mentions `acme`',
      },
    })),
  ],
  types: [],
  skippedTypes: [{ type: 'pods.metrics.k8s.io', why: 'read-only' }],
});

const target = targetReport;
const report = (targets: TargetReport[]): RunReport =>
  runReport(targets, { result: 'stuck', failures: ['1 namespace(s) still present: pr-1'] });

const pm = (predictions: Prediction[]) => ({ tookMs: 80, predictions, readErrors: [] });

describe('predicted before deleting', () => {
  const r = report([
    target('pr-1', {
      outcome: 'stuck',
      preMortem: pm([leak('pr-1', 'came-true')]),
      customResources: phase(0, 2),
    }),
    target('pr-2', { preMortem: pm([leak('pr-2', 'did-not-happen')]) }),
    target('pr-3', { preMortem: pm([leak('pr-3', 'came-true'), inside('pr-3')]), customResources: phase(3) }),
    target('pr-4', { preMortem: pm([inside('pr-4')]), customResources: phase(2) }),
  ]);

  test('one line per prediction, grouped over namespaces, with whether it came true; certain hangs first', () => {
    expect(renderPredictions(r).split('\n')).toEqual([
      '### Predicted before deleting',
      '',
      '- 🔮 leak of acme.io/cleanup&#58; no workload in the cluster mentions acme; nothing will remove it — came true: pr-1, pr-3 · did not happen: pr-2',
      '- ⏳ acme.io/cleanup&#58; its controller Deployment ‹namespace›/widget-operator &#40;1 ready&#41; runs inside the namespace; its custom resources are deleted first, while it still runs — pr-3, pr-4 → avoided&#58; its resources went first while it ran; gone',
    ]);
  });

  test('the section comes right after the headline, and the summary stays well-formed', () => {
    const summary = renderSummary(r);
    expect(summary.indexOf('### Predicted before deleting')).toBeLessThan(summary.indexOf('### Still there'));
    expect(summary.split('\n').findIndex((l) => l.startsWith('### '))).toBe(
      summary.split('\n').indexOf('### Predicted before deleting'),
    );
    expect(gfmProblems(summary, [])).toEqual([]);
  });

  test('one notice per certain hang, grouped, within the budget', () => {
    const notices = planAnnotations(r).emit.filter((a) => a.level === 'notice');
    expect(notices).toEqual([
      {
        level: 'notice',
        title: 'Predicted before deleting: pr-1, pr-2, pr-3 will hang',
        message:
          'leak of acme.io/cleanup: no workload in the cluster mentions acme; nothing will remove it. After the run: came true: stuck on it (2); did not happen: gone (1).',
      },
    ]);
    const many = report(
      Array.from({ length: 30 }, (_, i) =>
        target(`pr-${i}`, {
          preMortem: pm([
            {
              ...leak(`pr-${i}`, 'came-true'),
              key: `leak f${i}`,
              subject: `f${i}`,
              summary: `leak of f${i}`,
            },
          ]),
        }),
      ),
    );
    const planned = planAnnotations(many);
    expect(planned.emit.filter((a) => a.level === 'notice')).toHaveLength(PER_LEVEL_LIMIT);
    expect(planned.overflow).toBeGreaterThanOrEqual(20);
  });
});

describe('custom resources first', () => {
  test('per type across targets: how many went, finalizer times, what was left and why (cluster text escaped)', () => {
    const r = report([
      target('pr-1', { customResources: phase(0, 2) }),
      target('pr-3', { customResources: phase(3) }),
    ]);
    const lines = renderCustomResources(r).split('\n');
    expect(lines[4]).toBe(
      '| widgets.acme.io | 3 of 5 in 2 namespaces | 500ms / 600ms | 2 controller absent (acme.io/cleanup&#58; no workload &#124; mentions &#96;acme&#96;) |',
    );
    expect(lines.at(-1)).toBe('Not deleted early: pods.metrics.k8s.io (read-only).');
    expect(gfmProblems(renderSummary(r), [])).toEqual([]);
  });

  test('the note under the table says what was done: deleted with a UID precondition, none early, or a dry run', () => {
    const note = (r: ReturnType<typeof report>): string | undefined =>
      renderCustomResources(r)
        .split('\n')
        .find((l) => l.startsWith('<sub>'));
    expect(note(report([target('pr-1', { customResources: phase(2, 1) })]))).toMatch(
      /^<sub>Deleted with a UID precondition/,
    );
    expect(note(report([target('pr-1', { customResources: phase(0, 3) })]))).toMatch(
      /^<sub>None was deleted early: only custom resources whose controllers are seen running go first/,
    );
    const dry = phase(0, 2);
    for (const o of dry.objects) o.left = { reason: 'dry-run', detail: 'would be deleted first' };
    expect(note(report([target('pr-1', { customResources: dry })]))).toBe(
      '<sub>Dry run: nothing was deleted early.</sub>',
    );
  });

  test('nothing to say without custom resources', () => {
    expect(renderCustomResources(report([target('pr-1', {})]))).toBe('');
    expect(renderPredictions(report([target('pr-1', {})]))).toBe('');
  });
});
