/**
 * The fence on targets in the action (node dist/index.js over the fake API server): a named target without the
 * preview label is refused before any write, and a person reads why in the annotations, the summary, the outputs
 * and the report; without any label the step refuses its input.
 */
import { FakeCluster } from '../fake-apiserver/index.js';
import { FAST, runBundle } from '../helpers/harness.js';

const LABEL = 'preview.example.com/pr';

describe('the action fences its targets', () => {
  let cluster: FakeCluster;
  let kubeconfig: string;
  beforeEach(async () => {
    cluster = new FakeCluster({ controller: FAST });
    cluster.addNamespace('team-a', { labels: { team: 'a' } });
    cluster.addNamespace('preview-42', { labels: { [LABEL]: '42' } });
    ({ kubeconfig } = await cluster.start());
  });
  afterEach(() => cluster.stop());

  test('namespaces: team-a, preview-42 with target-label: team-a refused and untouched, preview-42 gone', async () => {
    const from = cluster.requests.length;
    const run = await runBundle({
      kubeconfig,
      namespaces: 'team-a preview-42',
      'target-label': LABEL,
      timeout: '20s',
    });
    expect(run.code).toBe(1);
    expect(cluster.namespace('team-a')?.metadata?.deletionTimestamp).toBeUndefined();
    expect(cluster.namespace('preview-42')).toBeUndefined();
    expect(
      cluster.requests.slice(from).filter((r) => r.method !== 'GET' && r.path.includes('team-a')),
    ).toEqual([]);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toEqual([
      `::error title=Namespace team-a refused::no label ${LABEL} (target-label): not a preview namespace, not touched`,
      `::error::Namespace teardown failed: namespace(s) without the target label ${LABEL} refused, not touched: team-a`,
    ]);
    expect(run.outputs).toMatchObject({ refused: '["team-a"]', deleted: '["preview-42"]', stuck: '[]' });
    expect(run.summary).toContain('## ❌ Namespace teardown: 1 refused, 1 gone of 2 namespaces');
    expect(run.summary).toMatch(/^\| team-a \| <code>team=a<\/code> \| ⛔ refused, not touched \| no label/m);
    expect(run.report?.targets.find((t) => t.name === 'team-a')).toMatchObject({
      outcome: 'refused',
      missingLabel: LABEL,
    });
  }, 60_000);

  test('neither target-label nor sweep-pr-label: the step refuses its input, before any cluster call', async () => {
    cluster.requests.splice(0);
    const run = await runBundle({ kubeconfig, namespaces: 'team-a', 'target-label': '' });
    expect(run.code).toBe(1);
    const errors = run.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/Input "target-label" is empty, and so is "sweep-pr-label"/);
    expect(errors[0]).toMatch(/"target-label: none"/);
    expect(cluster.requests).toEqual([]);
    expect(cluster.namespace('team-a')).toBeDefined();
  }, 60_000);
});
