import { KubeConfig } from '@kubernetes/client-node';
import { createKube } from '../../src/kube/client.js';
import type { NamespaceState } from '../../src/model/cluster.js';
import type { PullState } from '../../src/model/pulls.js';
import type { RunReport } from '../../src/model/run.js';
import { renderSummary } from '../../src/report/markdown.js';
import { outputsOf } from '../../src/report/outputs.js';
import { renderText } from '../../src/report/text.js';
import { readSettings } from '../../src/settings/settings.js';
import { decideAll } from '../../src/sweep/sweep-targets.js';
import { fenceRefusal } from '../../src/targets/fence.js';
import { FakeCluster, GVR, type RequestRecord } from '../fake-apiserver/index.js';
import { FAST, runEngine } from '../helpers/harness.js';

const LABEL = 'preview.example.com/pr';

const writesTo = (requests: RequestRecord[], ns: string): string[] =>
  requests
    .filter((r) => r.method !== 'GET' && r.path.includes(`/namespaces/${ns}`))
    .map((r) => `${r.method} ${r.path}`);
/** Markdown-escaped text back to what a person reads. */
const unescaped = (text: string): string =>
  text.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n))).replace(/&amp;/g, '&');
const outcomes = (report: RunReport): Record<string, string> =>
  Object.fromEntries(report.targets.map((t) => [t.name, t.outcome]));

describe('the fence on targets, over HTTPS', () => {
  let c: FakeCluster;
  afterEach(() => c?.stop());

  /** `plain` has no labels but a team's; `labelled` carries the preview label (with `value`). */
  async function two(plain: string, labelled: string, value = '1'): Promise<string> {
    c = new FakeCluster({ controller: FAST });
    c.addNamespace(plain, { labels: { team: 'a' } });
    c.addNamespace(labelled, { labels: { team: 'a', [LABEL]: value } });
    return (await c.start()).kubeconfig;
  }

  test.each([
    { name: 'as named', plain: 'team-a', labelled: 'pr-1' },
    { name: 'renamed (the verdict rests on the label, not on a name)', plain: 'pr-2', labelled: 'team-b' },
  ])(
    'a named target without the label is refused before any write, the other deleted: $name',
    async ({ plain, labelled }) => {
      const kubeconfig = await two(plain, labelled);
      const from = c.requests.length;
      const { report } = await runEngine(
        kubeconfig,
        { namespaces: `${plain},${labelled}`, 'target-label': LABEL, timeout: '20s' },
        { settle: { cluster: c } },
      );
      expect(outcomes(report)).toEqual({ [plain]: 'refused', [labelled]: 'gone' });
      expect(writesTo(c.requests.slice(from), plain)).toEqual([]);
      expect(c.namespace(plain)).toBeDefined();
      const t = report.targets.find((x) => x.name === plain)!;
      expect(t.missingLabel).toBe(LABEL);
      expect(t.note).toBe(`no label ${LABEL} (target-label): not a preview namespace, not touched`);
      expect(report.settings.targetLabel).toBe(LABEL);
      expect(report.failures).toEqual([
        `namespace(s) without the target label ${LABEL} refused, not touched: ${plain}`,
      ]);
      // Where a person reads it: the summary, the outputs, the text at a prompt.
      const summary = unescaped(renderSummary(report));
      expect(summary).toContain(`**The check fails:** namespace(s) without the target label ${LABEL}`);
      expect(summary).toMatch(new RegExp(`\\| ${plain} \\| .* \\| ⛔ refused, not touched \\| no label`));
      expect(summary).toContain(`target-label <code>${LABEL}</code>`);
      expect(outputsOf(report, '').refused).toBe(JSON.stringify([plain]));
      expect(renderText(report, { width: 120, color: false })).toMatch(
        new RegExp(`^${plain} +refused +no label ${LABEL.replace(/\./g, '\\.')}`, 'm'),
      );
    },
    60_000,
  );

  test('the label added (the evidence flipped): the same namespace is deleted', async () => {
    const kubeconfig = await two('team-x', 'team-a', '');
    const { report } = await runEngine(
      kubeconfig,
      { namespaces: 'team-a', 'target-label': LABEL, timeout: '20s' },
      { settle: { cluster: c } },
    );
    // The key is what marks a preview, as in the admission policy's DoesNotExist: an empty value carries it.
    expect(outcomes(report)).toEqual({ 'team-a': 'gone' });
  }, 60_000);

  test('a selector that can match a namespace without the label: that match is refused, the labelled one goes', async () => {
    const kubeconfig = await two('team-a', 'pr-1');
    const from = c.requests.length;
    const { report } = await runEngine(
      kubeconfig,
      { selector: 'team=a', 'target-label': LABEL, timeout: '20s' },
      { settle: { cluster: c, names: ['team-a', 'pr-1'] } },
    );
    expect(outcomes(report)).toEqual({ 'team-a': 'refused', 'pr-1': 'gone' });
    expect(writesTo(c.requests.slice(from), 'team-a')).toEqual([]);
  }, 60_000);

  test('target-label: none lets the same run delete both', async () => {
    const kubeconfig = await two('team-a', 'pr-1');
    const { report } = await runEngine(
      kubeconfig,
      { selector: 'team=a', 'target-label': 'none', timeout: '20s' },
      { settle: { cluster: c, names: ['team-a', 'pr-1'] } },
    );
    expect(outcomes(report)).toEqual({ 'team-a': 'gone', 'pr-1': 'gone' });
    expect(report.settings.targetLabel).toBeUndefined();
  }, 60_000);

  test('scope all-terminating with force on: an unlabelled Terminating namespace is refused and not forced; without force it is reported', async () => {
    c = new FakeCluster({ controller: FAST });
    c.addCRD({ group: 'kiali.io', version: 'v1alpha1', kind: 'Kiali', plural: 'kialis' });
    for (const [ns, labels] of [
      ['team-a', { team: 'a' }],
      ['pr-1', { [LABEL]: '1' }],
    ] as const) {
      c.addNamespace(ns, { labels });
      c.addObject(GVR.kialis, { namespace: ns, name: 'kiali', finalizers: ['kiali.io/finalizer'] });
    }
    const { kubeconfig } = await c.start();
    const kc = new KubeConfig();
    kc.loadFromString(kubeconfig);
    const kube = createKube(kc);
    for (const ns of ['team-a', 'pr-1']) await kube.deleteNamespace(ns);
    await kube.close();
    const from = c.requests.length;
    const forced = await runEngine(
      kubeconfig,
      {
        scope: 'all-terminating',
        force: 'on',
        'force-after': '0s',
        'force-finalizers': 'kiali.io/*',
        'target-label': LABEL,
        timeout: '20s',
      },
      { settle: { cluster: c, names: ['team-a', 'pr-1'] } },
    );
    expect(outcomes(forced.report)).toEqual({ 'team-a': 'refused', 'pr-1': 'forced' });
    expect(writesTo(c.requests.slice(from), 'team-a')).toEqual([]);
    expect(c.namespace('team-a')).toBeDefined();
    // Without force nothing is written: no label is needed, and team-a is diagnosed like any other.
    const looked = await runEngine(
      kubeconfig,
      { scope: 'all-terminating', 'target-label': '', timeout: '3s' },
      { settle: { cluster: c, names: ['team-a'] } },
    );
    expect(outcomes(looked.report)).toEqual({ 'team-a': 'stuck' });
  }, 60_000);
});

