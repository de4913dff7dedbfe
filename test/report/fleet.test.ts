import { mergeFleet, type Found } from '../../src/fleet/merge.js';
import type { FleetReport } from '../../src/model/fleet.js';
import { layoutScript } from '../../src/report/commands.js';
import { planFleetAnnotations } from '../../src/report/fleet-annotations.js';
import { fleetCauses, fleetScript } from '../../src/report/fleet-causes.js';
import { renderFleetComment } from '../../src/report/fleet-comment.js';
import { fleetJson } from '../../src/report/fleet-json.js';
import { renderFleetSummary } from '../../src/report/fleet-markdown.js';
import { fleetOutputsOf, shellSafeJson } from '../../src/report/fleet-outputs.js';
import { clusterReport } from '../helpers/fleet.js';
import { assertWellFormed } from '../helpers/harness.js';

const RUN = 'https://github.com/acme/shop/actions/runs/7';
const names = (prefix: string, n: number): string[] =>
  Array.from({ length: n }, (_, i) => `${prefix}-${i + 1}`);

/** `clusters` clusters of `perCluster` namespaces, `stuck` of them on a leaked finalizer; the last `unknown` never ran. */
function fleetOf(clusters: number, perCluster: number, stuck: number, unknown = 0): FleetReport {
  const expected = names('cluster', clusters);
  const found: Found[] = expected.slice(0, clusters - unknown).map((name) => ({
    source: `reports/namespace-teardown-${name}/report.json`,
    checked: {
      report: clusterReport(name, {
        stuck: names('preview-pr', stuck),
        gone: names('preview-pr', perCluster).slice(stuck),
      }),
    },
  }));
  return mergeFleet({
    expected,
    found,
    failOn: 'leaked',
    context: { repository: 'acme/shop', runUrl: RUN, serverUrl: 'https://github.com' },
    now: 0,
  });
}

