/** The CLI's `--dry-run`: the plan on stdout, nothing changed, and the fence refusing as a real run would. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeCluster, PREVIEW_LABEL } from '../fake-apiserver/index.js';
import { dryRunAsServerReadsIt, stored } from '../helpers/cluster-state.js';
import { FAST, runCli } from '../helpers/harness.js';
import { tempDir } from '../helpers/temp.js';

const LABEL = PREVIEW_LABEL.key;

async function started(cluster: FakeCluster): Promise<string> {
  const { kubeconfig } = await cluster.start();
  const file = join(tempDir('nt-plan-'), 'config');
  writeFileSync(file, kubeconfig);
  return file;
}

describe('namespace-teardown --dry-run', () => {
  let cluster: FakeCluster;
  afterEach(() => cluster?.stop());

  function world(): FakeCluster {
    const c = new FakeCluster({ controller: FAST });
    c.addNamespace('team-a', { labels: { team: 'a' } });
    c.addNamespace('pr-1', { labels: { [LABEL]: '1' } });
    return c;
  }

  test('prints the plan, sends only dry runs, changes nothing; exit 0', async () => {
    cluster = world();
    const config = await started(cluster);
    const before = JSON.stringify(stored(cluster));
    const run = await runCli(['--kubeconfig', config, '-n', 'pr-1', '--target-label', LABEL, '--dry-run']);
    expect(run.code).toBe(0);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('✓ Namespace teardown: 1 planned of 1 namespace');
    expect(run.stdout).toContain(
      'Plan (dry run): every write was sent with dryRun=All; nothing was changed.',
    );
    expect(run.stdout).toContain(
      'The namespace DELETEs, in the order the run sends them\n1. pr-1: DELETE accepted (dry run)',
    );
    const writes = cluster.requests.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => `${r.method} ${r.path} ${dryRunAsServerReadsIt(r)}`)).toEqual([
      'DELETE /api/v1/namespaces/pr-1 true',
    ]);
    expect(JSON.stringify(stored(cluster))).toBe(before);
  });

  test('the fence applies in plan mode: the unlabelled target is refused as a real run would refuse it; exit 1', async () => {
    cluster = world();
    const config = await started(cluster);
    const before = JSON.stringify(stored(cluster));
    const run = await runCli([
      '--kubeconfig',
      config,
      '-n',
      'team-a,pr-1',
      '--target-label',
      LABEL,
      '--dry-run',
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/team-a +refused/);
    expect(run.stdout).toContain('1. pr-1: DELETE accepted (dry run)');
    expect(cluster.requests.filter((r) => r.method !== 'GET').map((r) => r.path)).toEqual([
      '/api/v1/namespaces/pr-1',
    ]);
    expect(JSON.stringify(stored(cluster))).toBe(before);
  });
});