describe('the fence, pure', () => {
  const ns = (labels: Record<string, string | undefined>): NamespaceState => ({
    name: 'x',
    uid: 'u',
    phase: 'Active',
    labels: labels as Record<string, string>,
    resourceVersion: '1',
    metadataFinalizers: [],
    specFinalizers: [],
    conditions: [],
  });

  test.each([
    { name: 'no label fences the run', label: undefined, labels: {}, refused: false },
    { name: 'the key with a value', label: LABEL, labels: { [LABEL]: '7' }, refused: false },
    { name: 'the key with an empty value', label: LABEL, labels: { [LABEL]: '' }, refused: false },
    { name: 'another key only', label: LABEL, labels: { team: 'a' }, refused: true },
    { name: 'the value as a key is not the key', label: LABEL, labels: { '7': LABEL }, refused: true },
    { name: 'a prototype name is no label', label: 'constructor', labels: {}, refused: true },
  ])('$name', ({ label, labels, refused }) => {
    expect(fenceRefusal(label, ns(labels)) !== undefined).toBe(refused);
  });

  test('the sweep marks a candidate that would go without the target label, and the plan says so', () => {
    const settings = readSettings(
      (name) =>
        ({
          sweep: 'plan',
          selector: 'team=a',
          'sweep-pr-label': LABEL,
          'sweep-max-age': '1h',
          'sweep-repository': 'acme/shop',
          'github-token': 'ghs_x',
        })[name] ?? '',
    );
    const old = { ...ns({ team: 'a' }), name: 'team-a', creationTimestamp: '2026-01-01T00:00:00Z' };
    const pulls = new Map<number, PullState>();
    const [entry] = decideAll(
      settings,
      settings.sweep!,
      [old],
      pulls,
      Date.parse('2026-11-01T00:00:00Z'),
      '',
    );
    expect(entry).toMatchObject({ namespace: 'team-a', decision: 'go', missingLabel: LABEL });
  });
});
