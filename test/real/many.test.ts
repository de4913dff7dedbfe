import { apply, get, runAction, uniqueName } from './kit.js';

describe('20 namespaces at once on the real server', () => {
  test('are all deleted by one selector and all observed gone', async () => {
    const label = uniqueName('batch');
    const names = Array.from({ length: 20 }, (_, i) => `${label}-${i + 1}`);
    await apply(
      ...names.map((name) => ({
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name, labels: { batch: label } },
      })),
      ...names.map((namespace) => ({
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { namespace, name: 'app-config' },
        data: { 'app.properties': 'color=blue\n' },
      })),
    );
    const started = Date.now();
    const run = await runAction({ selector: `batch=${label}`, timeout: '90s', 'fail-on': 'leaked' });
    const elapsed = Date.now() - started;
    expect(run.code).toBe(0);
    expect(run.outputs.result).toBe('clean');
    expect(JSON.parse(run.outputs.deleted!).sort()).toEqual([...names].sort());
    expect(run.report!.targets.every((t) => t.outcome === 'gone' && t.findings.length === 0)).toBe(true);
    expect(run.summary).toContain('20 gone');
    expect((await get(`/api/v1/namespaces?labelSelector=batch%3D${label}`)).items).toEqual([]);
    process.stderr.write(`20 namespaces gone in ${elapsed} ms\n`);
  });
});
