import type { Finding } from '../../src/model/findings.js';
import { cells } from '../../src/report/columns.js';
import { renderText } from '../../src/report/text.js';
import type { RunReport, TargetReport } from '../../src/model/run.js';
import { runReport, targetReport } from '../helpers/reports.js';

const patch = (ns: string): string =>
  `kubectl patch kialis.kiali.io kiali -n ${ns} --type=json -p '[{"op":"test","path":"/metadata/uid","value":"uid-${ns}"},{"op":"test","path":"/metadata/finalizers/0","value":"kiali.io/finalizer"},{"op":"remove","path":"/metadata/finalizers/0"}]'`;

const leaked = (ns: string): Finding => ({
  id: 'finalizer-owner-gone',
  severity: 'error',
  cause: 'finalizer:kiali.io/finalizer|kialis.kiali.io|absent',
  summary: `kiali.io/finalizer on kialis.kiali.io/kiali: leaked: no live actor can release it`,
  evidence: [],
  remedy: { commands: [patch(ns)], policy: 'force-finalizers: kiali.io/finalizer' },
  leaked: true,
});

const target = (name: string, over: Partial<TargetReport> = {}): TargetReport =>
  targetReport(name, {
    labels: { 'preview.example.com/pr': name.replace(/\D/g, '') },
    durationMs: 2_000,
    ...over,
  });

const report = (targets: TargetReport[]): RunReport =>
  runReport(targets, {
    context: { cluster: { context: 'prod-eu', server: 'https://k8s.example.com:6443' } },
    settings: { selector: 'preview.example.com/pr' },
    result: 'stuck',
    failures: ['2 namespace(s) still present: pr-7, pr-8'],
  });

const HOSTILE =
  'a note with <b>tags</b>, &amp; an escape \u001b[31mred\u001b[0m and\n::error::a workflow command';
/** How the hostile note shows: as typed, on one line, `::` broken (in its row, and in full below the table). */
const HOSTILE_SHOWN = /a note with <b>tags<\/b>, &amp; an escape/g;
const many = report([
  target('pr-7', { outcome: 'stuck', terminatingForMs: 300_000, findings: [leaked('pr-7')] }),
  target('pr-8', { outcome: 'stuck', terminatingForMs: 290_000, findings: [leaked('pr-8')] }),
  target('pr-9', { outcome: 'error', note: HOSTILE }),
  ...Array.from({ length: 14 }, (_, i) => target(`pr-${100 + i}`)),
]);

