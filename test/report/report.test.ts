import type { Finding } from '../../src/model/findings.js';
import type { RunReport, TargetReport } from '../../src/model/run.js';
import { planAnnotations, PER_LEVEL_LIMIT } from '../../src/report/annotations.js';
import { md, safeLog } from '../../src/report/escape.js';
import { renderSummary } from '../../src/report/markdown.js';
import { gfm, gfmProblems } from '../helpers/gfm.js';
import { outputsOf } from '../../src/report/outputs.js';
import { runReport, targetReport } from '../helpers/reports.js';

const HOSTILE = [
  '::error::pwned',
  'a%0A::warning::x',
  'line\n::set-output name=result::clean',
  'pipe | in | cell',
  '<img src=x onerror=alert(1)>',
  '`rm -rf /` and ```fence```',
  '[link](javascript:alert(1))',
  'x'.repeat(10_000),
];

function target(over: Partial<TargetReport>): TargetReport {
  return targetReport('pr-1', over);
}

function report(targets: TargetReport[]): RunReport {
  return runReport(targets, {
    context: {
      repository: 'acme/shop',
      pullRequest: { number: 42, title: 'Add <b>cart</b> | ::error::x' },
      sha: 'abcdef1234567890',
      runUrl: 'https://github.com/acme/shop/actions/runs/1',
      serverUrl: 'https://github.com',
    },
    settings: { namespaces: ['pr-1'] },
  });
}

function hostileFinding(text: string, i: number): Finding {
  return {
    id: 'object-finalizers',
    severity: i % 2 ? 'error' : 'warning',
    cause: `hostile:${i}`,
    summary: `kialis.kiali.io/${text} holds ${text}`,
    evidence: [{ object: text, field: 'metadata.finalizers', value: text }],
    owner: { controller: text, present: false },
    remedy: { commands: [`kubectl patch ${text}`], note: text },
    leaked: true,
  };
}

describe('cluster text is rendered safely', () => {
  const stuck = target({
    name: 'pr-1',
    outcome: 'stuck',
    terminatingForMs: 300_000,
    conditions: HOSTILE.map((m, i) => ({ type: `C${i}`, status: 'True', message: m })),
    findings: HOSTILE.map(hostileFinding),
    scan: {
      mode: 'full',
      reason: 'conditions-stale',
      detail: `finalizers the conditions do not count: ${HOSTILE.join(', ')}`,
    },
  });
  const summary = renderSummary(report([stuck]));

  test('the details say which scan ran and why', () => {
    expect(summary).toMatch(/^Scan: full \(finalizers the conditions do not count&#58; /m);
  });

  test('no line of the summary can start a workflow command', () => {
    for (const line of summary.split('\n')) expect(line.trimStart().startsWith('::')).toBe(false);
    expect(summary).not.toContain('::error::');
    expect(summary).not.toContain('::set-output');
  });

  test('HTML and markdown metacharacters are escaped, table cells keep their shape', () => {
    const rendered = gfm.render(summary);
    expect(rendered).not.toMatch(/<img/i);
    expect(summary).toContain('&lt;img src=x onerror=alert&#40;1&#41;&gt;');
    expect(gfmProblems(summary, ['https://github.com/acme/shop/actions/runs/1'])).toEqual([]);
    const rows = summary.split('\n').filter((l) => l.startsWith('| pr'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.split(' | ')).toHaveLength(4);
    expect(rendered).not.toMatch(/href="javascript/i);
  });

  test('long text is bounded and says how much was cut', () => {
    expect(summary).toMatch(/… and \d+ more characters/);
    expect(summary.length).toBeLessThan(200_000);
  });

  test('annotations are one line, never form a command, and respect the per-level limit', () => {
    const { emit } = planAnnotations(report([stuck]));
    expect(emit.filter((a) => a.level === 'error').length).toBeLessThanOrEqual(PER_LEVEL_LIMIT);
    expect(emit.filter((a) => a.level === 'warning').length).toBeLessThanOrEqual(PER_LEVEL_LIMIT);
    expect(emit[0]).toMatchObject({ level: 'error', title: 'Namespace pr-1 stuck in Terminating' });
    for (const a of emit) {
      expect(a.message).not.toMatch(/[\r\n]/);
      expect(a.message).not.toContain('::');
      expect(a.title).not.toContain('::');
    }
  });

  test('safeLog and md break every ::', () => {
    expect(safeLog('x\n::error::y')).toBe('x :\u200b:error:\u200b:y');
    expect(md('|a|')).toBe('&#124;a&#124;');
    expect(md('::error::y')).not.toContain('::');
  });
});

describe('outputs', () => {
  test('deleted, stuck and refused are JSON arrays of names', () => {
    const r = report([
      target({ name: 'a', outcome: 'gone' }),
      target({ name: 'b', outcome: 'already-gone' }),
      target({ name: 'c', outcome: 'stuck' }),
      target({ name: 'd', outcome: 'active' }),
      target({ name: 'team-a', outcome: 'refused', missingLabel: 'preview.example.com/pr' }),
    ]);
    expect(outputsOf(r, '/tmp/r.json')).toEqual({
      result: 'stuck',
      deleted: '["a","b"]',
      stuck: '["c","d"]',
      forced: '[]',
      refused: '["team-a"]',
      report: '/tmp/r.json',
    });
  });

  test('names a server sent with control characters: escaped, and the JSON reads back the same', () => {
    const names = ['pr-\u202e1', 'pr-\u009b2', 'pr-\u001b3'];
    const r = report(names.map((name) => target({ name, outcome: 'gone' })));
    const { deleted } = outputsOf(r, '');
    expect(deleted).toBe('["pr-\\u202e1","pr-\\u009b2","pr-\\u001b3"]');
    expect(JSON.parse(deleted)).toEqual(names);
  });
});
