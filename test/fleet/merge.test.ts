import { commonContext, mergeFleet, NO_REPORT, worstOf, type Found } from '../../src/fleet/merge.js';
import { checkReport } from '../../src/fleet/validate.js';
import type { RunReport } from '../../src/model/run.js';
import { renderFleetSummary } from '../../src/report/fleet-markdown.js';
import { renderFleetText } from '../../src/report/fleet-text.js';
import type { FailOn } from '../../src/settings/settings.js';
import { clusterReport } from '../helpers/fleet.js';
import { targetReport } from '../helpers/reports.js';

const found = (source: string, report: RunReport): Found => ({ source, checked: { report } });
const merge = (expected: string[], files: Found[], failOn: FailOn = 'leaked') =>
  mergeFleet({ expected, found: files, failOn, context: {}, now: Date.parse('2026-11-22T11:00:00Z') });

const eu = clusterReport('eu', { gone: ['preview-pr-1'] });
const us = clusterReport('us', { stuck: ['preview-pr-1', 'preview-pr-2'] });

describe('merging cluster reports into one answer', () => {
  test('every expected cluster is there, in the list order; one without a report is unknown, never dropped', () => {
    const fleet = merge(['us', 'sa', 'eu'], [found('a/eu.json', eu), found('b/us.json', us)]);
    expect(fleet.clusters.map((c) => [c.name, c.result, c.source ?? c.why])).toEqual([
      ['us', 'stuck', 'b/us.json'],
      ['sa', 'unknown', NO_REPORT],
      ['eu', 'clean', 'a/eu.json'],
    ]);
    expect(fleet.result).toBe('unknown');
    expect(fleet.failures).toEqual([
      'us: 2 namespace(s) still present: preview-pr-1, preview-pr-2',
      'us: finalizers leaked in: preview-pr-1, preview-pr-2',
      `sa: unknown, ${NO_REPORT}`,
    ]);
  });

  test("a corrupt report is named and fails the check; its cluster can't be told, so the expected one is unknown", () => {
    const corrupt: Found = { source: 'r/eu.json', checked: checkReport('{"version": 1, "targ') };
    const fleet = merge(['eu', 'us'], [corrupt, found('r/us.json', us)]);
    expect(fleet.clusters[0]).toMatchObject({ name: 'eu', result: 'unknown', why: NO_REPORT });
    expect(fleet.problems).toEqual([{ source: 'r/eu.json', problem: expect.stringMatching(/^not JSON/) }]);
    expect(fleet.failures).toContain(`report r/eu.json is unusable: ${fleet.problems[0]!.problem}`);
    expect(fleet.failures).toContain(`eu: unknown, ${NO_REPORT}`);
  });

  test('a report of another version makes its own cluster unknown, saying why, and is not counted twice', () => {
    const v2: Found = { source: 'r/us.json', checked: checkReport(JSON.stringify({ ...us, version: 2 })) };
    const fleet = merge(['eu', 'us'], [found('r/eu.json', eu), v2]);
    expect(fleet.clusters[1]).toMatchObject({
      name: 'us',
      result: 'unknown',
      why: expect.stringMatching(
        /^its report r\/us.json is unusable: report version 2; this merge reads version 1/,
      ),
    });
    expect(fleet.failures).toEqual([`us: unknown, ${fleet.clusters[1]!.why}`]);
  });

  test.each<{ failOn: FailOn; failures: number }>([
    { failOn: 'leaked', failures: 3 },
    { failOn: 'stuck', failures: 1 },
    { failOn: 'never', failures: 0 },
  ])('fail-on $failOn applies to the fleet', ({ failOn, failures }) => {
    // eu: gone, but its finalizer leaked on the way (fails only `leaked`); us: one still stuck.
    const leakedButGone = clusterReport('eu', { stuck: ['preview-pr-9'] });
    leakedButGone.targets[0]!.outcome = 'gone';
    const stuck = clusterReport('us', { stuck: ['preview-pr-1'] });
    const fleet = merge(['eu', 'us'], [found('eu.json', leakedButGone), found('us.json', stuck)], failOn);
    expect(fleet.failures).toHaveLength(failures);
    expect(fleet.result).toBe('stuck');
  });

  test('a re-run job: the report that finished last is used, and the note names both', () => {
    const early = clusterReport('eu', { stuck: ['preview-pr-1'], finishedAt: '2026-11-22T10:05:00.000Z' });
    const late = clusterReport('eu', { gone: ['preview-pr-1'], finishedAt: '2026-11-22T10:20:00.000Z' });
    const fleet = merge(['eu'], [found('1/eu.json', early), found('2/eu.json', late)]);
    expect(fleet.clusters).toHaveLength(1);
    expect(fleet.clusters[0]!.source).toBe('2/eu.json');
    expect(fleet.notes).toEqual([
      'Cluster "eu" has more than one report: 2/eu.json (finished 2026-11-22T10:20:00.000Z) is used, not 1/eu.json (finished 2026-11-22T10:05:00.000Z).',
    ]);
  });

  test('one name from two API servers is two clusters, told apart by server; a cluster not listed is kept', () => {
    const a = clusterReport('default', { server: 'a.example.com:6443' });
    const b = clusterReport('default', { server: 'b.example.com:6443' });
    const fleet = merge([], [found('a.json', a), found('b.json', b)]);
    expect(fleet.clusters.map((c) => c.name)).toEqual([
      'default (a.example.com:6443)',
      'default (b.example.com:6443)',
    ]);
    expect(fleet.notes[0]).toMatch(/give each job its own `cluster-name`/);
    const extra = merge(['eu'], [found('eu.json', eu), found('us.json', us)]);
    expect(extra.clusters.map((c) => c.name)).toEqual(['eu', 'us']);
    expect(extra.notes).toEqual(['Cluster "us" reported but is not in the `clusters` list.']);
  });

  test('a report written before clusters had names goes by its context', () => {
    const old = clusterReport('x');
    old.context.cluster = { context: 'kind-old', server: 'old:6443' };
    expect(merge([], [found('old.json', old)]).clusters[0]!.name).toBe('kind-old');
  });

  test('the worst result wins: clean < forced < stuck < error < unknown', () => {
    expect(worstOf([])).toBe('clean');
    expect(worstOf(['forced', 'clean'])).toBe('forced');
    expect(worstOf(['stuck', 'error', 'forced'])).toBe('error');
    expect(worstOf(['error', 'unknown', 'clean'])).toBe('unknown');
    expect(worstOf(['skipped', 'skipped'])).toBe('skipped');
    expect(worstOf(['skipped', 'clean'])).toBe('clean');
  });

  test('outside a workflow, the context is what every report agrees on', () => {
    const pr = { ...eu, context: { ...eu.context, pullRequest: { number: 42 } } };
    expect(commonContext([pr, { ...us, context: { ...us.context, pullRequest: { number: 42 } } }])).toEqual({
      repository: 'acme/shop',
      pullRequest: { number: 42 },
    });
    expect(commonContext([pr, us])).toEqual({ repository: 'acme/shop' });
  });

  test('targets are counted once each, wherever they are', () => {
    const fleet = merge(['eu', 'us'], [found('eu.json', eu), found('us.json', us)]);
    expect(fleet.clusters.flatMap((c) => c.report?.targets ?? [])).toEqual([
      targetReport('preview-pr-1', { durationMs: 2_000 }),
      ...us.targets,
    ]);
  });
});