describe('the terminal rendering', () => {
  test.each([72, 100, 120, 200])('at %i columns: plain text, nothing wider than the terminal', (width) => {
    const text = renderText(many, { width, color: false }).replace(HOSTILE_SHOWN, '');
    const lines = text.split('\n');
    // A command is broken only between words; a JSON operation longer than a narrow line is the one exception.
    const tooWide = lines.filter((l) => cells(l) > width && !/^\s+\{"op"/.test(l));
    expect(tooWide).toEqual([]);
    if (width >= 100) expect(lines.filter((l) => cells(l) > width)).toEqual([]);
    expect(text).not.toMatch(/<\/?[a-z][^>]*>|&(#\d+|[a-z]+);|^\s*\|?\s*-{3,}\s*\|/m);
    expect(text).not.toContain('\u001b');
    expect(text).not.toMatch(/^::/m);
  });

  test('headline first, then the table, then the cause shared by two namespaces with one loop to paste', () => {
    const lines = renderText(many, { width: 120, color: false }).split('\n');
    expect(lines[0]).toBe('✗ Namespace teardown: 1 error, 2 stuck, 14 gone of 17 namespaces');
    expect(lines[1]).toBe('Cluster prod-eu at https://k8s.example.com:6443');
    expect(lines).toContain('… and 4 more gone');
    const head = lines.findIndex((l) => l.startsWith('NAMESPACE'));
    expect(lines[head]).toMatch(/^NAMESPACE\s+OUTCOME\s+FOR\s+WHY$/);
    // Columns line up: every row's outcome starts where the header's OUTCOME does.
    const col = lines[head]!.indexOf('OUTCOME');
    expect(lines[head + 1]!.slice(col)).toMatch(/^error\s/);
    const loop = lines.findIndex((l) => l.trim().startsWith('for ns in pr-7 pr-8; do'));
    expect(loop).toBeGreaterThan(head);
    // The command lines hold nothing but the command: no prompt, no markup, wrapped with ` \`.
    expect(lines[loop]).toBe('   for ns in pr-7 pr-8; do');
    expect(lines[loop + 1]).toMatch(
      /^ {5}kubectl --context prod-eu patch kialis\.kiali\.io kiali -n "\$ns" --type=json/,
    );
    expect(lines.slice(loop).find((l) => l.trim() === 'done')).toBeDefined();
  });

  test('one line per namespace, the name first (awk $1); a reason cut there is said in full below unless a cause says it', () => {
    const lines = renderText(many, { width: 80, color: false }).split('\n');
    expect(lines.filter((l) => cells(l) > 80)).toEqual([]);
    const head = lines.findIndex((l) => l.startsWith('NAMESPACE'));
    const end = lines.findIndex((l, i) => i > head && l === '');
    const rows = lines.slice(head + 1, end).filter((l) => !l.startsWith('…'));
    expect(rows.map((l) => l.split(/\s+/)[0])).toEqual([
      'pr-9',
      'pr-7',
      'pr-8',
      ...Array.from({ length: 10 }, (_, i) => `pr-${100 + i}`),
    ]);
    expect(lines.join('\n')).not.toContain('preview.example.com/pr=7');
    const full = lines.indexOf('Why, in full');
    expect(full).toBe(end + 1);
    expect(lines[full + 1]).toMatch(/^pr-9: a note with <b>tags<\/b>/);
    // The stuck ones are cut too, but "Fix first" says their verdict in full.
    expect(lines.slice(full + 1).filter((l) => /^pr-[78]: /.test(l))).toEqual([]);
  });

  test('--show-labels: a LABELS column, last and whole, as kubectl prints it', () => {
    const lines = renderText(many, { width: 80, color: false, showLabels: true }).split('\n');
    const head = lines.findIndex((l) => l.startsWith('NAMESPACE'));
    expect(lines[head]).toMatch(/^NAMESPACE\s+OUTCOME\s+FOR\s+WHY\s+LABELS$/);
    const row = lines.find((l) => l.startsWith('pr-7 '))!;
    expect(row).toMatch(/ preview\.example\.com\/pr=7$/);
    expect(row.split(/\s+/)[0]).toBe('pr-7');
  });

  test('cluster text is inert: tags shown as typed, escape codes made visible, line breaks made spaces', () => {
    const text = renderText(many, { width: 120, color: false });
    expect(text).toContain('<b>tags</b>,');
    expect(text).not.toContain('\u001b[31m');
    // The note wraps in its column: read it with the line breaks and the column's indent taken out.
    expect(text.replace(/\s+/g, ' ')).toContain('and :\u200b:error:\u200b:a workflow command');
  });

  test('C1 controls and bidirectional overrides are shown as escapes, with colour and without', () => {
    const note =
      'CSI \u009b2J, OSC \u009d0;x\u009c, ESC \u001b]52;c;eA==\u0007, RLO txt.\u202eexe \u2066x\u2069';
    const hostile = report([target('pr-1', { outcome: 'error', note })]);
    for (const color of [false, true]) {
      // eslint-disable-next-line no-control-regex
      const text = renderText(hostile, { width: 200, color }).replace(/\u001b\[[0-9;]*m/g, '');
      // eslint-disable-next-line no-control-regex
      expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
      expect(text).toContain(
        'CSI \\u009b2J, OSC \\u009d0;x\\u009c, ESC \\u001b]52;c;eA==\\u0007, RLO txt.\\u202eexe',
      );
    }
  });

  test('the forcing that would be allowed is said in flags, as the command line takes it', () => {
    const lines = renderText(many, { width: 120, color: false }).split('\n');
    expect(lines).toContain(
      '   The command line can do this itself: --force on --force-finalizers kiali.io/finalizer',
    );
    expect(lines.join('\n')).not.toContain('force-finalizers: kiali.io/finalizer');
    // A glob is quoted, so a shell passes it as typed.
    const glob = leaked('pr-7');
    glob.remedy = { ...glob.remedy, policy: 'force-finalizers: kiali.io/*, example.com/x' };
    const one = renderText(report([target('pr-7', { outcome: 'stuck', findings: [glob] })]), {
      width: 120,
      color: false,
    });
    expect(one).toContain("--force on --force-finalizers 'kiali.io/*,example.com/x'");
  });

  test('colour only when asked: the same words either way', () => {
    const plain = renderText(many, { width: 120, color: false });
    const coloured = renderText(many, { width: 120, color: true });
    expect(coloured).toContain('\u001b[');
    // eslint-disable-next-line no-control-regex
    expect(coloured.replace(/\u001b\[[0-9;]*m/g, '')).toBe(plain);
  });
});

describe('what the identity could not read, on stdout', () => {
  const generic: Finding = {
    id: 'controller-conditions',
    severity: 'warning',
    cause: 'controller-conditions:remaining',
    summary: 'Namespace controller on pr-7: remaining: 1 kialis.kiali.io',
    evidence: [],
    remedy: { commands: [] },
    leaked: false,
    generic: true,
  };
  const unknownOwner: Finding = {
    ...leaked('pr-8'),
    id: 'finalizer-owner-gone',
    verdict: 'unknown',
    summary: 'kiali.io/finalizer on kialis.kiali.io/kiali: whether its controller runs is unknown',
  };
  const unread = [{ what: 'list kialis.kiali.io', error: '403 Forbidden: kialis.kiali.io is forbidden' }];

  test('each read that failed, by namespace, and the verdicts it leaves unknown', () => {
    const text = renderText(
      report([
        target('pr-7', { outcome: 'stuck', findings: [generic], unread }),
        target('pr-8', { outcome: 'stuck', findings: [unknownOwner], unread }),
      ]),
      { width: 120, color: false },
    );
    const lines = text.split('\n');
    const at = lines.indexOf('Not read, so unknown to this diagnosis');
    expect(at).toBeGreaterThan(lines.indexOf('Fix first'));
    expect(lines.slice(at + 1, at + 5)).toEqual([
      'pr-7: list kialis.kiali.io — 403 Forbidden: kialis.kiali.io is forbidden',
      '  Unknown: what holds pr-7, and whether anything will release it: no finding names a culprit, only the namespace',
      "    controller's words say what remains",
      'pr-8: list kialis.kiali.io — 403 Forbidden: kialis.kiali.io is forbidden',
    ]);
    expect(lines[at + 5]).toBe(
      '  Unknown: kiali.io/finalizer on kialis.kiali.io/kiali: whether its controller runs is unknown',
    );
  });

  test('everything read: no such block', () => {
    const text = renderText(report([target('pr-7', { outcome: 'stuck', findings: [generic] })]), {
      width: 120,
      color: false,
    });
    expect(text).not.toContain('Not read');
  });
});
