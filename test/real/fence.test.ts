import { join } from 'node:path';
import { runCli } from '../helpers/harness.js';
import { createNamespace, namespace, plane, runAction, uniqueName, waitGone } from './kit.js';

const LABEL = 'preview.example.com/pr';

describe('the fence on targets, on the real server (1.20: no admission policy to fall back on)', () => {
  test('the action: a named team namespace is refused and stays Active; the preview beside it goes', async () => {
    const team = uniqueName('team');
    const preview = uniqueName('pr');
    await createNamespace(team, { team: 'a' });
    await createNamespace(preview, { [LABEL]: '42' });
    const run = await runAction({ namespaces: `${team} ${preview}`, 'target-label': LABEL, timeout: '40s' });
    expect(run.code).toBe(1);
    expect(run.outputs.refused).toBe(JSON.stringify([team]));
    expect(await waitGone(preview)).toBe(true);
    const kept = await namespace(team);
    expect(kept.status.phase).toBe('Active');
    expect(kept.metadata.deletionTimestamp).toBeUndefined();
  });

  test('the command line: `-n team-x --target-label KEY` exits 1 and the namespace stays; without a label, exit 2', async () => {
    const team = uniqueName('team');
    await createNamespace(team, { team: 'a' });
    const kubeconfig = join(plane().dir, 'admin.kubeconfig');
    const refused = await runCli(['--kubeconfig', kubeconfig, '-n', team, '--target-label', LABEL]);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(new RegExp(`^${team} +refused `, 'm'));
    const bad = await runCli(['--kubeconfig', kubeconfig, '-n', team]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--target-label none');
    expect((await namespace(team)).metadata.deletionTimestamp).toBeUndefined();
  });
});