describe('a cluster whose wait ended settled', () => {
  const settledReport = (): RunReport => {
    const r = clusterReport('eu', { stuck: ['preview-pr-1'], gone: ['preview-pr-2'] });
    r.wait = { mode: 'settled', ended: 'settled', afterMs: 16_000 };
    r.targets[0]!.terminatingForMs = 16_000;
    r.targets[0]!.settled = {
      at: '2026-11-22T10:00:16.000Z',
      afterMs: 16_000,
      quietMs: 10_500,
      verdicts: ['leaked'],
      reason: 'kiali.io/finalizer on kialis.kiali.io objects: leaked: no live actor can release it',
    };
    return r;
  };

  test("the merge shows its stuck targets with the settled reason, read back from the report's JSON", () => {
    const checked = checkReport(JSON.stringify(settledReport()));
    expect('report' in checked).toBe(true);
    const fleet = mergeFleet({
      expected: ['eu', 'us'],
      found: [{ source: 'eu.json', checked }, found('us.json', us)],
      failOn: 'leaked',
      context: {},
      now: Date.parse('2026-11-22T11:00:00Z'),
    });
    const summary = renderFleetSummary(fleet);
    expect(summary).toMatch(/\| \*\*eu\*\* \| ❌ stuck \| [^|]+ \| [^|]*wait settled after 16s \|/);
    expect(summary).toMatch(
      /\| eu \| preview-pr-1 \| [^|]* \| 16s · settled \| .* · settled: kiali.io\/finalizer on kialis.kiali.io objects&#58; leaked&#58; no live actor can release it \|/,
    );
    const text = renderFleetText(fleet, { width: 300, color: false });
    expect(text).toMatch(/eu +stuck .* wait settled after 16s/);
    expect(text).toMatch(
      /eu +preview-pr-1 +stuck +16s, settled +.* · settled: kiali.io\/finalizer on kialis.kiali.io objects: leaked: no live actor can release it/,
    );
  });

  test('a malformed "settled" or "wait" makes the report unusable, named, never rendered', () => {
    const bad = settledReport() as unknown as { targets: { settled: unknown }[]; wait: unknown };
    bad.targets[0]!.settled = { afterMs: '16s', reason: 7 };
    expect(checkReport(JSON.stringify(bad))).toMatchObject({
      problem: expect.stringContaining('has a malformed "settled" or "notSettled"'),
    });
    const wait = settledReport() as unknown as { wait: unknown };
    wait.wait = { ended: 'whenever', afterMs: 1 };
    expect(checkReport(JSON.stringify(wait))).toMatchObject({
      problem: expect.stringContaining('"wait" is malformed'),
    });
  });
});
