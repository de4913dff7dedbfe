import { reportJson } from '../../src/report/json.js';
import { runReport, targetReport } from '../helpers/reports.js';

const text = (r: Parameters<typeof reportJson>[0]): string => [...reportJson(r)].join('');

describe('the JSON report written in pieces', () => {
  it('is the text of JSON.stringify with two spaces, control characters escaped, whatever the targets hold', () => {
    const hostile = targetReport('pr-7', {
      outcome: 'stuck',
      note: 'line\n"quoted" \\ back\u2028sep',
      labels: { app: 'x', 'empty/': '' },
      uid: undefined,
      conditions: [{ type: 'NamespaceContentRemaining', status: 'True', message: 'a\tb' }],
    });
    for (const report of [
      runReport([]),
      runReport([targetReport('only')]),
      runReport([targetReport('a'), hostile, targetReport('c', { findings: [] })], { error: 'x' }),
      runReport(
        Array.from({ length: 300 }, (_, i) => targetReport(`pr-${i}`)),
        { cancelled: true },
      ),
    ]) {
      // JSON.stringify leaves U+2028 raw; the report writes its escape, and reads back the same.
      expect(text(report)).toBe(JSON.stringify(report, null, 2).replace(/\u2028/g, '\\u2028'));
      expect(JSON.parse(text(report))).toEqual(JSON.parse(JSON.stringify(report)));
    }
  });

  it('never holds more than one target in a piece', () => {
    const report = runReport(Array.from({ length: 50 }, (_, i) => targetReport(`ns-${i}`)));
    const pieces = [...reportJson(report)];
    expect(pieces.filter((p) => p.includes('"name": "ns-')).length).toBe(50);
    expect(Math.max(...pieces.map((p) => (p.match(/"name": "ns-/g) ?? []).length))).toBe(1);
  });
});