describe('the fleet at scale: 50 clusters × 200 namespaces', () => {
  const fleet = fleetOf(50, 200, 10, 2);

  test('the summary stays within 100 KB, names what it cut, and keeps every cluster row', () => {
    const summary = renderFleetSummary(fleet, '/runner/temp/fleet.json');
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(100_000);
    assertWellFormed(summary, RUN);
    expect(summary).toMatch(
      /> ✂️ \*\*Cut to keep the summary short \(100 KB\):\*\* .*rows of the table of namespaces gone.* Everything is in the JSON report: <code>\/runner\/temp\/fleet.json<\/code>\./,
    );
    for (const c of fleet.clusters) expect(summary).toContain(`| **${c.name}** |`);
    expect(summary).toContain('**1. Same cause in 48 clusters, 480 namespaces (480 objects):**');
    expect(summary).toContain('· and 40 more clusters');
  });

  test("one cause's script reaches whole clusters only, and counts the rest", () => {
    const cause = fleetCauses(fleet)[0]!;
    const script = fleetScript(cause.members, (c) => c.command, layoutScript)!;
    expect(script.length).toBeLessThan(9_000);
    const blocks = script.split('\n\n');
    expect(blocks.at(-1)).toMatch(
      /^# … and \d+ more cluster\(s\): see their own job summaries or the JSON report$/,
    );
    for (const block of blocks.slice(0, -1))
      expect(block).toMatch(/^# cluster-\d+\nfor ns in [^]+; do\n[^]*\ndone$/);
  });

  test('the PR comment fits in a GitHub comment', () => {
    const comment = renderFleetComment(fleet);
    expect(comment.length).toBeLessThanOrEqual(65_536 - 100);
    assertWellFormed(comment, RUN);
    expect(comment).toContain(`[Workflow run and full summary](${RUN})`);
  });

  test("annotations stay within GitHub's 10 per level; the clusters nothing is known of come first", () => {
    const { emit, overflow } = planFleetAnnotations(fleet);
    // The two unknown clusters, then the one cause across 48 clusters (not one per namespace or per cluster).
    expect(emit.map((a) => [a.level, a.title.slice(0, 41)])).toEqual([
      ['error', 'Cluster cluster-49: unknown'],
      ['error', 'Cluster cluster-50: unknown'],
      ['error', '480 namespace(s) stuck in 48 cluster(s): '],
    ]);
    expect(emit[2]!.message).toMatch(/The same for cluster-2, .* and 39 more: see the summary\.$/);
    expect(overflow).toBe(0);
    const planned = planFleetAnnotations(fleetOf(30, 2, 0, 30));
    expect(planned.emit.filter((a) => a.level === 'error')).toHaveLength(9); // one kept for the failure line
    expect(planned.overflow).toBe(21);
  });

  test('the JSON report is the text JSON.stringify writes, made a target at a time', () => {
    expect([...fleetJson(fleet)].join('')).toBe(JSON.stringify(fleet, null, 2));
    const empty = mergeFleet({ expected: [], found: [], failOn: 'never', context: {}, now: 0 });
    expect([...fleetJson(empty)].join('')).toBe(JSON.stringify(empty, null, 2));
  });

  test('outputs: the worst result and, per cluster, its result and what is still there', () => {
    const small = fleetOf(3, 3, 1, 1);
    const outputs = fleetOutputsOf(small, '/tmp/f.json');
    expect(outputs.result).toBe('unknown');
    expect(JSON.parse(outputs.clusters)).toEqual({
      'cluster-1': { result: 'stuck', stuck: ['preview-pr-1'], forced: [] },
      'cluster-2': { result: 'stuck', stuck: ['preview-pr-1'], forced: [] },
      'cluster-3': { result: 'unknown', stuck: [], forced: [] },
    });
  });

  test('a cluster named __proto__ is an output key like any other', () => {
    const odd = mergeFleet({
      expected: ['__proto__'],
      found: [{ source: 'r.json', checked: { report: clusterReport('__proto__') } }],
      failOn: 'leaked',
      context: {},
      now: 0,
    });
    expect(Object.keys(JSON.parse(fleetOutputsOf(odd, '').clusters))).toEqual(['__proto__']);
  });

  test('the clusters output holds no character a shell reads: every other is a \\u escape, the same JSON', () => {
    // Two reports of one name from two servers are told apart as `default (host:port)`: a space and parentheses.
    const two = mergeFleet({
      expected: [],
      found: ['a', 'b'].map((h) => ({
        source: `${h}.json`,
        checked: { report: clusterReport('default', { server: `${h}.example.com:6443` }) },
      })),
      failOn: 'leaked',
      context: {},
      now: 0,
    });
    const out = fleetOutputsOf(two, '').clusters;
    expect(out).toMatch(/^[A-Za-z0-9{}[\]":,._/@+\\-]+$/);
    expect(out).toContain('"default\\u0020\\u0028a.example.com:6443\\u0029"');
    expect(Object.keys(JSON.parse(out))).toEqual([
      'default (a.example.com:6443)',
      'default (b.example.com:6443)',
    ]);
    expect(shellSafeJson({ "x'$(id)`;|&<>é": ['\n"\\'] })).toBe(
      '{"x\\u0027\\u0024\\u0028id\\u0029\\u0060\\u003b\\u007c\\u0026\\u003c\\u003e\\u00e9":["\\n\\"\\\\"]}',
    );
  });
});

describe('scripts for many clusters', () => {
  test('a comment line is never wrapped: a ` \\` in a shell comment does not continue it, the next line would run', () => {
    const comment = `# ${'a-very-long-cluster-name-'.repeat(5)}: its run recorded no kubeconfig context`;
    const laid = layoutScript(`${comment}\nkubectl get ns`);
    expect(laid.split('\n')[0]).toBe(comment);
  });

  test('a cluster whose run recorded no context gets a warning line, not a command for the current cluster', () => {
    const report = clusterReport('in-cluster', { stuck: ['preview-pr-1'] });
    report.context.cluster = { name: 'in-cluster', server: '10.0.0.1:443' };
    const fleet = mergeFleet({
      expected: [],
      found: [{ source: 'r.json', checked: { report } }],
      failOn: 'leaked',
      context: {},
      now: 0,
    });
    const script = fleetScript(fleetCauses(fleet)[0]!.members, (c) => c.command, layoutScript)!;
    expect(script.split('\n')[0]).toBe(
      '# in-cluster: its run recorded no kubeconfig context; switch to that cluster first',
    );
    expect(script).not.toContain('--context');
  });
});
